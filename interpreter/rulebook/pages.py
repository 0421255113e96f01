"""docs/games/: the rulebook page of every bundled game and the list of them, as `cardsmith explain` writes them.

    python -m cardsmith.rulebook.pages docs/games

writes `<game>.md` for each bundled game (exactly what `cardsmith explain GAME` prints) and README.md;
tests/test_explain.py checks that the pages in the repository are these, word for word.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from ..dsl.compiler import CompiledGame
from ..dsl.diagnostics import RuleFileError
from ..dsl.pipeline import compile_file
from ..engine.bundled import bundled_games
from .build import build_rulebook
from .markdown import runs, to_markdown
from .model import text

REGENERATE = "python -m cardsmith.rulebook.pages docs/games"


def compiled(path: Path) -> CompiledGame:
    loaded = compile_file(path)
    if not loaded.ok or loaded.game is None:
        raise RuleFileError(loaded.diagnostics, loaded.sources)
    return loaded.game


def page(game: CompiledGame, path: Path) -> str:
    """The page of a rule file: `cardsmith explain` of it, as Markdown."""
    return to_markdown(build_rulebook(game, file_name=path.name))


def index(games: dict[str, CompiledGame]) -> str:
    """docs/games/README.md: each bundled game, its players and its summary, with a link to its page."""
    lines = ["# The bundled games' rulebooks", "",
             "Each page is generated from the game's rule file by `cardsmith explain GAME` "
             "([docs/rulebook.md](../rulebook.md)); `tests/test_explain.py` checks that they are current. "
             f"After changing a rule file or the generator, regenerate them with `{REGENERATE}`.", "",
             "| game | players | rulebook | summary |", "| --- | --- | --- | --- |"]
    for name, game in games.items():
        sp = game.spec
        players = str(sp.min_players) if sp.min_players == sp.max_players else f"{sp.min_players}–{sp.max_players}"
        lines.append(f"| {runs([text(sp.name)], True)} | {players} | [{name}.md]({name}.md) | "
                     f"{runs([text(' '.join(sp.summary.split()))], True)} |")
    return "\n".join(lines) + "\n"


def pages(load: Callable[[Path], CompiledGame] = compiled) -> dict[str, str]:
    """Every file of docs/games/ by its name; `load` compiles a rule file (a test passes its cache)."""
    paths = bundled_games()
    games = {name: load(path) for name, path in paths.items()}
    out = {f"{name}.md": page(games[name], path) for name, path in paths.items()}
    out["README.md"] = index(games)
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(f"usage: {REGENERATE}", file=sys.stderr)
        return 2
    folder = Path(argv[0])
    folder.mkdir(parents=True, exist_ok=True)
    for name, content in pages().items():
        (folder / name).write_text(content, encoding="utf-8")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1:]))
