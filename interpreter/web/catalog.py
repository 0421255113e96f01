"""The games a table server offers, compiled once at start, and what the lobby shows of them.

The lobby names a game by its key in the catalog, never by a path: a browser cannot make the server read a
file. A key is a bundled game's name, or the stem of a rule file given on the command line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..bots import BOTS
from ..dsl.compiler import CompiledGame
from ..dsl.diagnostics import RuleFileError
from ..dsl.limits import DEFAULT_LIMITS, Limits
from ..dsl.pipeline import compile_file
from ..engine.bundled import bundled_games, exists, resolve
from ..rulebook import build_rulebook, to_json
from ..table.record import rules_hash
from ..table.view import table_help


@dataclass(frozen=True)
class Entry:
    key: str
    path: Path
    compiled: CompiledGame
    source: str  # how a match record finds the rule file again: a bundled game's name or the path given
    sha256: str  # of the rule files' text (table/record.py): a record is replayed only on the very same rules
    # The rulebook as plain data (rulebook_info), made when it is first asked for.
    made: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def name(self) -> str:
        return self.compiled.spec.name


def load_catalog(games: list[str] | None = None, limits: Limits = DEFAULT_LIMITS) -> dict[str, Entry]:
    """The games to offer: `games` (bundled names or rule-file paths), or every bundled game. A rule file with
    errors raises RuleFileError (for the command to print), an unknown name GameError."""
    # key -> (path, source): a bundled game is recorded by its name, a rule file by the path given
    paths: dict[str, tuple[Path, str]] = {}
    if not games:
        paths = {name: (Path(path), name) for name, path in bundled_games().items()}
    for g in games or []:
        path = resolve(g)
        is_file = path.suffix in (".yaml", ".yml") or exists(Path(g))
        key = path.stem if is_file else g
        base, k = key, 2
        while key in paths:
            key, k = f"{base}-{k}", k + 1
        paths[key] = (Path(path), str(path) if is_file else g)
    out: dict[str, Entry] = {}
    for key, (path, source) in paths.items():
        r = compile_file(path, limits)
        if not r.ok or r.game is None:
            raise RuleFileError(r.diagnostics, r.sources)
        out[key] = Entry(key, path, r.game, source, rules_hash(path))
    return out


def option_text(v: Any) -> str:
    """An option's value as the lobby and the rules help write it: yes/no for a bool."""
    if isinstance(v, bool):
        return "yes" if v else "no"
    return str(v)


def option_info(compiled: CompiledGame) -> list[dict[str, Any]]:
    """Each table option as the lobby shows it: kind, allowed values, default as written, and its doc."""
    out = []
    for o in compiled.spec.options:
        default = o.default_text if not isinstance(o.default, (int, str, bool)) else option_text(o.default)
        info: dict[str, Any] = {"name": o.name, "kind": o.kind, "default": default, "doc": o.doc}
        if o.kind == "int":
            info["min"] = o.min if o.min_expr is None else o.min_text
            info["max"] = o.max if o.max_expr is None else o.max_text
        elif o.kind == "bool":
            info["values"] = ["yes", "no"]
        else:
            info["values"] = list(o.values)
        out.append(info)
    return out


def game_info(e: Entry) -> dict[str, Any]:
    sp = e.compiled.spec
    return {"key": e.key, "name": sp.name, "summary": sp.summary, "min_players": sp.min_players,
            "max_players": sp.max_players, "options": option_info(e.compiled),
            "strategies": [{"name": s.name, "doc": s.doc} for s in sp.strategies],
            "table": table_help(sp)}


def rulebook_info(e: Entry) -> dict[str, Any]:
    """The game's rulebook (interpreter/rulebook/) as plain data for the Rules dialog, which builds it from text
    nodes only; made once per game."""
    if "rulebook" not in e.made:
        e.made["rulebook"] = to_json(build_rulebook(e.compiled, file_name=e.path.name))
    doc: dict[str, Any] = e.made["rulebook"]
    return doc


def bots_info() -> list[dict[str, Any]]:
    """The bots and their parameters, for the lobby's seat choices."""
    return [{"name": name, "doc": kind.doc,
             "params": [{"name": k, "default": p.default, "doc": p.doc} for k, p in kind.params.items()]}
            for name, kind in BOTS.items()]
