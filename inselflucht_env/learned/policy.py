"""A loaded network as a player: observation in, legal action (and win estimate) out."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import torch

from inselflucht_env.envs.advice import Advisor
from inselflucht_env.games.inselflucht.rules.engine import State
from inselflucht_env.learned.checkpoint import load_network, read_metadata
from inselflucht_env.learned.network import NetworkSpec, policy_value
from inselflucht_env.learned.shipped import resolve


class Policy:
    """A checkpoint's network that picks legal actions for the deciding figure.

    ``act(state)`` builds the network's own observation (with its advice, if it was trained
    with one) from an engine state such as ``env.unwrapped.game_state``;
    ``predict_action(obs, mask)`` takes an observation already in that form;
    ``evaluate(obs, masks)`` gives masked action probabilities and values for a batch (the
    network-guided search's leaf evaluation).
    """

    def __init__(self, network: Any, spec: NetworkSpec, metadata: dict[str, Any], path: str = ""):
        self.network = network
        self.spec = spec
        self.metadata = metadata
        self.path = path
        signature = metadata["signature"]  # checked on load
        self.game: str = signature.get("game", "inselflucht")
        self.advisor = Advisor(signature.get("advice", "none"))
        self.observation_size = int(signature["observation_size"])
        if self.game == "forbidden_island":
            from inselflucht_env.games.forbidden_island.observation import encode_observation

            self._encode: Any = encode_observation
        else:
            self._encode = self.advisor.observe

    def observe(self, state: Any) -> np.ndarray:
        """The observation this policy reads for ``state.decider`` (a state of its game)."""
        return self._encode(state)

    def act(
        self, state: State, deterministic: bool = True, rng: np.random.Generator | None = None
    ) -> int:
        """The policy's (legal) action for the deciding figure of ``state``."""
        mask = np.asarray(state.legal_mask(), dtype=bool)
        return self.predict_action(self.observe(state), mask, deterministic, rng)

    def predict_action(
        self,
        obs: np.ndarray,
        mask: np.ndarray,
        deterministic: bool = True,
        rng: np.random.Generator | None = None,
    ) -> int:
        """The most likely legal action (or one sampled with ``rng``) for one observation."""
        if np.shape(obs) != (self.observation_size,):
            raise ValueError(
                f"observation of shape {np.shape(obs)}: this policy reads "
                f"({self.observation_size},) (advice {self.advisor.name!r}); "
                "use act(state), which builds it"
            )
        mask = np.asarray(mask, dtype=bool)
        if not mask.any():
            raise ValueError("no legal action in the mask")
        probs, _ = self.evaluate(obs[None], mask[None])
        if deterministic:
            return int(np.argmax(probs[0]))
        rng = rng if rng is not None else np.random.default_rng()
        return int(rng.choice(len(probs[0]), p=probs[0]))

    def evaluate(self, obs: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Masked action probabilities ``(n, 36)`` and value-head outputs ``(n,)``."""
        with torch.no_grad():
            x = torch.as_tensor(np.asarray(obs, dtype=np.float32))
            logits, values = policy_value(self.network, x)
            logits = logits.masked_fill(
                ~torch.as_tensor(np.asarray(masks, dtype=bool)), float("-inf")
            )
            probs = torch.softmax(logits, dim=-1)
        return probs.numpy().astype(np.float64), values.numpy().astype(np.float64)

    def evaluate_state(self, state: State) -> tuple[np.ndarray, float]:
        """``evaluate`` for one state: its masked action probabilities ``(36,)`` and its
        value-head output."""
        mask = np.asarray(state.legal_mask(), dtype=bool)
        probs, values = self.evaluate(self.observe(state)[None], mask[None])
        return probs[0], float(values[0])


def win_probability(value: float) -> float:
    """A value-head output as a probability (the head is linear, trained towards 0..1)."""
    return min(1.0, max(0.0, float(value)))


def load_policy(spec: str | Path) -> Policy:
    """A shipped policy by name (``"ppo_2p_normal"``) or a checkpoint folder, checked first;
    ``CheckpointError`` for anything missing, corrupt, tampered or mismatched."""
    folder = resolve(spec)
    network, net_spec, meta = load_network(folder)
    return Policy(network, net_spec, meta, str(folder))


def trained_reward(metadata: dict[str, Any]) -> tuple[Any, Any]:
    """``(env.reward, ppo.gamma)`` of the config a checkpoint was trained with (None where
    absent, as for expert iteration's networks)."""
    trained = metadata.get("config", {})
    return trained.get("env", {}).get("reward"), trained.get("ppo", {}).get("gamma")


def estimates_win_probability(metadata: dict[str, Any]) -> bool:
    """Whether a checkpoint's value head estimates the team's win probability: expert
    iteration's head does, and so does PPO's critic trained on the win reward (1 for a win,
    else 0) with gamma 1, whose undiscounted return is the win itself."""
    if metadata.get("network", {}).get("value") == "win_probability":
        return True
    return trained_reward(metadata) == ("win", 1)


def check_win_probability(policy: str | Path | Policy, user: str) -> tuple[Policy | None, str]:
    """``(policy or None, folder)`` for a search agent that reads the value head as the
    team's win probability (``estimates_win_probability``); ``ValueError`` for any other
    head. A folder or shipped name is only checked here (its metadata) and loaded on first
    use."""
    if isinstance(policy, Policy):
        loaded: Policy | None = policy
        path, metadata = policy.path, policy.metadata
    else:
        loaded, path = None, str(resolve(policy))
        metadata = read_metadata(path)[1]
    if not estimates_win_probability(metadata):
        reward, gamma = trained_reward(metadata)
        raise ValueError(
            f"{user} needs a network whose value head is a win probability (expert "
            f"iteration, or PPO of the win reward with gamma 1); {path!r} has value "
            f"{metadata.get('network', {}).get('value', 'return')!r} (env.reward "
            f"{reward!r}, ppo.gamma {gamma!r})"
        )
    return loaded, path


def load_policy_with_threads(path: str, threads: int | None) -> Policy:
    """``load_policy(path)`` with torch limited to ``threads`` per process (None: unchanged)."""
    if threads:
        torch.set_num_threads(threads)
    return load_policy(path)
