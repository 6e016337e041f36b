"""Play Inselflucht in the terminal: you run one figure, agents run the others.

    inselflucht-play --players 2 --teammate heuristic
    inselflucht-play --players 3 --teammate search --seed 7 --save-replay game.json
    inselflucht-play --players 1          # solo: you run both figures (R2.4)

At each of your decisions the island is drawn (in colour unless ``--no-colour``) and the
legal actions are listed with their numbers. Type a number (``0``), a name (``move:up``,
``move up``) or a unique beginning of a legal name (``end``, ``lift``); ``?`` lists the
actions again, ``board`` redraws the island, ``quit`` stops (so does end of input).
Anything else is answered with a hint and asked again: the game state never changes on
bad input. Your teammates' decisions are printed by name, and so are the floods.
``--seed`` replays a deal; ``--save-replay`` writes the game (finished or not) as a replay
file for ``inselflucht-replay``.
"""

from __future__ import annotations

import argparse
import builtins
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TextIO, cast

import numpy as np

from inselflucht_env.agents import make_agent
from inselflucht_env.envs.inselflucht import InselfluchtEnv
from inselflucht_env.games.inselflucht.render.narrate import public_events
from inselflucht_env.games.inselflucht.rules.actions import ACTION_NAMES, N_ACTIONS
from inselflucht_env.games.inselflucht.rules.config import METER_PRESETS
from inselflucht_env.games.inselflucht.rules.public import describe
from inselflucht_env.replay import ReplayRecorder

COMMANDS_HELP = (
    "Type an action number or name (a unique beginning is enough, e.g. 'end' "
    "for end_turn; 'move up' = 'move:up'). Commands: '?' or 'help' lists the "
    "legal actions, 'board' redraws the island, 'quit' ends the game."
)
QUIT_WORDS = {"quit", "exit", "q", ":q"}
HELP_WORDS = {"?", "help", "h", "list", "legal"}
BOARD_WORDS = {"board", "show", "b", "map"}

ACTION_HELP = {
    "move": "step to an adjacent field (R4.2, 1 action)",
    "swim": "swim over one sea place (R4.3)",
    "shore": "turn a flooded field dry (R4.4, 1 action)",
    "salvage": "take an adjacent land card (R4.5, 1 action)",
    "give": "give salvaged cards to a figure on your field (R4.6, 1 action)",
    "lift": "lift the treasure of this king (R4.7, 1 action)",
    "take_off": "all treasures lifted, all on the helicopter: win (R4.8)",
    "end_turn": "let the rest of your actions lapse (R4.1)",
    "card": "choose a card of this suit (give / short-suit lift)",
    "done": "finish giving",
    "escape": "swim from the sinking place to this neighbour (R5.5)",
}


class Quit(Exception):
    """The human asked to stop (``quit`` or end of input)."""


class Console:
    """Line input and output: ``input()`` on the real terminal, else the given streams."""

    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None):
        self.use_input = stdin is None
        self.stdin = stdin
        self.stdout = stdout or sys.stdout

    def print(self, text: str = "") -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def ask(self, prompt: str) -> str:
        """One line of input; ``Quit`` at end of input or Ctrl-C."""
        try:
            if self.use_input:
                if self.stdout is not sys.stdout:
                    self.stdout.write(prompt)
                    self.stdout.flush()
                    return builtins.input()
                return builtins.input(prompt)
            self.stdout.write(prompt)
            self.stdout.flush()
            assert self.stdin is not None  # use_input is False only with a stream
            line = self.stdin.readline()
        except (EOFError, KeyboardInterrupt):
            raise Quit("end of input") from None
        except UnicodeDecodeError:
            self.print("(that line could not be read as text)")
            return ""
        if line == "":
            raise Quit("end of input")
        line = line.rstrip("\r\n")
        self.stdout.write(line + "\n")  # echo, as a terminal would
        return line


def parse_choice(text: str, legal: Sequence[int]) -> tuple[int | None, str]:
    """Turn the human's text into a legal action index, or ``(None, hint)``.

    Accepts an action number, a full name, a name with spaces for ``:``/``_``, or a
    unique beginning of a legal name.
    """
    raw = text.strip()
    t = re.sub(r"\s+", " ", raw.lower())
    legal_names = {ACTION_NAMES[a]: a for a in legal}
    listing = "; ".join(f"{a} {ACTION_NAMES[a]}" for a in legal)
    if not t:
        return None, f"Nothing typed. Legal now: {listing}. Type ? for help."
    if re.fullmatch(r"[+-]?\d+", t):
        n = int(t)
        if not 0 <= n < N_ACTIONS:
            return None, (
                f"There is no action {n}: numbers run 0-{N_ACTIONS - 1}. Legal now: {listing}."
            )
        if n in legal:
            return n, ""
        return None, f"Action {n} ({ACTION_NAMES[n]}) is not legal now. Legal now: {listing}."
    candidates = [t, t.replace(" ", ":"), t.replace(" ", "_"), t.replace(" ", "")]
    for c in candidates:
        if c in legal_names:
            return legal_names[c], ""
    for c in candidates:
        if c in ACTION_NAMES:
            return None, f"'{c}' is not legal now. Legal now: {listing}."
    for c in candidates:
        hits = [name for name in legal_names if name.startswith(c)]
        if len(hits) == 1:
            return legal_names[hits[0]], ""
        if len(hits) > 1:
            return None, f"'{raw}' could be {', '.join(hits)}: type more of the name or a number."
    for c in candidates:
        if any(name.startswith(c) for name in ACTION_NAMES):
            return None, f"No '{raw}' action is legal now. Legal now: {listing}."
    return None, f"Unknown action '{raw}'. Legal now: {listing}. Type ? for help."


