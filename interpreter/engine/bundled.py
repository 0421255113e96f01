"""Finding rule files named on the command line: a path, or the name of a bundled game in `games/`
(`dsl/files.py` locates the bundled games, for `extends:` too)."""

from __future__ import annotations

from pathlib import Path

from ..dsl.files import bundled_game, bundled_games
from .errors import GameError


def exists(p: Path) -> bool:
    """Path.exists for a name a user typed: a name too long or with a NUL byte does not exist."""
    try:
        return p.exists()
    except (OSError, ValueError):
        return False


def resolve(name_or_path: str) -> Path:
    """A rule file named on the command line: a path (a .yaml name, or any file that exists), else a bundled
    game's name. (A rule file named inside another file follows dsl/files.py instead.)"""
    p = Path(name_or_path)
    if p.suffix in (".yaml", ".yml") or exists(p):
        return p
    found = bundled_game(name_or_path)
    if found is not None:
        return found
    games = bundled_games()
    known = ", ".join(games) or "none"
    raise GameError(f"no rule file or bundled game named '{name_or_path}' (bundled: {known})")


__all__ = ["bundled_game", "bundled_games", "exists", "resolve"]
