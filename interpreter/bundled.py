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


def resolve(name_or_path: str) -> Path:
    p = Path(name_or_path)
    if p.suffix in (".yaml", ".yml") or exists(p):
        return p
    games = bundled_games()
    key = name_or_path.lower().replace(" ", "-")
    if key in games:
        return games[key]
    known = ", ".join(games) or "none"
    raise GameError(f"no rule file or bundled game named '{name_or_path}' (bundled: {known})")
