"""The web table (`cardsmith serve`): a lobby, rooms with people and bots, one view per seat (docs/table.md).

Needs the `web` extra (starlette, uvicorn); the rest of cardsmith does not import this package.
"""

from __future__ import annotations

from .app import create_app

__all__ = ["create_app"]