def legal_listing(legal: Sequence[int]) -> list[str]:
    """The legal actions, one line each: number, name, what it does."""
    lines = []
    for a in legal:
        name = ACTION_NAMES[a]
        kind = name.split(":")[0]
        lines.append(f"  {a:>2}  {name:<16} {ACTION_HELP.get(kind, '')}".rstrip())
    return lines


def _make_agents(spec: str, figures: Sequence[int]) -> dict[int, Any]:
    """One agent per figure from ``--teammate`` (``agents.make_agent``: a name, a shipped
    policy, a checkpoint folder); a bad spec is a ``ValueError`` naming it."""
    return {f: make_agent(spec) for f in figures}


def play_game(
    env_kwargs: Mapping[str, Any],
    humans: Sequence[int],
    agents: Mapping[int, Any],
    seed: int,
    *,
    options: Mapping[str, Any] | None = None,
    console: Console | None = None,
    colour: bool = True,
    agent_names: Mapping[int, str] | None = None,
    save_replay: str | None = None,
    agent_seed: int | None = None,
) -> str | None:
    """The game loop. Returns the outcome, or ``None`` when the human quit.

    ``humans``: figures the human runs; ``agents``: an agent (``act(state, rng)``) for each
    other figure. ``console`` reads and writes (default: the terminal).
    """
    from inselflucht_env.games.inselflucht.render.text import OUTCOME_TEXT, render_ansi

    con = console or Console()
    env = ReplayRecorder(
        InselfluchtEnv(**env_kwargs),
        meta={
            "source": "play",
            "humans": list(humans),
            "teammates": {
                str(f): (agent_names or {}).get(f, type(a).__name__) for f, a in agents.items()
            },
        },
    )
    game = cast(InselfluchtEnv, env.unwrapped)
    env.reset(seed=seed, options=dict(options) if options is not None else None)
    rng = np.random.default_rng([seed, 1] if agent_seed is None else agent_seed)
    names = dict(agent_names or {})
    n_fig = game.config.figures
    who = ", ".join(
        f"figure {f}: " + ("you" if f in humans else names.get(f, "agent")) for f in range(n_fig)
    )
    con.print(f"Inselflucht, seed {seed} ({who}). Replay this deal with --seed {seed}.")
    con.print(COMMANDS_HELP)
    outcome: str | None = None
    shown_turn = None
    try:
        while True:
            state = game.game_state
            if state.outcome is not None:
                outcome = state.outcome
                break
            f = state.decider
            before = describe(state)
            if f in humans:
                legal = state.legal_actions()
                con.print("")
                con.print(render_ansi(state, colour=colour))
                con.print(f"Figure {f}, your decision. Legal actions:")
                for line in legal_listing(legal):
                    con.print(line)
                action = _ask_human(con, state, f, colour, render_ansi)
                label = f"You (figure {f})"
            else:
                if shown_turn != state.turn and state.pending is None:
                    con.print(f"--- turn {state.turn}: figure {f} ({names.get(f, 'agent')}) plays")
                    shown_turn = state.turn
                try:
                    action = int(agents[f].act(state, rng))
                except Exception as err:  # a broken teammate stops the game, never loses it
                    raise Quit(
                        f"teammate of figure {f} failed: {type(err).__name__}: {err}"
                    ) from None
                legal = state.legal_actions()
                if action not in legal:  # an agent bug must not end the human's game
                    con.print(
                        f"figure {f} ({names.get(f, 'agent')}) chose action {action}, "
                        f"which is not legal; it plays {ACTION_NAMES[legal[-1]]} instead"
                    )
                    action = legal[-1]
                label = f"Figure {f} ({names.get(f, 'agent')})"
            env.step(action)
            con.print(f"{label}: {ACTION_NAMES[action]}")
            after = describe(game.game_state)
            for line in public_events(before, after):
                con.print(f"   {line}")
    except (Quit, KeyboardInterrupt) as why:
        con.print("")
        con.print(f"Game stopped ({why or 'interrupted'}). The deal was seed {seed}.")
    finally:  # even if an agent crashes, the game so far is kept
        if save_replay:
            try:
                env.replay.save(save_replay)
                con.print(f"Replay saved to {save_replay} (inselflucht-replay {save_replay}).")
            except OSError as err:
                con.print(f"Could not save the replay to {save_replay}: {err}")
    state = game.game_state
    if outcome is not None:
        con.print("")
        con.print(render_ansi(state, colour=colour))
        con.print(OUTCOME_TEXT.get(outcome, outcome) + f" (turn {state.turn}, seed {seed})")
    env.close()
    return outcome


