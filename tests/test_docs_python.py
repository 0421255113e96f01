"""The Python examples in docs/*.md run (docs/python.md above all).

Each doc's ```python blocks run in order in one namespace, as a reader would paste them into one session,
in a temporary folder (so they can only name bundled games or files they write). A block whose first
line is `# needs: MODULE[, MODULE]` is run only if those modules are installed (the `[rl]` extra's
pyspiel, pettingzoo, numpy); the others always run.
"""

from __future__ import annotations

import importlib.util
import os
import re
from pathlib import Path

import pytest
from conftest import ROOT

DOCS = ROOT / "docs"
FENCE = re.compile(r"^```python\n(.*?)^```", re.S | re.M)
NEEDS = re.compile(r"#\s*needs:\s*([\w., ]+)")


def _blocks(doc: Path) -> list[tuple[int, str]]:
    text = doc.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start()) + 2, m.group(1)) for m in FENCE.finditer(text)]


DOCS_WITH_PYTHON = [d for d in sorted(DOCS.glob("*.md")) if _blocks(d)]


def test_python_md_has_examples() -> None:
    assert DOCS / "python.md" in DOCS_WITH_PYTHON
    assert len(_blocks(DOCS / "python.md")) >= 3


@pytest.mark.slow
@pytest.mark.parametrize("doc", DOCS_WITH_PYTHON, ids=lambda d: d.name)
def test_python_examples_run(doc: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {"__name__": "__doc_example__"}
    ran = 0
    for line, code in _blocks(doc):
        first = code.splitlines()[0] if code.strip() else ""
        m = NEEDS.match(first)
        if m and any(importlib.util.find_spec(x.strip()) is None for x in m.group(1).split(",")):
            continue
        try:
            exec(compile(code, f"{doc.name}:{line}", "exec"), namespace)  # our own docs, not a rule file
        except Exception as e:  # pragma: no cover - the message names the block
            raise AssertionError(f"{doc.name}: the example at line {line} failed: {e!r}") from e
        ran += 1
    assert ran > 0
    assert os.getcwd() == str(tmp_path)
