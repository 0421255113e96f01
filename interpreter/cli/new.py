"""`cardsmith new NAME [--template KIND] [--players N] [--dir DIR]`: a small working rule file and its scenario
file, to start a game from.

The templates are package data (cardsmith/templates/KIND.yaml and KIND.scenarios.yaml): plain rule files,
commented for a designer to edit, with placeholders filled in here. In the rule file `$name` is the game's name
and `$players` its `players:` value; in the scenario file `$seats` is the player count the scenarios play,
`$last_seat` the dealer (the last seat, so that P0 acts first whatever the count) and `$others` the number of
players after P0 in a round. Each template's scenarios are written to hold at every player count it allows
(tests/test_new.py runs them at both ends of each range).
"""

from __future__ import annotations

import argparse
import os
import shlex
from importlib import resources
from pathlib import Path
from string import Template
from typing import NoReturn

from ..dsl.diagnostics import clipped
from ..dsl.files import quoted
from ..engine.errors import GameError
from ..engine.text import say
from .templates import KINDS, NAME, NAME_RULE

TEMPLATES = "templates"  # the folder of the package that holds them


def template(kind: str, suffix: str) -> str:
    """The text of a template file as the package ships it: `suffix` is '.yaml' or '.scenarios.yaml'."""
    return (resources.files(__package__.rpartition(".")[0]) / TEMPLATES / f"{kind}{suffix}").read_text(
        encoding="utf-8")


def render(kind: str, name: str, players: int | None = None) -> tuple[str, str]:
    """The rule file and the scenario file of `kind` for a game called `name`, for `players` players (None: the
    template's whole range)."""
    k = KINDS[kind]
    seats = players if players is not None else k.seats
    rules = Template(template(kind, ".yaml")).substitute(
        name=name, players=str(players) if players is not None else f"{{min: {k.min_players}, max: {k.max_players}}}")
    scenarios = Template(template(kind, ".scenarios.yaml")).substitute(
        name=name, seats=str(seats), last_seat=f"P{seats - 1}", others=str(seats - 1))
    return rules, scenarios


def cmd_new(args: argparse.Namespace) -> int:
    def fail(message: str) -> NoReturn:
        args.new_parser.error(message)
        raise AssertionError  # error() exits

    name, kind = args.name, args.template
    if not NAME.fullmatch(name):
        hint = " (the files are named NAME.yaml and NAME.scenarios.yaml)" if name.endswith((".yaml", ".yml")) else ""
        fail(f"NAME must be {NAME_RULE}, not {quoted(clipped(name, 60))}{hint}")
    k = KINDS[kind]
    if args.players is not None and not k.min_players <= args.players <= k.max_players:
        fail(f"argument --players: the {kind} template is for {k.min_players} to {k.max_players} players, "
             f"not {args.players}")
    rules_text, scenarios_text = render(kind, name, args.players)
    folder = Path(args.dir)
    rules, scenarios = folder / f"{name}.yaml", folder / f"{name}.scenarios.yaml"
    if os.path.lexists(folder) and not folder.is_dir():
        fail(f"argument --dir: {quoted(clipped(args.dir, 60))} is not a folder")
    for path in (rules, scenarios):
        if os.path.lexists(path):
            raise GameError(f"{path} already exists: cardsmith new writes only new files (choose another NAME or "
                            "--dir)")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        _write_new(rules, rules_text)
        try:
            _write_new(scenarios, scenarios_text)
        except OSError:
            rules.unlink()  # both files or neither: the scenario file names the rule file
            raise
    except FileExistsError as e:  # made by someone else since the check above
        raise GameError(f"{e.filename} already exists: cardsmith new writes only new files") from None
    except OSError as e:
        raise GameError(f"cannot write {e.filename or folder}: {e.strerror or e}") from None
    n = args.players if args.players is not None else k.seats
    players = f"{args.players} players" if args.players is not None else f"{k.min_players}-{k.max_players} players"
    r, s = shlex.quote(str(rules)), shlex.quote(str(scenarios))  # the commands are to be pasted into a shell
    say(f"wrote {rules} ({k.what} for {players}) and its scenarios, {scenarios}; next:",
        f"  cardsmith validate --deep {r}", f"  cardsmith test {s}",
        f"  cardsmith run {r} --players {n}", f"  cardsmith play {r} --players {n}")
    return 0


def _write_new(path: Path, text: str) -> None:
    with open(path, "x", encoding="utf-8") as f:  # "x": never over a file that appeared meanwhile
        f.write(text)