def _ask_human(con: Console, state, figure: int, colour: bool, render_ansi: Callable) -> int:
    legal = state.legal_actions()
    while True:
        text = con.ask(f"figure {figure} > ")
        word = text.strip().lower()
        if word in QUIT_WORDS:
            raise Quit("you quit")
        if word in HELP_WORDS:
            con.print(COMMANDS_HELP)
            con.print("Legal actions:")
            for line in legal_listing(legal):
                con.print(line)
            continue
        if word in BOARD_WORDS:
            con.print(render_ansi(state, colour=colour))
            continue
        action, hint = parse_choice(text, legal)
        if action is not None:
            return action
        con.print(hint)


def _figures_arg(text: str) -> list[int] | str:
    if text.strip().lower() == "all":
        return "all"
    try:
        return sorted({int(v) for v in text.split(",")})
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a figure number, a comma list (0,2) or 'all', got {text!r}"
        ) from None


def _meter_arg(text: str) -> str | list[int]:
    if text in METER_PRESETS:
        return text
    try:
        return [int(v) for v in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a preset ({', '.join(METER_PRESETS)}) or levels like 1,2,3,4,5, got {text!r}"
        ) from None


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="inselflucht-play",
        description="Play Inselflucht in the terminal with agent teammates.",
    )
    p.add_argument("--players", type=int, default=2, help="1-4 (1 = solo, two figures; default 2)")
    p.add_argument(
        "--teammate",
        default="heuristic",
        help="agent for the other figures: random, heuristic, novice, search, a "
        "shipped policy name (e.g. ppo_2p_normal) or a checkpoint folder "
        "(default heuristic)",
    )
    p.add_argument(
        "--human-figure",
        type=_figures_arg,
        default=None,
        help="figure(s) you run: 0-3, a list like 0,2, or all (default 0; solo: all)",
    )
    p.add_argument("--seed", type=int, default=None, help="the deal (default: random, printed)")
    p.add_argument(
        "--taucher", action="store_true", help="variant Taucher: swimming costs 1 (R7.1)"
    )
    p.add_argument("--short-game", action="store_true", help="variant Kurzes Spiel (R7.2)")
    p.add_argument(
        "--meter",
        type=_meter_arg,
        default="normal",
        help="water meter: normal, leicht, schwer or levels like 1,2,2,3 (R7.3)",
    )
    p.add_argument("--save-replay", metavar="PATH", help="save the game as a replay JSON file")
    p.add_argument(
        "--no-colour",
        "--no-color",
        dest="colour",
        action="store_false",
        help="plain text without ANSI colours",
    )
    return p


def main(
    argv: Sequence[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None
) -> int:
    """Command line entry point; ``stdin``/``stdout`` streams replace the terminal in tests."""
    parser = build_parser()
    args = parser.parse_args(argv)
    con = Console(stdin, stdout)
    env_kwargs = {
        "players": args.players,
        "taucher": args.taucher,
        "short_game": args.short_game,
        "meter": args.meter,
    }
    try:
        figures = InselfluchtEnv(**env_kwargs).config.figures
    except ValueError as err:
        parser.error(str(err))
    humans = args.human_figure
    if humans is None:
        humans = "all" if args.players == 1 else [0]
    if humans == "all":
        humans = list(range(figures))
    bad = [f for f in humans if not 0 <= f < figures]
    if bad:
        parser.error(f"--human-figure {bad[0]} does not exist: figures are 0-{figures - 1}")
    if args.seed is not None and not 0 <= args.seed < 2**63:
        parser.error("--seed must be 0 <= seed < 2**63")
    seed = args.seed if args.seed is not None else int(np.random.default_rng().integers(2**31 - 1))
    others = [f for f in range(figures) if f not in humans]
    try:
        agents = _make_agents(args.teammate, others) if others else {}
    except (ValueError, OSError, ImportError) as err:
        con.print(f"error: cannot make teammate {args.teammate!r}: {err}")
        return 2
    play_game(
        env_kwargs,
        humans,
        agents,
        seed,
        console=con,
        colour=args.colour,
        agent_names={f: args.teammate for f in others},
        save_replay=args.save_replay,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
