"""The same simulation on a Ray cluster (`cardsmith simulate --ray ADDRESS`; Ray is the `cluster` extra).

Each task plays one chunk of matches (runner.chunks) and returns it, exactly as a worker process does; the
parent puts the rows back in match order, so the figures, `summary.json` and `matches.csv` are the same as
with the local pool and the same seed, byte for byte (tests/test_simulate.py runs a local Ray instance).

Every node needs cardsmith installed and the rule file at the path given (a bundled game is always there).
A Ray worker process sets up the game once and keeps it for the chunks it plays after (`_player`).

ADDRESS is what `ray.init` takes: `local` starts a Ray instance on this machine for the run (and stops it
after), `auto` joins the one `ray start` runs here, and `ray://HOST:10001` or `HOST:6379` a remote one.
"""

from __future__ import annotations

import logging
import socket
from collections.abc import Iterator
from typing import Any

from ..engine.errors import GameError
from .runner import Chunk, Config, Outcome, Player, Progress, _collect, _Silent, chunks

_CACHED: tuple[Config, Player] | None = None
CONNECT_TIMEOUT = 5.0  # seconds


def _player(config: Config) -> Player:
    global _CACHED
    if _CACHED is None or _CACHED[0] != config:
        _CACHED = (config, Player(config))
    return _CACHED[1]


def _play_chunk(config: Config, start: int, count: int) -> Chunk:
    return _player(config).chunk(start, count)


def connect(address: str) -> tuple[Any, int, bool]:
    """(the ray module, the cluster's CPUs, whether this run started the instance); a GameError if Ray is
    missing or the cluster cannot be reached."""
    try:
        import ray
    except ImportError:
        raise GameError("--ray needs Ray: pip install 'cardsmith[cluster]'") from None
    started = not ray.is_initialized()
    if started and address not in ("local", "auto"):
        _reachable(address)
    if started:
        try:
            if address == "local":
                ray.init(include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
            else:
                ray.init(address=address, log_to_driver=False, logging_level=logging.ERROR)
        except Exception as e:  # Ray raises ConnectionError, RuntimeError, ValueError... as it finds them
            raise GameError(f"--ray {address}: cannot reach a Ray cluster: {str(e).splitlines()[0]}") from None
    cpus = int(ray.cluster_resources().get("CPU", 1))
    return ray, max(1, cpus), started


def _reachable(address: str) -> None:
    """Refuse an address nobody answers at before Ray tries it (Ray retries for minutes, logging as it goes)."""
    where = address.removeprefix("ray://")
    host, _, port = where.rpartition(":")
    if not host or not port.isdigit():
        raise GameError(f"--ray {address}: expected local, auto, HOST:PORT or ray://HOST:PORT")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_TIMEOUT).close()
    except OSError as e:
        raise GameError(f"--ray {address}: cannot reach a Ray cluster: {e.strerror or e}") from None


def simulate_on_ray(config: Config, games: int, address: str, here: Player,
                    progress: Progress | None = None) -> Outcome:
    """As runner.simulate, with Ray tasks for worker processes."""
    ray, cpus, started = connect(address)
    shown = progress if progress is not None else _Silent()
    out = Outcome([], here.chunk(0, 0).counts, here.action_names, here.phase_names)
    remote = ray.remote(_play_chunk)
    left: list[Any] = []  # the tasks not finished: cancelled if the run stops early (Ctrl-C, a failed match)
    try:
        ref = ray.put(config)
        left.extend(remote.remote(ref, start, count) for start, count in chunks(games, cpus))
        with shown:
            _collect(out, _results(ray, left), shown)
    finally:
        # Only unfinished tasks: cancelling one that has finished can abort the process (Ray 2.60).
        for p in left:
            ray.cancel(p, force=True)
        if started:
            ray.shutdown()
    return out


def _results(ray: Any, left: list[Any]) -> Iterator[Chunk]:
    """The chunks as their tasks finish; `left` keeps the tasks still running."""
    while left:
        done, rest = ray.wait(left, num_returns=1)
        left[:] = rest
        yield ray.get(done[0])
