"""The native backend (issue 33; design: docs/design/native.md): a rule file lowered to a typed IR
(`lower.py`), written as C++ (`emit_cpp.py`) over a runtime of headers (`runtime.h`), compiled into a game
library with a table of C functions (`abi.h`) and loaded by one binding built once (`loader.cc`); `build.py`
builds and caches both, `backend.py` is the switch (`cardsmith.load(..., backend=...)`). The language it covers
is what `lower.py` says; the rest is refused by name (`Unsupported`).

This module is what the commands' parsers and the adapters read before anything is built, so it imports
nothing of the backend: the backends' names and the default a caller that chooses none gets."""

from __future__ import annotations

import os

BACKENDS = ("python", "native", "auto")
BACKEND_ENV = "CARDSMITH_BACKEND"


def default_backend(default: str = "auto") -> str:
    """The backend of a command or adapter not told one: $CARDSMITH_BACKEND where it is set (a machine, a CI job
    or a test session that wants every such run on one backend), else `default`."""
    env = os.environ.get(BACKEND_ENV, "")
    if not env:
        return default
    if env not in BACKENDS:
        from ..engine.errors import GameError  # only here: the parsers import this module at every start
        shown = env if len(env) <= 40 else env[:40] + "..."
        raise GameError(f"{BACKEND_ENV} must be 'python', 'native' or 'auto', not {shown!r}")
    return env
