"""`cardsmith serve [GAME...]`: the web table (interpreter/web/, docs/table.md)."""

from __future__ import annotations

import argparse
import socket
import sys
from typing import Any

from ..dsl.diagnostics import count_of
from ..engine.text import say

MISSING = "cardsmith serve needs the web extra: pip install 'cardsmith[web]' (starlette and uvicorn)"
SOCKETS = 1000  # the table's cap on open sockets (web/limits.py); the open-files limit is raised above it
CONNECTIONS = 128  # open connections per address, closed as they are accepted past it (web/accept.py)


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from ..web import create_app
        from ..web.accept import capped_protocols
        from ..web.catalog import load_catalog
        from ..web.origin import Allowed, served_names
        from ..web.pool import prefer_the_loop
    except ImportError:
        print(f"cardsmith: error: {MISSING}", file=sys.stderr)
        return 1
    if bool(args.certfile) != bool(args.keyfile):
        say("cardsmith: error: HTTPS needs both --certfile and --keyfile", file=sys.stderr)
        return 2
    catalog = load_catalog(args.games or None, args.limits)  # a rule file's errors end here, rendered by main
    host = args.host
    allowed = Allowed(served_names(host), args.allow_origin)
    shown = f"[{host}]" if ":" in host else host
    problem = _cannot_listen(host, args.port)
    if problem:
        say(f"cardsmith: error: cannot listen on {shown}:{args.port}: {problem}", file=sys.stderr)
        return 1
    tls: dict[str, Any] = {}
    if args.certfile:
        problem = _cannot_load(args.certfile, args.keyfile)
        if problem:
            say(f"cardsmith: error: cannot use the certificate: {problem}", file=sys.stderr)
            return 1
        tls = {"ssl_certfile": args.certfile, "ssl_keyfile": args.keyfile}
    store = None
    if not args.no_store:
        from ..web.store import Store, StoreError, default_path
        store = args.store or default_path()
        try:  # opened here to say in one line what is wrong; the server opens it again as it starts
            Store(store).close()
        except StoreError as e:
            say(f"cardsmith: error: {e}", file=sys.stderr)
            return 1
    app = create_app(catalog=catalog, max_rooms=args.max_rooms, move_seconds=args.move_seconds,
                     bot_seconds=args.bot_seconds, allowed=allowed, store=store)
    _more_open_files(2 * SOCKETS + 100)
    prefer_the_loop()
    say(f"cardsmith table: {'https' if tls else 'http'}://{shown}:{args.port}/ ({count_of(len(catalog), 'game')}; "
        "Ctrl-C to stop)")
    say(f"  rooms kept in {store}" if store is not None else "  rooms kept in memory only (--no-store)")
    if host not in ("127.0.0.1", "localhost", "::1"):
        say("  open to the network: whoever reaches this address can open rooms; a seat's link is its key")
        if not tls:
            say("  without --certfile/--keyfile, tokens and hands cross the network in clear text")
    try:
        # ws_max_size: the page's messages are small; a large frame is refused before it is read into memory.
        uvicorn.run(app, host=host, port=args.port, log_level="warning", ws_max_size=16 * 1024, **tls,
                    **capped_protocols(CONNECTIONS))
    except SystemExit as e:  # uvicorn gives up with a logged line and an exit, not an exception
        return 1 if e.code else 0
    return 0


def _cannot_listen(host: str, port: int) -> str | None:
    """Why the address cannot be listened on, found before the server starts (uvicorn would log a line and
    exit with status 3): an unknown host name, a port in use, an address this machine does not have."""
    try:
        family, kind, proto, _name, where = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        with socket.socket(family, kind, proto) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind(where)
    except OSError as e:  # socket.gaierror is one
        return str(e.strerror or e)
    return None


def _cannot_load(certfile: str, keyfile: str) -> str | None:
    """Why the certificate and key cannot serve HTTPS (uvicorn would print a traceback)."""
    import ssl

    try:
        ssl.create_default_context(ssl.Purpose.CLIENT_AUTH).load_cert_chain(certfile, keyfile)
    except (OSError, ssl.SSLError) as e:
        return " ".join(str(e.strerror if isinstance(e, OSError) and e.strerror else e).split())
    return None


def _more_open_files(want: int) -> None:
    """Raise this process's open-files limit towards `want` (the table caps its sockets below it): at the
    usual soft limit of 1,024, a thousand sockets would leave the lobby unable to accept a connection."""
    try:
        import resource
    except ImportError:  # not on Windows
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want if hard == resource.RLIM_INFINITY else min(want, hard), hard))
