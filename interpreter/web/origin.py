"""Host and Origin checks: a page of another site may not drive the table, even through DNS rebinding.

DNS rebinding: a page at http://evil.example:8000 has its name re-resolved to 127.0.0.1, and the browser then
lets it read and post to the table as its own site. Its requests still carry `Host: evil.example:8000`, so a
request is answered only if its Host is an address (an IP literal cannot be rebound: the page's own site
would be that address), `localhost`, or a name on the allow-list: by default the names the server is served
under (`--host`, the machine's name), plus those given with `--allow-origin`. A request that carries an
`Origin` (a browser's cross-site request, every websocket) must come from the Host itself or from an allowed
origin (a reverse proxy's public address, docs/table.md).

Refusals: HTTP 403 with one line, or a websocket closed with code 1008 and the line as its reason.
"""

from __future__ import annotations

import ipaddress
import json
import socket
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Receive, Scope, Send

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def host_name(netloc: str) -> str:
    """The name or address of a Host header or an origin's netloc, without its port or brackets."""
    netloc = netloc.strip().lower()
    if netloc.startswith("["):
        return netloc[1:netloc.find("]")] if "]" in netloc else netloc
    return netloc.rsplit(":", 1)[0] if netloc.count(":") == 1 else netloc


def is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class Allowed:
    """The names a request's Host may hold, and the origins allowed besides a request's own."""

    def __init__(self, names: Iterable[str] = (), origins: Iterable[str] = ()) -> None:
        self.names = {n.lower().rstrip(".") for n in names} | {"localhost"}
        self.origins: set[str] = set()
        for o in origins:
            self.add(o)

    def add(self, entry: str) -> None:
        """An `--allow-origin` entry: an origin (https://cards.example.org) or a bare host name."""
        if "://" in entry:
            parts = urlsplit(entry.strip())
            self.origins.add(f"{parts.scheme.lower()}://{parts.netloc.lower()}")
            self.names.add(host_name(parts.netloc))
        else:
            self.names.add(host_name(entry))

    def host_ok(self, host: str) -> bool:
        name = host_name(host).rstrip(".")
        return is_address(name) or name in self.names

    def origin_ok(self, origin: str, host: str) -> bool:
        parts = urlsplit(origin.strip())
        return parts.netloc.lower() == host.strip().lower() or \
            f"{parts.scheme.lower()}://{parts.netloc.lower()}" in self.origins


def served_names(host: str) -> list[str]:
    """The names a server listening on `host` is reached by: the name itself, and for an address open to the
    network the machine's names (the LAN reaches it by one of them or by an address)."""
    names = [host] if not is_address(host) else []
    if host not in LOOPBACK:
        for name in (socket.gethostname(), socket.getfqdn()):
            if name:
                names.append(name)
    return names


class OriginCheck:
    """ASGI middleware: refuses a request whose Host or Origin is not allowed. `allowed=None` checks only
    that an Origin, if sent, is the request's own Host (the check the Python API gets by default)."""

    def __init__(self, app: ASGIApp, allowed: Allowed | None) -> None:
        self.app = app
        self.allowed = allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope.get("headers", [])}
        host, origin = headers.get("host", ""), headers.get("origin")
        line = None
        if self.allowed is not None and not self.allowed.host_ok(host):
            line = "this server is not served under that name (start it with --allow-origin to add one)"
        elif origin is not None and not (self.allowed.origin_ok(origin, host) if self.allowed is not None
                                         else urlsplit(origin).netloc.lower() == host.lower()):
            line = "a page of another site may not use this table"
        if line is None:
            await self.app(scope, receive, send)
        elif scope["type"] == "websocket":
            # Accepted, then closed with the reason: a close before the handshake is an HTTP 403 whose reason
            # the browser does not show.
            await receive()  # the connect event
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": 1008, "reason": line})
        else:
            body = json.dumps({"error": line, "errors": [line]}).encode()
            await send({"type": "http.response.start", "status": 403,
                        "headers": [(b"content-type", b"application/json"),
                                    (b"content-length", str(len(body)).encode())]})
            await send({"type": "http.response.body", "body": body})
