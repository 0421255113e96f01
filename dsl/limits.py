"""Resource limits for untrusted rule files, each with a default a user may raise.

A `Limits` value is passed in, like a Jinja `Environment`: `compile_file(path, limits=...)` reads and
checks a file within it, the compiled game keeps it, and a `Game` runs within it (or within its own, given
to `Game(..., limits=...)`). The CLI builds one from its `--max-...` flags. Nothing here is global or
mutable, so two games with different limits can live in one process. Each error a limit causes names
the flag that raises it.
"""

from __future__ import annotations

from dataclasses import dataclass

# Seats at one table: a bound of the language itself, not a limit a flag raises. It is defined here, with the
# limits, so that the command line reads it without importing the rule file's classes (dsl/spec.py).
MAX_PLAYERS = 64

FLAGS = {
    "file_bytes": "--max-file-bytes", "yaml_depth": "--max-yaml-depth", "yaml_nodes": "--max-yaml-nodes",
    "expr_chars": "--max-expr-chars", "expr_depth": "--max-expr-depth", "cards": "--max-cards",
    "actions": "--max-actions", "steps": "--max-steps", "held": "--max-held",
}


@dataclass(frozen=True)
class Limits:
    file_bytes: int = 1_000_000  # size of one rule or scenario file
    yaml_depth: int = 64  # nesting of YAML mappings and lists
    yaml_nodes: int = 200_000  # YAML values after alias expansion ("billion laughs")
    expr_chars: int = 4_000  # length of one expression or statement
    expr_depth: int = 60  # nesting of brackets in one expression
    cards: int = 10_000  # cards in a pack
    actions: int = 1_000_000  # actions in one match
    steps: int = 2_000_000  # units of rule work in one move (interpreter/engine/budget.py)
    held: int = 1_000_000  # list items the list variables of one state hold together

    @staticmethod
    def flag(name: str) -> str:
        return FLAGS[name]

    def hint(self, name: str) -> str:
        """The hint of an error this limit caused: its value and the flag that raises it."""
        return raise_hint(name, getattr(self, name))


def raise_hint(name: str, value: int) -> str:
    return f"the limit is {value:,}; raise it with {FLAGS[name]} N if the file is trusted"


DEFAULT_LIMITS = Limits()
