"""Batched kernels: many games stepped in parallel (``prange``), outputs in caller arrays.

``step_engine`` is the bare engine (apply one action per game); ``step_envs`` is one step
of the vector env: apply, reward, observation, mask and autoreset, in one compiled loop so
that Python touches the batch once per step, not once per game. Each game owns its row of
``states`` and its generator ``rng[i]``, so the games of a batch never share anything.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from inselflucht_env.compiled import layout as L
from inselflucht_env.compiled.observe import encode, write_mask
from inselflucht_env.compiled.rules import (
    apply,
    below,
    decider,
    jit,
    legal_bits,
    new_game,
    parallel_jit,
)
from inselflucht_env.games.inselflucht.reward import (
    SHAPED_KING_SEEN,
    SHAPED_SALVAGE,
    SHAPED_TREASURE,
)
from inselflucht_env.games.inselflucht.rules.cards import HELICOPTER, KING
from inselflucht_env.games.inselflucht.rules.engine import DRY, FLOODED

NEXT_STEP, SAME_STEP = 0, 1  # autoreset: Gymnasium 1.x's default, and SB3's VecEnv


@jit
def reset_game(s: np.ndarray, template: np.ndarray, layout: np.ndarray, rng: np.ndarray) -> None:
    """A fresh game in row ``s``: the template's config, meter and scripts, a new deal."""
    s[:] = template
    new_game(s, layout, rng)


@parallel_jit
def reset_games(
    states: np.ndarray,
    which: np.ndarray,
    template: np.ndarray,
    layout: np.ndarray,
    rng: np.ndarray,
    obs: np.ndarray,
    masks: np.ndarray,
    deciding: np.ndarray,
) -> None:
    """Reset the games with ``which[i]`` set and write every game's observation, mask and
    deciding figure."""
    for i in nb.prange(states.shape[0]):
        if which[i]:
            reset_game(states[i], template, layout, rng[i : i + 1])
        encode(states[i], obs[i])
        write_mask(states[i], masks[i])
        deciding[i] = decider(states[i])


@jit
def _progress(s: np.ndarray) -> tuple[int, int, int]:
    """The shaped reward's public counts as one sum (``InselfluchtEnv._progress``)."""
    lifted = 0
    for suit in range(4):
        lifted += s[L.LIFTED + suit]
    kings = np.zeros(4, dtype=np.int64)
    for p in range(25):
        c = s[L.CARD + p]
        st = s[L.STATUS + p]
        if (st == DRY or st == FLOODED) and KING <= c < HELICOPTER:
            kings[c - KING] = 1
    for k in range(s[L.SET_ASIDE_LEN]):
        c = s[L.SET_ASIDE + k]
        if KING <= c < HELICOPTER:
            kings[c - KING] = 1
    for k in range(s[L.BOX_LEN]):
        c = s[L.BOX + k]
        if KING <= c < HELICOPTER:
            kings[c - KING] = 1
    useful = 0
    for f in range(s[L.FIGURES]):
        for k in range(s[L.SALVAGE_LEN + f]):
            if not s[L.LIFTED + s[L.SALVAGE + f * L.MAX_SALVAGE + k] // 5]:
                useful += 1
    return lifted, kings.sum(), useful


@parallel_jit
def step_envs(
    states: np.ndarray,
    actions: np.ndarray,
    needs_reset: np.ndarray,
    template: np.ndarray,
    layout: np.ndarray,
    rng: np.ndarray,
    shaped: bool,
    autoreset: int,
    obs: np.ndarray,
    masks: np.ndarray,
    rewards: np.ndarray,
    terminated: np.ndarray,
    outcomes: np.ndarray,
    final_obs: np.ndarray,
    deciding: np.ndarray,
) -> None:
    """One vector-env step of every game.

    NEXT_STEP: a game that ended on the last step is reset now (its action ignored, reward
    0). SAME_STEP: a game that ends now writes its last observation to ``final_obs`` and is
    reset at once. ``outcomes[i]`` is the outcome index of a game that ended in this step,
    else -1. An illegal action ends that game as ``illegal`` (-1 shaped, 0 win reward).
    """
    for i in nb.prange(states.shape[0]):
        s = states[i]
        g = rng[i : i + 1]
        outcomes[i] = L.RUNNING
        if autoreset == NEXT_STEP and needs_reset[i]:
            reset_game(s, template, layout, g)
            needs_reset[i] = False
            rewards[i] = 0.0
            terminated[i] = False
        else:
            if shaped:
                lifted, kings, useful = _progress(s)
            legal = apply(s, actions[i], g)
            outcome = s[L.OUTCOME]
            reward = 0.0
            if not legal:
                reward = -1.0 if shaped else 0.0
            elif shaped:
                lifted2, kings2, useful2 = _progress(s)
                reward = (
                    SHAPED_TREASURE * (lifted2 - lifted)
                    + SHAPED_KING_SEEN * (kings2 - kings)
                    + SHAPED_SALVAGE * max(useful2 - useful, 0)
                )
                if outcome != L.RUNNING:
                    reward += 1.0 if outcome == L.WIN else -1.0
            elif outcome == L.WIN:
                reward = 1.0
            rewards[i] = reward
            terminated[i] = outcome != L.RUNNING
            if outcome != L.RUNNING:
                outcomes[i] = outcome
                if autoreset == NEXT_STEP:
                    needs_reset[i] = True
                else:
                    encode(s, final_obs[i])
                    reset_game(s, template, layout, g)
        encode(s, obs[i])
        write_mask(s, masks[i])
        deciding[i] = decider(s)


@parallel_jit
def step_engine(states: np.ndarray, actions: np.ndarray, rng: np.ndarray) -> None:
    """Apply ``actions[i]`` to game i (the bare engine: no observation, no reset)."""
    for i in nb.prange(states.shape[0]):
        apply(states[i], actions[i], rng[i : i + 1])


@jit
def random_legal(bits: int, rng: np.ndarray) -> int:
    """A uniformly random action from the legal bit set ``bits`` (not empty)."""
    count = 0
    b = bits
    while b:
        b &= b - 1
        count += 1
    k = below(rng, count)
    a = 0
    while True:
        if bits >> a & 1:
            if k == 0:
                return a
            k -= 1
        a += 1


@parallel_jit
def step_random(
    states: np.ndarray, template: np.ndarray, layout: np.ndarray, rng: np.ndarray
) -> None:
    """One uniformly random legal action in every game; a finished game is dealt anew.

    The bare engine's speed (mask + apply), as the benchmark measures it."""
    for i in nb.prange(states.shape[0]):
        s = states[i]
        g = rng[i : i + 1]
        bits = legal_bits(s)
        if bits == 0:
            reset_game(s, template, layout, g)
        else:
            apply(s, random_legal(bits, g), g)


@parallel_jit
def sample_masks(masks: np.ndarray, rng: np.ndarray, out: np.ndarray) -> None:
    """A uniformly random legal action per row of ``masks`` (0 for an empty row)."""
    for i in nb.prange(masks.shape[0]):
        bits = 0
        for a in range(masks.shape[1]):
            if masks[i, a]:
                bits |= 1 << a
        out[i] = random_legal(bits, rng[i : i + 1]) if bits else 0
