"""The table server on a free port in a thread of this process: for tests and the screenshot script, which
drive it with a browser while they look at its rooms."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from starlette.applications import Starlette


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


@contextmanager
def running(app: Starlette, host: str = "127.0.0.1", **config: Any) -> Iterator[str]:
    """Serve `app` while the block runs; yields its address, like http://127.0.0.1:PORT (https with the
    `ssl_certfile` and `ssl_keyfile` of uvicorn's `config`)."""
    import uvicorn

    port = free_port(host)
    server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning", ws_max_size=16 * 1024,
                                           **config))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the table server did not start")
        time.sleep(0.02)
    try:
        yield f"{'https' if config.get('ssl_certfile') else 'http'}://{host}:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
