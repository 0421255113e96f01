"""`cardsmith serve [GAME...]`: the web table (interpreter/web/, docs/table.md)."""

from __future__ import annotations

import argparse
import socket
import sys

from ..dsl.diagnostics import count_of
from ..engine.text import say

MISSING = "cardsmith serve needs the web extra: pip install 'cardsmith[web]' (starlette and uvicorn)"


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from ..web import create_app
        from ..web.catalog import load_catalog
    except ImportError:
        print(f"cardsmith: error: {MISSING}", file=sys.stderr)
        return 1
    catalog = load_catalog(args.games or None, args.limits)  # a rule file's errors end here, rendered by main
    host = args.host
    shown = f"[{host}]" if ":" in host else host
    problem = _cannot_listen(host, args.port)
    if problem:
        say(f"cardsmith: error: cannot listen on {shown}:{args.port}: {problem}", file=sys.stderr)
        return 1
    store = None
    if not args.no_store:
        from ..web.store import Store, StoreError, default_path
        store = args.store or default_path()
        try:  # opened here to say in one line what is wrong; the server opens it again as it starts
            Store(store).close()
        except StoreError as e:
            say(f"cardsmith: error: {e}", file=sys.stderr)
            return 1
    app = create_app(catalog=catalog, max_rooms=args.max_rooms, store=store)
    say(f"cardsmith table: http://{shown}:{args.port}/ ({count_of(len(catalog), 'game')}; "
        "Ctrl-C to stop)")
    say(f"  rooms kept in {store}" if store is not None else "  rooms kept in memory only (--no-store)")
    if host not in ("127.0.0.1", "localhost", "::1"):
        say("  open to the network: whoever reaches this address can open rooms; a seat's link is its key")
    try:
        # ws_max_size: the page's messages are small; a large frame is refused before it is read into memory.
        uvicorn.run(app, host=host, port=args.port, log_level="warning", ws_max_size=16 * 1024)
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
