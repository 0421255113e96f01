"""`cardsmith schema [--scenario] [-o FILE] [--path]`: the JSON Schema of rule files (or scenario files).

The schema is built from the table of keys the readers use (dsl/keys.py, dsl/json_schema.py), so it is
the one this version of cardsmith reads by. The package also ships it as files (cardsmith/schemas/, the
same text), for editors pointed at an installed cardsmith: `--path` says where they are. docs/editors.md
says how an editor uses it.
"""

from __future__ import annotations

import argparse
from importlib import resources
from pathlib import Path

from ..dsl.json_schema import FILES, dumps, rules_schema, scenario_schema
from ..engine.errors import GameError
from ..engine.text import say

SHIPPED = "schemas"  # the folder of the package that holds the schema files


def shipped(kind: str) -> Path:
    """Where the installed package keeps the schema file of `kind` ("rules" or "scenarios")."""
    return Path(str(resources.files(__package__.rpartition(".")[0]) / SHIPPED / FILES[kind]))


def text(kind: str) -> str:
    """The schema of `kind` as the files hold it."""
    return dumps(scenario_schema() if kind == "scenarios" else rules_schema())


def cmd_schema(args: argparse.Namespace) -> int:
    kind = "scenarios" if args.scenario else "rules"
    if args.path:
        say(str(shipped(kind)))
        return 0
    out = text(kind)
    if args.output is None:
        print(out, end="")
        return 0
    try:
        Path(args.output).write_text(out, encoding="utf-8")
    except OSError as e:
        raise GameError(f"cannot write {args.output}: {e.strerror or e}") from None
    return 0
