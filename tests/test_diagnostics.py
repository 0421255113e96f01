"""Golden diagnostics: `cardsmith validate FILE.yaml` must print FILE.expected word for word.

Each tests/invalid/FILE.yaml is a small rule file with known mistakes (its first
line says which, and usually the code it shows). The command runs from the
repository root with a relative path, so the expected files hold stable paths.
To see the current output:

    cardsmith validate tests/invalid/FILE.yaml

tests/invalid/bases/ holds the files the variant cases extend (only *.yaml at
the top level of tests/invalid are cases). Every code the checker can report is
shown by at least one case; the few that need a huge file or a long chain of
files (E007, P003, X006) have a test of their own below. docs/errors.md lists
every code with an example.

Files in KNOWN_ISSUES are diagnostics that are wrong or unhelpful today: their
.expected file holds what the tool *should* print, and the test is an xfail
(strict, so a fix that makes it pass turns the suite red until the entry is removed).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from cardsmith.cli.main import main
from conftest import ROOT

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


# Files that take seconds to refuse (expanding YAML aliases up to the limit): in the slow tier.
SLOW = {"alias_bomb"}


def _case(path: Path) -> object:
    marks = [pytest.mark.slow] if path.stem in SLOW else []
    if path.stem in KNOWN_ISSUES:
        marks.append(pytest.mark.xfail(reason=KNOWN_ISSUES[path.stem], strict=True))
    return pytest.param(path, id=path.stem, marks=marks)


def test_every_broken_file_has_an_expected_output() -> None:
    assert len(FILES) >= 40
    missing = [rel(p) for p in FILES if not p.with_suffix(".expected").exists()]
    assert not missing, f"no .expected file for {missing}"
    assert set(KNOWN_ISSUES) <= {p.stem for p in FILES}


@pytest.mark.parametrize("path", [_case(p) for p in FILES])
def test_golden_output(path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    expected = path.with_suffix(".expected").read_text(encoding="utf-8")
    code, out = validate(path, capsys, monkeypatch)
    assert out == expected
    assert code == 1


@pytest.mark.parametrize("path", [pytest.param(p, id=p.stem, marks=[pytest.mark.slow] if p.stem in SLOW else [])
                                  for p in FILES])
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


# ---------------------------------------------------------------- every code is shown

CODE = re.compile(r"""["']([ESPCX]\d{3})["']""")
# Codes shown by a dedicated test below instead of a golden file: they need a
# file over a size limit or a long chain of files.
DEDICATED = {"E007", "P003", "X006"}


def _codes_in_source() -> set[str]:
    found: set[str] = set()
    for folder in ("dsl", "interpreter"):
        for py in (ROOT / folder).rglob("*.py"):
            found |= set(CODE.findall(py.read_text(encoding="utf-8")))
    return found


def test_every_code_is_shown_by_a_case() -> None:
    emitted = _codes_in_source()
    assert {"E000", "X001", "S001", "P001", "C001"} <= emitted, "the code pattern no longer matches the sources"
    shown: set[str] = set()
    for p in FILES:
        shown |= set(re.findall(r"\[([ESPCX]\d{3})\]$", p.with_suffix(".expected").read_text(encoding="utf-8"),
                                re.MULTILINE))
    assert sorted(emitted - shown - DEDICATED) == [], "codes without a case in tests/invalid"
    assert sorted(shown - emitted) == [], "expected files show codes the sources no longer emit"


ERRORS_DOC = ROOT / "docs" / "errors.md"


def test_every_code_is_in_docs_errors() -> None:
    doc = ERRORS_DOC.read_text(encoding="utf-8")
    headed = set(re.findall(r"^### `([ESPCX]\d{3})`", doc, re.MULTILINE))
    assert sorted(_codes_in_source() - headed) == [], "codes missing from docs/errors.md"


def test_docs_errors_quotes_the_current_output(capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Each message docs/errors.md shows for a file of tests/invalid is what validate prints for it today
    (its .expected file, which test_golden_output compares; for a known issue, the actual output)."""
    blocks = re.findall(r"```text\n(tests/invalid/(\w+)\.yaml:.*?\n)```", ERRORS_DOC.read_text(encoding="utf-8"),
                        re.DOTALL)
    assert len(blocks) >= 80
    for block, name in blocks:
        path = INVALID / f"{name}.yaml"
        if name in KNOWN_ISSUES:
            _, out = validate(path, capsys, monkeypatch)
        else:
            out = path.with_suffix(".expected").read_text(encoding="utf-8")
        assert block in out, f"docs/errors.md quotes for {name}:\n{block}\nbut validate prints:\n{out}"


# ---------------------------------------------------------------- limits (dedicated tests)

def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    assert err == ""
    return code, out


TEMPLATE = INVALID / "bases" / "high_card.yaml"


def test_file_over_the_size_limit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    big = tmp_path / "big.yaml"
    big.write_text(TEMPLATE.read_text(encoding="utf-8") + "# " + "x" * 1_000_000 + "\n", encoding="utf-8")
    code, out = _run(["validate", str(big)], capsys)
    assert code == 1
    assert out == (f"{big}:1:1: error: the file {big} is larger than 1,000,000 bytes [E007]\n"
                   "    hint: the limit is 1,000,000; raise it with --max-file-bytes N if the file is trusted\n"
                   f"{big}: 1 problem\n")
    code, out = _run(["validate", "--max-file-bytes", "2000000", str(big)], capsys)
    assert code == 0, out


def test_max_file_bytes_flag(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    code, out = _run(["validate", "--max-file-bytes", "100", rel(TEMPLATE)], capsys)
    assert code == 1
    assert out.startswith(f"{rel(TEMPLATE)}:1:1: error: the file {rel(TEMPLATE)} is larger than 100 bytes [E007]\n")


def test_expression_over_the_length_limit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # A flat list, not a long sum: a sum of hundreds of terms nests too deeply (see docs/errors.md, P004).
    long_expr = "len([" + ", ".join(["1"] * 1332) + "])"
    assert len(f"best = {long_expr}") == 4008
    rules = tmp_path / "long.yaml"
    rules.write_text(TEMPLATE.read_text(encoding="utf-8").replace(
        "      - best = top_value(table)", f"      - best = {long_expr}"), encoding="utf-8")
    code, out = _run(["validate", str(rules)], capsys)
    assert code == 1
    first, source, caret, hint, count = out.splitlines()
    assert first == f"{rules}:29:9: error: statement is longer than 4,000 characters [P003]"
    assert source == f"          - best = {long_expr}"
    assert caret == "            ^"
    assert hint == ("    hint: split it with `define:` functions; the limit is 4,000; "
                    "raise it with --max-expr-chars N if the file is trusted")
    assert count == f"{rules}: 1 problem"
    code, out = _run(["validate", "--max-expr-chars", "5000", str(rules)], capsys)
    assert code == 0, out


def test_max_expr_flags(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    code, out = _run(["validate", "--max-expr-chars", "20", rel(TEMPLATE)], capsys)
    assert code == 1
    assert f"{rel(TEMPLATE)}:22:17: error: expression is longer than 20 characters [P003]" in out
    code, out = _run(["validate", "--max-expr-depth", "1", rel(TEMPLATE)], capsys)
    assert code == 1
    assert f"{rel(TEMPLATE)}:22:17: error: brackets nested deeper than 1 levels [P004]" in out


def test_limit_flags_hold_for_their_command_only(capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The flags build the command's own Limits: nothing global is left for the next command in the process."""
    monkeypatch.chdir(ROOT)
    assert _run(["validate", "--max-expr-chars", "20", rel(TEMPLATE)], capsys)[0] == 1
    assert _run(["validate", rel(TEMPLATE)], capsys)[0] == 0


def test_variants_nested_too_deep(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "v0.yaml").write_text(TEMPLATE.read_text(encoding="utf-8"), encoding="utf-8")
    for i in range(1, 10):
        (tmp_path / f"v{i}.yaml").write_text(f"extends: v{i - 1}.yaml\ngame: Level {i}\n", encoding="utf-8")
    code, out = _run(["validate", str(tmp_path / "v8.yaml")], capsys)
    assert code == 0, out  # eight levels of extends are allowed
    code, out = _run(["validate", str(tmp_path / "v9.yaml")], capsys)
    assert code == 1
    assert "error: variants extend each other more than 8 deep [X006]" in out
    assert out.splitlines()[1] == "    extends: v0.yaml"
    assert out.splitlines()[3] == "    hint: the chain: " + " extends ".join(f"v{i}.yaml" for i in range(9, -1, -1))


def test_each_code_is_documented_once() -> None:
    """One code, one meaning: two features that picked the same free number would share a heading."""
    text = (ROOT / "docs" / "errors.md").read_text(encoding="utf-8")
    headings = re.findall(r"^### `([A-Z]\d{3})`", text, re.M)
    assert len(headings) == len(set(headings)), sorted({c for c in headings if headings.count(c) > 1})
