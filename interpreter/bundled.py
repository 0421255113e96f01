"""Finding rule files: a path, or the name of a bundled game in `games/`."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from .errors import GameError


def bundled_games() -> dict[str, Path]:
    root = resources.files("games")
    out: dict[str, Path] = {}
    for entry in sorted(root.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".yaml"):
            out[entry.name[: -len(".yaml")]] = Path(str(entry))
    return out


def exists(p: Path) -> bool:
    """Path.exists for a name a user typed: a name too long or with a NUL byte does not exist."""
    try:
        return p.exists()
    except (OSError, ValueError):
        return False


def bundled_game(name: str) -> Path | None:
    """The file of the bundled game with this name (any case; spaces for dashes), or None."""
    return bundled_games().get(name.lower().replace(" ", "-"))


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
