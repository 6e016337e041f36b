"""The Ray backend of the evaluation harness: episodes as Ray tasks over a whole cluster.

``RayBackend`` (``--backend ray``) runs here. Why it gives the same records as the process
pool: every episode depends only on its seed (``play_episode``
derives the deal and the agent's generator from it), so where a seed is played does not
matter. Seeds go out in chunks, one Ray task per chunk (one CPU each), so Ray spreads them
over every CPU of the cluster; results are collected by seed, so a chunk that Ray runs
again after its worker died (``max_retries``) can neither lose an episode nor count one
twice. A tqdm bar counts finished games.

Every node needs the same ``inselflucht-gym`` installed (``pip install
'inselflucht-gym[rllib]'``) and, for a checkpoint agent, the checkpoint at the same path
(a shared file system) -- or use a shipped policy's name.

Fault injection for tests: when the file named by ``$INSELFLUCHT_KILL_ONE_WORKER`` exists,
the first task that manages to delete it kills its own worker process (``os._exit``), as a
crashed or preempted node would.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Iterable
from typing import Any

from inselflucht_env.agents import make_agent
from inselflucht_env.errors import InputError
from inselflucht_env.evaluation.episode import (
    Episode,
    EpisodeTask,
    chunks,
    play_episode,
    progress_bar,
)
from inselflucht_env.evaluation.episode import (
    chunk_size as _default_chunk_size,
)

MAX_RETRIES = 3  # Ray re-runs a task this often when its worker or node dies
KILL_ENV = "INSELFLUCHT_KILL_ONE_WORKER"
INSTALL_HINT = (
    "pip install 'inselflucht-gym[rllib]' (or just pip install ray), or use "
    "the process pool (--backend pool)"
)

_AGENTS: dict[str, Any] = {}  # per worker process: agents built so far, by spec and kwargs


def import_ray() -> Any:
    """The ``ray`` module, or an ``InputError`` saying how to install it."""
    try:
        import ray
    except ImportError:
        raise InputError(
            f"--backend ray needs Ray, which is not installed: {INSTALL_HINT}"
        ) from None
    return ray


def connect(address: str | None = None, num_cpus: int | None = None) -> int:
    """Join the Ray cluster at ``address`` (``"auto"``, ``"HOST:6379"``, ``"ray://..."``),
    or start a local one when ``address`` is None; returns the cluster's CPU count.

    An already connected driver is reused (``train.difficulty`` evaluates many cells).
    An unreachable address is one ``InputError`` naming it and how to start a cluster.
    ``num_cpus`` limits a local Ray (tests; a shared machine).
    """
    ray = import_ray()
    if not ray.is_initialized():
        if address not in (None, "auto", "local"):
            _probe(address)
        kwargs: dict[str, Any] = {
            "address": address,
            "include_dashboard": False,
            "logging_level": logging.WARNING,
            "log_to_driver": False,
        }
        if address is None and num_cpus is not None:
            kwargs["num_cpus"] = num_cpus
        try:
            if address is None:  # a local start spawns Ray's daemons: they keep our stderr
                ray.init(**kwargs)
            else:
                with _stderr_held_back() as held:
                    try:
                        ray.init(**kwargs)
                    except BaseException:
                        held.drop()
                        raise
        except (ConnectionError, RuntimeError, ValueError, TimeoutError) as err:
            first = (str(err).strip().splitlines() or [type(err).__name__])[0]
            raise InputError(
                f"cannot reach a Ray cluster at --address {address!r}: {first[:200]}; start "
                "one with `ray start --head` (then --address auto or HEAD_IP:6379), or leave "
                "--address out for a local Ray"
            ) from None
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


class _stderr_held_back:
    """Holds back what is written to file descriptor 2 (Ray's C++ core logs a line a second
    while it retries a dead address) and writes it out at the end unless ``drop()`` was
    called: on failure the one error line says it all, on success nothing is lost. Only
    for joining a cluster: a local start spawns daemons that would inherit the file."""

    def __enter__(self) -> _stderr_held_back:
        import tempfile

        self._file = tempfile.TemporaryFile()
        self._saved = os.dup(2)
        os.dup2(self._file.fileno(), 2)
        self._keep = True
        return self

    def drop(self) -> None:
        self._keep = False

    def __exit__(self, *exc: object) -> None:
        os.dup2(self._saved, 2)
        os.close(self._saved)
        if self._keep:
            self._file.seek(0)
            os.write(2, self._file.read())
        self._file.close()


def _probe(address: str, timeout: float = 5.0) -> None:
    """A quick TCP connect to ``HOST:PORT``: ``ray.init`` waits minutes on a dead address
    before it fails, this says so in seconds."""
    hostport = address.split("://", 1)[-1]
    host, _, port = hostport.rpartition(":")
    if not host or not port.isdigit():
        raise InputError(
            f"--address {address!r} is not auto, HOST:PORT or ray://HOST:PORT "
            "(the head node's address that `ray start --head` prints)"
        )
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as err:
        raise InputError(
            f"cannot reach a Ray cluster at --address {address!r} ({err}); start "
            "one with `ray start --head` on the head node, or leave --address "
            "out for a local Ray"
        ) from None


def _maybe_die() -> None:
    """Test hook (see the module docstring): kill this worker once."""
    marker = os.environ.get(KILL_ENV)
    if marker:
        try:
            os.unlink(marker)
        except FileNotFoundError:
            return
        os._exit(1)


def play_chunk(
    spec: str,
    agent_kwargs: dict[str, Any],
    config: Any,
    seeds: list[int],
    game: str = "inselflucht",
) -> list[Episode]:
    """The body of one Ray task: the episodes of ``seeds``, with an agent kept per worker
    (building a search or checkpoint agent once per process, as the pool does)."""
    _maybe_die()
    key = repr((game, spec, sorted(agent_kwargs.items())))
    if key not in _AGENTS:
        _AGENTS[key] = make_agent(spec, game=game, **agent_kwargs)
    return [play_episode(_AGENTS[key], config, s, game) for s in seeds]


def _result(ray: Any, ref: Any) -> list[Episode]:
    """A task's episodes; bad input met on a worker (a checkpoint missing on that node)
    stays one ``InputError`` line instead of a remote traceback."""
    try:
        return ray.get(ref)
    except ray.exceptions.RayTaskError as err:
        cause = getattr(err, "cause", None)
        if isinstance(cause, InputError):
            raise InputError(f"on a Ray worker: {cause}") from None
        raise


def run_episodes_ray(
    spec: str,
    config: Any,
    seeds: Iterable[int],
    agent_kwargs: dict[str, Any] | None = None,
    progress: bool = True,
    desc: str | None = None,
    address: str | None = None,
    chunk_size: int | None = None,
    game: str = "inselflucht",
) -> list[Episode]:
    """``evaluation.run_episodes`` on Ray: the same ``Episode`` list, sorted by seed."""
    ray = import_ray()
    seeds = list(seeds)
    agent_kwargs = dict(agent_kwargs or {})
    cpus = connect(address)
    size = chunk_size or _default_chunk_size(len(seeds), cpus)
    task = ray.remote(num_cpus=1, max_retries=MAX_RETRIES, retry_exceptions=False)(play_chunk)
    pending = {
        task.remote(spec, agent_kwargs, config, chunk, game): chunk for chunk in chunks(seeds, size)
    }
    by_seed: dict[int, Episode] = {}
    bar = progress_bar(len(seeds), desc or spec, progress)
    try:
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1, timeout=60)
            for ref in done:
                chunk = pending.pop(ref)
                for episode in _result(ray, ref):
                    if episode.seed not in by_seed:
                        by_seed[episode.seed] = episode
                bar.update(len(chunk))
    except BaseException:
        for ref in pending:
            ray.cancel(ref, force=True)
        raise
    finally:
        bar.close()
    missing = sorted(set(seeds) - set(by_seed))
    if missing:  # cannot happen unless Ray drops a result; never report a partial run
        raise RuntimeError(f"Ray returned no episode for seeds {missing[:10]}")
    return [by_seed[s] for s in sorted(seeds)]


class RayBackend:
    """Ray tasks on every CPU of the cluster at ``address`` (None: a local Ray)."""

    name = "ray"

    def __init__(self, address: str | None = None) -> None:
        self.address = address

    def cpus(self) -> int:
        return connect(self.address)  # an unreachable address fails here, before any game

    def run(
        self,
        task: EpisodeTask,
        seeds: Iterable[int],
        progress: bool = True,
        desc: str | None = None,
    ) -> list[Episode]:
        return run_episodes_ray(
            task.spec,
            task.config,
            seeds,
            task.agent_kwargs,
            progress,
            desc,
            self.address,
            game=task.game,
        )


def cluster_summary() -> str:
    """One line for logs: nodes and CPUs of the connected cluster."""
    ray = import_ray()
    nodes = [n for n in ray.nodes() if n.get("Alive")]
    return f"{len(nodes)} node(s), {int(ray.cluster_resources().get('CPU', 0))} CPUs"


__all__ = [
    "MAX_RETRIES",
    "RayBackend",
    "cluster_summary",
    "connect",
    "import_ray",
    "play_chunk",
    "run_episodes_ray",
]
