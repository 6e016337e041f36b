"""Watch a learned team play: one episode rendered decision by decision.

    python -m train.enjoy [--checkpoint checkpoints/ppo_2p_normal] [--seed 0] [--gif game.gif]

The policy plays every figure (it sees each decision from the deciding figure's seat). Each
decision is printed by name with the island drawn as text; ``--gif`` also writes the
``rgb_array`` frames as an animated GIF.
"""

from __future__ import annotations

import argparse
import sys
import time

import gymnasium as gym

import inselflucht_env  # noqa: F401
from train.checkpoint import CheckpointError, load_policy

DEFAULT_CHECKPOINT = "checkpoints/ppo_2p_normal"


def play(checkpoint: str, seed: int, gif: str | None = None, delay: float = 0.0,
         colour: bool = False, out=sys.stdout) -> str:
    """Play one episode and print it; returns the outcome."""
    from inselflucht_env.render_text import render_ansi
    policy = load_policy(checkpoint)
    env_kwargs = {k: v for k, v in policy.metadata["config"]["env"].items() if k != "reward"}
    env = gym.make("Inselflucht-v0", render_mode="rgb_array" if gif else None, **env_kwargs)
    _, info = env.reset(seed=seed)
    state = env.unwrapped.game_state
    frames = [env.render()] if gif else []
    print(render_ansi(state, colour=colour), file=out)
    decisions = 0
    while True:
        who = info["decider"]
        action = policy.act(state)
        _, _, terminated, truncated, info = env.step(action)
        decisions += 1
        print(f"\n#{decisions} figure {who}: {env.unwrapped.action_name(action)}", file=out)
        print(render_ansi(state, colour=colour), file=out)
        if gif:
            frames.append(env.render())
        if delay:
            time.sleep(delay)
        if terminated or truncated:
            break
    if gif:
        from inselflucht_env.replay import write_gif
        write_gif(frames, gif)
        print(f"wrote {len(frames)} frames to {gif}", file=out)
    print(f"outcome: {info['outcome']} after {decisions} decisions", file=out)
    return info["outcome"]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--checkpoint", default=DEFAULT_CHECKPOINT, help="checkpoint folder")
    parser.add_argument("--seed", type=int, default=0, help="seed of the deal")
    parser.add_argument("--gif", help="also write the game as an animated GIF to this path")
    parser.add_argument("--delay", type=float, default=0.0, help="seconds between decisions")
    parser.add_argument("--colour", action="store_true", help="ANSI colours")
    args = parser.parse_args(argv)
    try:
        play(args.checkpoint, args.seed, args.gif, args.delay, args.colour)
    except CheckpointError as err:
        sys.exit(f"error: {err}")


if __name__ == "__main__":
    main()
