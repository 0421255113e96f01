"""The backends' names, and the backend of a command or adapter that is told none (`default_backend`).

Here, in the engine's layer, because every layer that chooses a backend reads it (the commands' parsers at
every start, the adapters, `cardsmith.native`); it imports nothing, so reading it loads no stage."""

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
        from .errors import GameError  # only here: the parsers read this module at every start
        shown = env if len(env) <= 40 else env[:40] + "..."
        raise GameError(f"{BACKEND_ENV} must be 'python', 'native' or 'auto', not {shown!r}")
    return env
