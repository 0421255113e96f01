"""Golden diagnostics: `cardsmith validate FILE.yaml` must print FILE.expected word for word.

Each tests/invalid/FILE.yaml is a small rule file with known mistakes (its first
line says which). The command runs from the repository root with a relative
path, so the expected files hold stable paths. To see the current output:

    cardsmith validate tests/invalid/FILE.yaml

Files in KNOWN_ISSUES are diagnostics that are wrong or unhelpful today: their
.expected file holds what the tool *should* print, and the test is an xfail
(strict, so a fix that makes it pass turns the suite red until the entry is removed).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import ROOT

from interpreter.cli import main

INVALID = ROOT / "tests" / "invalid"
FILES = sorted(INVALID.glob("*.yaml"))

KNOWN_ISSUES: dict[str, str] = {}

LOCATED = re.compile(r"^(?P<file>[^:\s]+):(?P<line>\d+):(?P<col>\d+): error: ")


def rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def validate(path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> tuple[int, str]:
    monkeypatch.chdir(ROOT)
    code = main(["validate", rel(path)])
    out, err = capsys.readouterr()
    assert err == "", f"validate wrote to stderr: {err}"
    return code, out


def _case(path: Path) -> object:
    marks = []
    if path.stem in KNOWN_ISSUES:
        marks.append(pytest.mark.xfail(reason=KNOWN_ISSUES[path.stem], strict=True))
    return pytest.param(path, id=path.stem, marks=marks)


def test_every_broken_file_has_an_expected_output() -> None:
    assert len(FILES) >= 8
    missing = [rel(p) for p in FILES if not p.with_suffix(".expected").exists()]
    assert not missing, f"no .expected file for {missing}"
    assert set(KNOWN_ISSUES) <= {p.stem for p in FILES}


@pytest.mark.parametrize("path", [_case(p) for p in FILES])
def test_golden_output(path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    expected = path.with_suffix(".expected").read_text(encoding="utf-8")
    code, out = validate(path, capsys, monkeypatch)
    assert out == expected
    assert code == 1


@pytest.mark.parametrize("path", [pytest.param(p, id=p.stem) for p in FILES])
def test_every_problem_is_located_in_the_file(path: Path, capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Each error names this file with a line and column inside it, and the count line agrees."""
    code, out = validate(path, capsys, monkeypatch)
    assert code == 1
    lines = path.read_text(encoding="utf-8").splitlines()
    located = [LOCATED.match(ln) for ln in out.splitlines()]
    found = [m for m in located if m]
    assert found, out
    for m in found:
        assert m["file"] == rel(path)
        line, col = int(m["line"]), int(m["col"])
        assert 1 <= line <= len(lines), m.group(0)
        assert 1 <= col <= len(lines[line - 1].expandtabs(1)) + 1, m.group(0)
    n = len(found)
    assert out.rstrip().splitlines()[-1] == f"{rel(path)}: {n} problem{'s' if n != 1 else ''}"
    assert "Traceback" not in out


def test_three_mistakes_give_exactly_three_located_errors(capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = validate(INVALID / "three_mistakes.yaml", capsys, monkeypatch)
    assert code == 1
    found = [(int(m["line"]), int(m["col"])) for m in map(LOCATED.match, out.splitlines()) if m]
    assert found == [(29, 9), (35, 21), (43, 19)], out


def test_python_tag_is_refused_at_its_place(capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever else is reported, the tag itself is a located error and nothing is built from it."""
    code, out = validate(INVALID / "python_tag.yaml", capsys, monkeypatch)
    assert code == 1
    first = out.splitlines()[0]
    assert first.startswith("tests/invalid/python_tag.yaml:2:7: error: YAML tag ")
    assert first.endswith("[E001]")
