"""What a name, a call or an assignment refers to, as the checker resolved it (`Name.ref`, `Call.ref`,
`Assign.ref`): one small class per kind of binding, as pyflakes has `Argument`, `Assignment`, `Builtin`.

A pass asks `isinstance(n.ref, Variable)` and reads `n.ref.spec`, where it used to unpack a tagged tuple
and compare strings. Two references are equal when they name the same thing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .library import LibFunc
    from .spec import FuncSpec, VarSpec, ZoneSpec


@dataclass(frozen=True, slots=True)
class Local:
    """A parameter, a `let` or `for` name, a comprehension's or a lambda's variable."""

    name: str


@dataclass(frozen=True, slots=True)
class Builtin:
    """A built-in value (`players`, `dealer`, `team`, ...: dsl/expr_checks.py, BUILTIN_VALUES)."""

    name: str


@dataclass(frozen=True, slots=True)
class Option:
    name: str


@dataclass(frozen=True, slots=True)
class Constant:
    name: str


@dataclass(frozen=True, slots=True)
class Variable:
    spec: VarSpec


@dataclass(frozen=True, slots=True)
class Zone:
    spec: ZoneSpec


@dataclass(frozen=True, slots=True)
class Broken:
    """A name declared in a section that could not be read: no error for each use of it."""

    name: str


@dataclass(frozen=True, slots=True)
class UserFunction:
    """A `define:` function."""

    spec: FuncSpec


@dataclass(frozen=True, slots=True)
class Library:
    """A library function (dsl/library.py)."""

    spec: LibFunc


NameRef = Local | Builtin | Option | Constant | Variable | Zone | Broken
CallRef = UserFunction | Library
