"""Connections per address capped as they are accepted, before any byte of them is read.

The caps of web/limits.py answer in one line, but only once a request or a websocket's handshake has been
parsed, which costs the event loop about a millisecond each: a burst of a thousand connections from one
address would hold the loop for a second or more before the first is refused. Here uvicorn's protocols are
wrapped so that a connection from an address that already holds `per_address` open ones is closed at once,
for the cost of the accept. The cap is far above what the app-level caps let a client use (64 sockets and a
few HTTP connections), so a client is answered by those first and meets this one only in a flood.

The proxy's own address (a reverse proxy on this machine, `127.0.0.1` or `::1`) is not capped here: every
client behind it arrives from it.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

from .limits import client_of

UNCAPPED = ("127.0.0.1", "::1")


def capped_protocols(per_address: int) -> dict[str, Any]:
    """uvicorn's `http` and `ws` protocol classes (its automatic choices), wrapped with the cap: keyword
    arguments for `uvicorn.run`."""
    from uvicorn.config import HTTP_PROTOCOLS, WS_PROTOCOLS
    from uvicorn.importer import import_from_string

    http: Any = import_from_string(HTTP_PROTOCOLS["auto"])
    ws: Any = import_from_string(str(WS_PROTOCOLS["auto"]))
    holders: dict[Any, str] = {}  # an open transport -> the address it counts for
    counts: Counter[str] = Counter()

    def release(transport: Any) -> None:
        key = holders.pop(transport, None)
        if key is not None:
            counts[key] -= 1
            if counts[key] <= 0:
                del counts[key]

    class CappedHttp(http):  # type: ignore[misc, valid-type]
        refused = False

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            peer = transport.get_extra_info("peername")
            host = peer[0] if isinstance(peer, tuple) and peer else None
            if host is not None and host not in UNCAPPED:
                key = client_of(host)
                if counts[key] >= per_address:
                    self.refused = True
                    transport.abort()
                    return
                counts[key] += 1
                holders[transport] = key
            super().connection_made(transport)

        def connection_lost(self, exc: Exception | None) -> None:
            if self.refused:
                return
            release(getattr(self, "transport", None))
            super().connection_lost(exc)

    class CappedWs(ws):  # type: ignore[misc, valid-type]
        # an upgraded connection: its transport was counted by CappedHttp, released when it closes
        def connection_lost(self, exc: Exception | None) -> None:
            release(getattr(self, "transport", None))
            super().connection_lost(exc)

    return {"http": CappedHttp, "ws": CappedWs}
