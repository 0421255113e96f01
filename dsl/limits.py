"""Resource limits for untrusted rule files, each with a default a user may raise.

One `LIMITS` object is read by every stage; the CLI sets it from its
`--max-...` flags. Each error that a limit causes names the flag.
"""

from __future__ import annotations

from dataclasses import dataclass, fields


@dataclass
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

    FLAGS = {
        "file_bytes": "--max-file-bytes", "yaml_depth": "--max-yaml-depth", "yaml_nodes": "--max-yaml-nodes",
        "expr_chars": "--max-expr-chars", "expr_depth": "--max-expr-depth", "cards": "--max-cards",
        "actions": "--max-actions", "steps": "--max-steps", "held": "--max-held",
    }

    def flag(self, name: str) -> str:
        return self.FLAGS[name]

    def reset(self) -> None:
        for f in fields(self):
            setattr(self, f.name, f.default)


LIMITS = Limits()


def raise_hint(name: str) -> str:
    return f"the limit is {getattr(LIMITS, name):,}; raise it with {LIMITS.flag(name)} N if the file is trusted"
