"""Caps per client and in total, so that no one client can shut the others out: rooms made a minute, open
rooms, open sockets, and how long a socket may stay silent.

A client is its address; IPv6 addresses count by their /64 network, since one machine is usually given a
whole /64 and could otherwise take a fresh address for every room. Every refusal is one line, answered with
HTTP 429 (this client is over its cap: wait) or 503 (the server is full: try later), or a websocket close
with code 1008 (this client) or 1013 (the server) and the same line as its reason.
"""

from __future__ import annotations

import ipaddress
import time
from collections import deque
from collections.abc import Callable, Collection
from dataclasses import dataclass


@dataclass(frozen=True)
class Caps:
    rooms_per_minute: int = 10  # rooms one client may make in a minute
    rooms_per_minute_total: int = 120  # rooms the whole server makes in a minute
    rooms_per_client: int = 8  # open rooms one client made
    sockets_per_client: int = 64  # a hot-seat screen and a few tabs need far fewer
    sockets: int = 1000  # open sockets in all (`cardsmith serve` raises the open-files limit above this)
    hello_seconds: float = 10.0  # a socket says hello within this, or is closed
    idle_socket_seconds: float = 1800.0  # a socket that sends nothing for this long is closed


class Refused(Exception):
    """A cap was reached: `status` (429 or 503) or `code` (1008 or 1013) and one line for the client."""

    def __init__(self, line: str, *, server: bool) -> None:
        super().__init__(line)
        self.line = line
        self.status = 503 if server else 429
        self.code = 1013 if server else 1008


def client_of(host: str | None) -> str:
    """The key a client is counted under: its address, or its /64 network for IPv6."""
    if not host:
        return "?"
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


class Gate:
    """What each client has made and holds open. Not thread-safe: used from the event loop only."""

    def __init__(self, caps: Caps, clock: Callable[[], float] = time.monotonic) -> None:
        self.caps = caps
        self.clock = clock
        self.made: dict[str, deque[float]] = {}  # a client's rooms made in the last minute, by time
        self.made_total: deque[float] = deque()
        self.owners: dict[str, str] = {}  # room id -> the client that made it
        self.open: dict[str, int] = {}  # a client's open sockets
        self.sockets = 0

    # ------------------------------------------------------------ rooms
    def check_room(self, client: str, open_rooms: Collection[str]) -> None:
        """Refuse (Refused) if `client` may not make a room now; `open_rooms` are the room ids still open."""
        now = self.clock()
        self._forget(now, open_rooms)
        c = self.caps
        if len(self.made_total) >= c.rooms_per_minute_total:
            raise Refused(f"this server made {c.rooms_per_minute_total} rooms in the last minute; try again in a "
                          "minute", server=True)
        if len(self.made.get(client, ())) >= c.rooms_per_minute:
            raise Refused(f"{c.rooms_per_minute} rooms a minute from one address at most; wait a minute",
                          server=False)
        if sum(1 for who in self.owners.values() if who == client) >= c.rooms_per_client:
            raise Refused(f"{c.rooms_per_client} open rooms made from one address at most; finish or leave one "
                          "first (an idle room closes after a while)", server=False)

    def room_made(self, client: str, room_id: str) -> None:
        now = self.clock()
        self.made.setdefault(client, deque()).append(now)
        self.made_total.append(now)
        self.owners[room_id] = client

    def _forget(self, now: float, open_rooms: Collection[str]) -> None:
        while self.made_total and now - self.made_total[0] > 60:
            self.made_total.popleft()
        for who in [w for w, times in self.made.items() if times and now - times[-1] > 60]:
            del self.made[who]  # every room of theirs is older than a minute: the table stays small
        for times in self.made.values():
            while times and now - times[0] > 60:
                times.popleft()
        for rid in [r for r in self.owners if r not in open_rooms]:
            del self.owners[rid]

    # ------------------------------------------------------------ sockets
    def open_socket(self, client: str) -> None:
        """Count a new socket of `client`, or refuse it (Refused)."""
        c = self.caps
        if self.sockets >= c.sockets:
            raise Refused(f"this server holds {c.sockets} connections already; try again later", server=True)
        if self.open.get(client, 0) >= c.sockets_per_client:
            raise Refused(f"{c.sockets_per_client} connections from one address at most; close some first",
                          server=False)
        self.open[client] = self.open.get(client, 0) + 1
        self.sockets += 1

    def close_socket(self, client: str) -> None:
        self.sockets -= 1
        left = self.open.get(client, 0) - 1
        if left > 0:
            self.open[client] = left
        else:
            self.open.pop(client, None)
