"""C020 marks the name that is declared again, not its value or the keyword before it (issue 31, part 8)."""

from __future__ import annotations

import pytest
from cardsmith.dsl.pipeline import compile_text
from test_places import REBIND


@pytest.mark.parametrize(("func", "steps", "marked"), [
    ("let x = x + 1; x", "      - n = 1", "x = x + 1"),
    ("let y = 1;  y  = 2; y", "      - n = 1", "y  = 2"),
    ("[[y for y in [1]] for  y in [2]]", "      - n = 1", "y in [1]]"),
    ("x", "      - let  c = 1", "c = 1"),
    ("x", "      - pick   c from players", "c from"),
    ("x", "      - for:   c in players\n        do: []", "c in players"),
    ("x", "      - for: \"c in players\"\n        do: []", "c in players"),
])
def test_the_caret_is_under_the_name(func: str, steps: str, marked: str) -> None:
    text = REBIND.format(FUNC=func, STEPS=steps)
    (d,) = compile_text(text, "rebind.yaml").diagnostics
    assert d.code == "C020"
    line = text.splitlines()[d.span.line - 1]
    assert line[d.span.col - 1:].startswith(marked), (line, d.span.col)
