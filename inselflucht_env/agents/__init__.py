"""Agents for Inselflucht, behind one interface (``base.Agent``), built by ``make_agent``.

``make_agent(spec)`` builds one from a name:

* ``"random"``: uniform over the legal actions (``random_agent.py``);
* ``"heuristic"``: the hand-written expert team policy (``heuristic.py``);
* ``"novice"``: the heuristic with a slip of a random legal action at 20% of decisions, a
  stand-in for a beginner team;
* ``"search"``: determinized Monte Carlo with the heuristic as rollout policy (``search.py``);

``engine="compiled"`` (the default) gives the heuristic, the novice and the search on the
compiled core (``inselflucht_env.compiled``: the same heuristic choices exactly, the same
search algorithm with its own random stream, no wall-clock limit); ``engine="reference"``
the Python classes. Heuristic weights other than the defaults exist only in the reference,
so a heuristic or novice given weights plays it.
* ``"<kind>:<argument>"``: an agent kind registered by a higher layer with
  ``register_agent_kind``; ``inselflucht_env.learned`` registers ``checkpoint:`` (a trained
  network), ``netsearch:`` (tree search guided by one) and ``netflat:`` (the ``search``
  agent with its rollouts cut short and judged by one's value head);
* anything else is a checkpoint folder or shipped policy name, for the ``checkpoint`` kind.

``make_agent(spec, game="forbidden_island")`` builds ``random``, ``heuristic``, ``novice``
and ``search`` for Forbidden Island (``games/forbidden_island/heuristic.py`` and
``search.py``, Python only).

This layer knows only the engine. Learned agents need torch; their package registers itself
when imported, and ``make_agent`` imports the registered plugin modules (``PLUGINS``) the
first time it meets a spec it does not know, so ``make_agent("ppo_2p_normal")`` works
without an explicit import, and without torch the error says what to install.

Every agent acts for ``state.decider`` from public facts only (R9): ``knowledge.py`` is
the one module that reads face-up cards, and ``determinize.py`` samples the hidden rest.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from inselflucht_env.agents.base import Agent, check_engine
from inselflucht_env.agents.random_agent import RandomAgent
from inselflucht_env.agents.search import SearchAgent
from inselflucht_env.errors import InputError
from inselflucht_env.game import get_game
from inselflucht_env.games.inselflucht.heuristic import HeuristicAgent

AGENT_NAMES = ("random", "heuristic", "novice", "search")
NOVICE_EPSILON = 0.2
CHECKPOINT_KIND = "checkpoint"
PLUGINS = ("inselflucht_env.learned",)  # modules that register agent kinds on import

AgentFactory = Callable[..., Agent]
_KINDS: dict[str, AgentFactory] = {}


def register_agent_kind(kind: str, factory: AgentFactory) -> None:
    """Make ``make_agent(f"{kind}:{argument}", **kw)`` call ``factory(argument, **kw)``."""
    if not kind.isidentifier() or kind in AGENT_NAMES:
        raise ValueError(f"agent kind {kind!r} must be an identifier other than {AGENT_NAMES}")
    _KINDS[kind] = factory


def _load_plugins() -> None:
    for module in PLUGINS:
        try:
            importlib.import_module(module)
        except ImportError as err:
            raise InputError(
                f"learned agents need the 'policies' extra "
                f"(pip install 'inselflucht-gym[policies]'): {err}"
            ) from None


def _rule_based(spec: str, engine: str, kwargs: dict[str, Any]) -> Agent:
    """The heuristic, novice or search on ``engine`` (the compiled core imported only here)."""
    if spec == "novice":
        kwargs = {"epsilon": NOVICE_EPSILON, **kwargs}
    if spec == "search":
        if engine == "reference":
            return SearchAgent(**kwargs)
        from inselflucht_env.compiled.search import CompiledSearch

        return CompiledSearch(**kwargs)
    weights = set(kwargs) - {"epsilon"}
    if engine == "reference" or weights:
        return HeuristicAgent(**kwargs)
    from inselflucht_env.compiled.heuristic import CompiledHeuristicAgent

    return CompiledHeuristicAgent(**kwargs)


def _other_game(spec: str, game: str, kwargs: dict[str, Any]) -> Agent:
    """The heuristic, novice, search or a checkpoint of another game (``game.py``'s
    registry); the rule-based ones have one engine, the reference."""
    get_game(game)  # an unknown game: the registry's one-line error
    if spec not in AGENT_NAMES:
        kind, sep, argument = spec.partition(":")
        if not (sep and kind.isidentifier()):
            kind, argument = CHECKPOINT_KIND, spec
        if kind != CHECKPOINT_KIND:
            raise InputError(
                f"agent spec {spec!r}: {game} has the agents {', '.join(AGENT_NAMES)} and "
                f"{CHECKPOINT_KIND}:<folder> (the network-guided searches are Inselflucht's)"
            )
        if kind not in _KINDS:
            _load_plugins()
        return _KINDS[kind](argument, game=game, **kwargs)
    engine = kwargs.pop("engine", "reference")
    if check_engine(engine) != "reference":
        raise InputError(f"{game} has no compiled core: use engine='reference'")
    package = f"inselflucht_env.games.{game}"
    if spec == "search":
        return importlib.import_module(f"{package}.search").SearchAgent(**kwargs)
    if spec == "novice":
        kwargs = {"epsilon": NOVICE_EPSILON, **kwargs}
    return importlib.import_module(f"{package}.heuristic").HeuristicAgent(**kwargs)


def make_agent(spec: str, *, game: str = "inselflucht", **kwargs: Any) -> Agent:
    """An agent for ``game`` from a name, ``kind:argument`` or a checkpoint (see the module
    docstring).

    Keyword arguments go to the agent's constructor (e.g. ``simulations=200`` for search,
    heuristic weights or ``epsilon`` for heuristic and novice, ``engine`` for those three);
    ``None`` values are dropped.
    """
    if not isinstance(spec, str) or not spec:
        raise InputError(
            f"agent spec {spec!r}: expected one of {AGENT_NAMES}, kind:argument or a checkpoint"
        )
    kwargs = {k: v for k, v in kwargs.items() if v is not None}
    if spec == "random":
        return RandomAgent()
    if game != "inselflucht":
        return _other_game(spec, game, kwargs)
    if spec in AGENT_NAMES:
        return _rule_based(spec, check_engine(kwargs.pop("engine", "compiled")), kwargs)
    kind, sep, argument = spec.partition(":")
    if not (sep and kind.isidentifier()):
        kind, argument = CHECKPOINT_KIND, spec
    if kind not in _KINDS:
        _load_plugins()
    if kind not in _KINDS:
        raise InputError(
            f"agent spec {spec!r}: unknown kind {kind!r} (known: "
            f"{', '.join(AGENT_NAMES + tuple(sorted(_KINDS)))})"
        )
    return _KINDS[kind](argument, **kwargs)


__all__ = [
    "AGENT_NAMES",
    "Agent",
    "HeuristicAgent",
    "RandomAgent",
    "SearchAgent",
    "make_agent",
    "register_agent_kind",
]
