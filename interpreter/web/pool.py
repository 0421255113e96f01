"""Rule work off the event loop: every move, bot decision, view, replay and rulebook runs in a bounded pool of
worker threads, and the event loop only waits for its answer.

Why threads, not processes: a room's state lives in this process (a process per room would copy it for every
move), and what must stay fast is the event loop, not the slow move. A worker running pure-Python rule code
holds the GIL, but CPython makes it give the GIL up every switch interval (5 ms) when another thread asks, so
the loop keeps answering the lobby and the other rooms within milliseconds while one room's move takes
seconds (measured in tests/test_web_guard.py and benchmarks/web_load.py). What threads cannot do is stop a
move: so each move has a wall-clock cap, enforced through the room's step counter (below).

Two pools: `rooms` for the rooms' moves, bots and views (a room holds its lock while its work runs, so one
room has at most one task in it), `aux` for replays and rulebooks, so a client replaying records cannot take
the workers the rooms play with.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, TypeVar

from .rooms import RoomRefused, Work

if TYPE_CHECKING:
    from .rooms import Room

T = TypeVar("T")

STOPPED = -(10**15)  # a step counter this far below zero fails the next charge of any rule code


SWITCH_INTERVAL = 0.0005  # seconds: how soon a worker running Python gives the GIL up to the event loop


def prefer_the_loop() -> None:
    """Make a thread running Python give the GIL up within SWITCH_INTERVAL when another asks, not CPython's
    5 ms: the event loop asks every time it wakes, and with busy workers each wake would wait up to 5 ms
    (a convoy: a loop serving a hundred rooms slows to a crawl). For a process that serves the table: it
    changes the whole interpreter."""
    sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_INTERVAL))


class TooSlow(Exception):
    """A task ran past its wall-clock cap and was stopped; the text says so, for the players."""


def stop_counter(steps: list[int] | None) -> None:
    """Make the rule code counting on `steps` stop at its next charge (a `BudgetExceeded`, R004): the one way
    to end a move running in another thread, since a Python thread cannot be killed."""
    if steps is not None:
        steps[0] = STOPPED


class Pool:
    """Two bounded thread pools and the wall-clock cap of each task run in them."""

    def __init__(self, workers: int = 8, aux_workers: int = 2, move_seconds: float = 30.0,
                 per_client: int = 2) -> None:
        self.rooms = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="cardsmith-room")
        self.aux = ThreadPoolExecutor(max_workers=aux_workers, thread_name_prefix="cardsmith-aux")
        self.move_seconds = move_seconds
        # Tasks of the rooms one client made that may run at once: a client whose rooms all run slow moves
        # then holds `per_client` workers, not the pool (and not the GIL with a thread per room).
        self.per_client = per_client
        self.slots: dict[str, tuple[asyncio.Semaphore, list[int]]] = {}

    @contextlib.asynccontextmanager
    async def slot(self, client: str) -> AsyncIterator[None]:
        """One of `client`'s `per_client` places in the pool, waited for if they are taken."""
        sem, users = self.slots.setdefault(client, (asyncio.Semaphore(self.per_client), [0]))
        users[0] += 1
        try:
            async with sem:
                yield
        finally:
            users[0] -= 1
            if users[0] == 0:
                del self.slots[client]

    async def run(self, fn: Callable[[], T], *, steps: list[int] | None = None, seconds: float | None = None,
                  aux: bool = False) -> T:
        """`fn()` in a worker; past `seconds` (default `move_seconds`) its rule code is stopped through the step
        counter `steps` and TooSlow is raised once the worker has let go (the state is then the caller's to
        mark as stopped). The worker is waited for even if the caller is cancelled: the caller holds the
        room's lock, which must not be given up while a worker still changes the room."""
        cap = self.move_seconds if seconds is None else seconds
        loop = asyncio.get_running_loop()
        fut = loop.run_in_executor(self.aux if aux else self.rooms, fn)
        try:
            return await asyncio.wait_for(asyncio.shield(fut), cap)
        except TimeoutError:
            await self._stop(fut, steps)
            with contextlib.suppress(Exception):
                fut.result()
            raise TooSlow(f"a move ran longer than {cap:g} s, this table's cap per move; the match is stopped"
                          ) from None
        except asyncio.CancelledError:
            # (the server is stopping) the move is left to finish, within its step budget: stopping it would
            # stop the room's match with it
            await self._stop(fut, None)
            raise

    @staticmethod
    async def _stop(fut: asyncio.Future[Any], steps: list[int] | None) -> None:
        # The rule code resets its counter at every evaluation (a move, a legal-action query, an observation),
        # so the counter is set again until the worker lets go. Cancelling this wait does not end it.
        while not fut.done():
            stop_counter(steps)
            with contextlib.suppress(BaseException):
                await asyncio.wait([fut], timeout=0.01)

    def shutdown(self) -> None:
        self.rooms.shutdown(wait=False, cancel_futures=True)
        self.aux.shutdown(wait=False, cancel_futures=True)


def room_work(pool: Pool, room: Room, client: str) -> Work:
    """A room's runner of rule work (Room.work): in the pool, in one of the places of the `client` that made
    the room, capped at the pool's seconds per move; a move past the cap stops the match, with the reason as
    the room's error, and is refused (RoomRefused)."""
    async def work(fn: Callable[[], Any]) -> Any:
        try:
            async with pool.slot(client):
                return await pool.run(fn, steps=room.game.steps)
        except TooSlow as e:
            room.error = str(e)
            if room.finished_at is None:
                room.finished_at = time.monotonic()
            raise RoomRefused(str(e)) from None
    return work


def cap_bots(room: Room, seconds: float) -> None:
    """Cap each bot of `room` at `seconds` of wall-clock time per decision, whatever its iterations (a bot
    without such a cap is stopped by the pool's cap per move instead)."""
    for s in room.seats:
        if hasattr(s.bot, "wall_cap"):
            s.bot.wall_cap = seconds
