"""What the lowering (lower.py, lower_calls.py) and the C++ emitter share: the IR's constants, the local
slots of a function body, a lowered function, and the refusal of what the native backend does not cover."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..dsl import types as T
from ..dsl.diagnostics import Span

NONE_V = -(2**62)  # the rules' `none` as an int
NONE_CODE = -2
END_DEAL = -1
IR = tuple


class Unsupported(Exception):
    """What the native backend does not cover yet, named in words (the message). `span`: where the rule file
    writes it, where known: the innermost expression or statement being lowered (`Lowering.located`)."""

    span: Span | None = None


def kind(ty: Any) -> str:
    """The IR kind of a type: i (int64), f (double), l (a list of ints), F (a list of doubles: keys such as
    [30.5, 2, 1]), L (a list of lists of ints), P (a list of such lists of lists: `packings`)."""
    if T.is_list(ty):
        if T.is_list(ty.item):
            if T.is_list(ty.item.item):
                if T.is_list(ty.item.item.item):
                    raise Unsupported("lists of lists of lists of lists")
                return "P"
            return "L"
        return "F" if ty.item == T.NUM else "l"
    if ty == T.NUM:
        return "f"
    return "i"


@dataclass
class Frame:
    """The local slots of one function body (separate numbering per kind)."""
    slots: dict[str, tuple[str, int]] = field(default_factory=dict)
    count: dict[str, int] = field(default_factory=lambda: {"i": 0, "f": 0, "l": 0, "L": 0, "F": 0, "P": 0})

    def new(self, name: str, k: str) -> int:
        i = self.count[k]
        self.count[k] += 1
        self.slots[name] = (k, i)
        return i

    def scoped(self, name: str) -> Any:
        """The binding of `name` now, to put back when a comprehension, lambda or `for` that rebinds it ends."""
        return self.slots.get(name)

    def restore(self, name: str, old: Any) -> None:
        if old is None:
            self.slots.pop(name, None)
        else:
            self.slots[name] = old


@dataclass
class Func:
    name: str
    params: list[tuple[str, int]]  # (kind, slot)
    ret: str  # i, f, or '' for a block (returns a code)
    body: Any  # an expression IR, or a list of statements
    frame: Frame




def item_kind(x: IR) -> str:
    """The kind of the items of a lowered list."""
    if x[1] == "P":
        return "L"
    if x[1] == "L":
        return "l"
    if x[1] == "l":
        return "i"
    if x[1] == "F":
        return "f"
    raise Unsupported("a loop over a value that is no list")
