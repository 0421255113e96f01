"""The checker's parts (dsl/check_context.py and the classes over it) stub none of each other's methods, so
the order of `Checker`'s bases decides nothing: a checker with its bases reversed reports the same
diagnostics, word for word, for every invalid test file and every bundled game."""

from __future__ import annotations

from typing import Any

import pytest
from cardsmith.dsl import checker
from cardsmith.dsl.pipeline import compile_text
from conftest import ROOT

FILES = sorted((ROOT / "tests" / "invalid").glob("*.yaml")) + sorted((ROOT / "games").glob("*.yaml"))


def _reversed_checker() -> type:
    own = {k: v for k, v in vars(checker.Checker).items() if k not in ("__dict__", "__weakref__", "_methods")}
    return type("ReversedChecker", tuple(reversed(checker.Checker.__bases__)), own)


def _diagnostics(path: Any) -> list[tuple[str, str, str, str | None]]:
    r = compile_text(path.read_text(encoding="utf-8"), path.name)
    return [(d.code, str(d.span), d.message, d.hint) for d in r.diagnostics]


def test_no_part_stubs_another() -> None:
    for part in checker.Checker.__bases__:
        for name, value in vars(part).items():
            code = getattr(value, "__code__", None)
            assert code is None or "NotImplementedError" not in code.co_names, f"{part.__name__}.{name}"


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_the_order_of_the_parts_decides_nothing(path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    expected = _diagnostics(path)
    monkeypatch.setattr(checker, "Checker", _reversed_checker())
    assert _diagnostics(path) == expected
