"""Warnings (W001-W010): `cardsmith validate FILE.yaml` must print FILE.expected word for word.

Each tests/warnings/FILE.yaml is the High Card game of tests/invalid/bases/high_card.yaml with something
nothing uses or reaches (its first line says what, and the codes it shows); tests/warnings/deep/FILE.yaml
is validated with `--deep`. A file with warnings is valid: exit status 0, and the summary line counts them.
`--strict` makes each warning an error: the same lines say `error:`, the count is of problems, status 1.
The command runs from the repository root with a relative path, so the expected files hold stable paths:

    cardsmith validate tests/warnings/FILE.yaml
    cardsmith validate --deep tests/warnings/deep/FILE.yaml

Below the golden files: what "used" means for each kind of thing (dsl/lint.py), on small changes of the
same game, and that warnings wait until a file has no errors.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from cardsmith.cli.main import main
from cardsmith.dsl.diagnostics import Diagnostic
from cardsmith.dsl.pipeline import compile_file, compile_text
from conftest import GAME_FILES, ROOT

WARNINGS = ROOT / "tests" / "warnings"
FILES = sorted(WARNINGS.glob("*.yaml"))
DEEP_FILES = sorted((WARNINGS / "deep").glob("*.yaml"))
TEMPLATE = ROOT / "tests" / "invalid" / "bases" / "high_card.yaml"
ERRORS_DOC = ROOT / "docs" / "errors.md"

LOCATED = re.compile(r"^(?P<file>[^:\s]+):(?P<line>\d+):(?P<col>\d+): (?P<severity>warning|error): .* "
                     r"\[(?P<code>[A-Z]\d{3})\]$")


def rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def validate(argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> tuple[int, str]:
    monkeypatch.chdir(ROOT)
    code = main(["validate", *argv])
    out, err = capsys.readouterr()
    assert err == "", f"validate wrote to stderr: {err}"
    return code, out


def _args(path: Path) -> list[str]:
    return (["--deep"] if path.parent.name == "deep" else []) + [rel(path)]


CASES = [pytest.param(p, id=rel(p).removeprefix("tests/warnings/")) for p in FILES + DEEP_FILES]


# ---------------------------------------------------------------- golden files
def test_every_case_has_an_expected_output() -> None:
    assert len(FILES) >= 8 and DEEP_FILES
    missing = [rel(p) for p in FILES + DEEP_FILES if not p.with_suffix(".expected").exists()]
    assert not missing, f"no .expected file for {missing}"


@pytest.mark.parametrize("path", CASES)
def test_golden_output(path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = validate(_args(path), capsys, monkeypatch)
    assert out == path.with_suffix(".expected").read_text(encoding="utf-8")
    assert code == 0


@pytest.mark.parametrize("path", CASES)
def test_every_warning_is_located_and_counted(path: Path, capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Each warning names this file with a line and column inside it, in file order, and the summary line
    ends with their number."""
    _, out = validate(_args(path), capsys, monkeypatch)
    lines = path.read_text(encoding="utf-8").splitlines()
    found = [m for m in map(LOCATED.match, out.splitlines()) if m]
    assert found and all(m["severity"] == "warning" for m in found), out
    places = [(int(m["line"]), int(m["col"])) for m in found]
    assert places == sorted(places)
    for m, (line, col) in zip(found, places):
        assert m["file"] == rel(path)
        assert 1 <= line <= len(lines) and 1 <= col <= len(lines[line - 1]) + 1, m.group(0)
    n = len(found)
    summary = out.rstrip().splitlines()[-1]
    assert summary.startswith(f"{rel(path)}: ok: ")
    assert summary.endswith(f"; {n} warning{'s' if n != 1 else ''}"), summary


@pytest.mark.parametrize("path", CASES)
def test_strict_makes_them_errors(path: Path, capsys: pytest.CaptureFixture[str],
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """`--strict`: the same diagnostics as errors, a count of problems as for any broken file, status 1."""
    expected = path.with_suffix(".expected").read_text(encoding="utf-8").splitlines()
    code, out = validate(["--strict", *_args(path)], capsys, monkeypatch)
    assert code == 1
    *diagnostics, summary = out.splitlines()
    assert diagnostics == [re.sub(r"^(\S+:\d+:\d+): warning: ", r"\1: error: ", ln) for ln in expected[:-1]]
    n = sum(1 for ln in diagnostics if LOCATED.match(ln))
    if path.parent.name == "deep":
        played = re.search(r"; deep: (.*), no problems; \d+ warnings?$", expected[-1])
        assert played, expected[-1]
        assert summary == f"{rel(path)}: {n} problem{'s' if n != 1 else ''} found by playing ({played[1]})"
    else:
        assert summary == f"{rel(path)}: {n} problem{'s' if n != 1 else ''}"


# ---------------------------------------------------------------- every code: a case and a section
W_CODE = re.compile(r"""["'](W\d{3})["']""")


def _codes_in_source() -> set[str]:
    found: set[str] = set()
    for folder in ("dsl", "interpreter"):
        for py in (ROOT / folder).rglob("*.py"):
            found |= set(W_CODE.findall(py.read_text(encoding="utf-8")))
    return found


def test_every_code_is_shown_by_a_case() -> None:
    emitted = _codes_in_source()
    assert {"W001", "W010"} <= emitted, "the code pattern no longer matches the sources"
    shown: set[str] = set()
    for p in FILES + DEEP_FILES:
        shown |= set(re.findall(r"\[(W\d{3})\]$", p.with_suffix(".expected").read_text(encoding="utf-8"), re.M))
    assert sorted(emitted - shown) == [], "codes without a case in tests/warnings"
    assert sorted(shown - emitted) == [], "expected files show codes the sources no longer emit"


def test_every_code_is_in_docs_errors() -> None:
    doc = ERRORS_DOC.read_text(encoding="utf-8")
    headed = set(re.findall(r"^### `(W\d{3})`", doc, re.M))
    assert sorted(_codes_in_source() - headed) == [], "codes missing from docs/errors.md"
    assert sorted(headed - _codes_in_source()) == [], "docs/errors.md has sections for codes no longer emitted"


def test_docs_errors_quotes_the_current_output() -> None:
    """Each output docs/errors.md shows for a file of tests/warnings is in its .expected file, word for word,
    and every code's section shows one."""
    doc = ERRORS_DOC.read_text(encoding="utf-8")
    blocks = re.findall(r"```text\n(tests/warnings/((?:deep/)?\w+)\.yaml:.*?\n)```", doc, re.DOTALL)
    shown: set[str] = set()
    for block, name in blocks:
        expected = (WARNINGS / f"{name}.expected").read_text(encoding="utf-8")
        assert block in expected, f"docs/errors.md quotes for {name}:\n{block}\nbut validate prints:\n{expected}"
        shown |= set(re.findall(r"\[(W\d{3})\]$", block, re.M))
    assert sorted(_codes_in_source() - shown) == [], "codes whose output docs/errors.md does not show"


# ---------------------------------------------------------------- the bundled games and the docs' examples
def test_bundled_games_and_doc_examples_have_no_warnings(capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    examples = [p for p in sorted((ROOT / "docs" / "examples").glob("*.yaml")) if ".scenarios." not in p.name]
    assert examples
    code, out = validate(["--strict", *map(str, GAME_FILES), *map(rel, examples)], capsys, monkeypatch)
    assert code == 0, out
    assert len(out.splitlines()) == len(GAME_FILES) + len(examples) and "warning" not in out, out


# ---------------------------------------------------------------- what "used" means
def _warnings(edits: list[tuple[str, str]], tmp_path: Path) -> list[Diagnostic]:
    """The warnings of the High Card game changed by `edits` (each an exact text and its replacement)."""
    text = TEMPLATE.read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    path = tmp_path / "game.yaml"
    loaded = compile_text(text, str(path), warnings=True)
    errors = [d for d in loaded.diagnostics if d.severity == "error"]
    assert not errors and loaded.ok, errors
    return loaded.diagnostics


def _said(diags: list[Diagnostic]) -> list[tuple[str, str]]:
    return sorted((d.code, d.message) for d in diags)


def test_the_template_has_no_warnings(tmp_path: Path) -> None:
    # 'best' is only set, but the tables show it: players read it.
    assert _warnings([], tmp_path) == []


def test_a_zone_only_dealt_to_or_moved_to_is_used(tmp_path: Path) -> None:
    assert _warnings([("  table: {}\n", "  table: {}\n  pile: {}\n  seen: {per_player: true}\n"),
                      ("    - deal 1 from stock to hand\n", "    - deal 1 from stock to hand\n"
                       "    - deal 0 from stock to seen\n    - move [] to pile\n")], tmp_path) == []


def test_the_first_zone_holds_the_pack(tmp_path: Path) -> None:
    """Every card starts in the first zone listed: it is used even if no rule names it."""
    assert _warnings([("zones:\n", "zones:\n  box: {visible: nobody}\n")], tmp_path) == []
    got = _warnings([("  table: {}\n", "  table: {}\n  box: {visible: nobody}\n")], tmp_path)
    assert _said(got) == [("W002", "zone 'box' is never used")]


def test_an_option_read_only_by_show_or_a_constraint_is_used(tmp_path: Path) -> None:
    options = ("players: {min: 2, max: 4}\n", "players: {min: 2, max: 4}\noptions:\n"
               "  fancy: {type: bool, default: false}\n  deals: {type: int, default: 3, min: 1, max: 9}\n")
    assert _warnings([options, ("  table: {}\n", "  table: {show: fancy}\n"),
                      ("define:\n", "constraints:\n  - require: deals > 0\n    message: at least one deal\n"
                       "define:\n")], tmp_path) == []
    got = _warnings([options, ("  table: {}\n", "  table: {show: fancy}\n")], tmp_path)
    assert _said(got) == [("W001", "option 'deals' is never used")]


def test_a_variable_is_read_by_a_rule_or_by_the_players(tmp_path: Path) -> None:
    """`+=` is not a read; a variable the tables show is read by the players; `visible: nobody` and
    `show: false` show it to no one."""
    hidden = ("  best: {type: int, scope: deal}\n", "  best: {type: int, scope: deal}\n"
              "  tally: {type: int, show: false}\n  spare: {type: int, visible: nobody}\n  shown: {type: int}\n")
    got = _warnings([hidden, ("      - best = top_value(table)\n", "      - best = top_value(table)\n"
                              "      - tally += 1\n")], tmp_path)
    assert _said(got) == [("W003", "variable 'spare' is never used"),
                          ("W003", "variable 'tally' is set but never read")]
    got = _warnings([hidden, ("      - best = top_value(table)\n", "      - best = top_value(table)\n"
                              "      - tally += spare\n")], tmp_path)
    assert _said(got) == [("W003", "variable 'tally' is set but never read")]
    assert _warnings([hidden, ("  winners: all_max_by(players, p => wins[p])\n",
                               "  winners: \"all_max_by(players, p => wins[p] + tally + spare)\"\n")], tmp_path) == []


def test_functions_and_procedures_used_through_others(tmp_path: Path) -> None:
    """A function is used if something used calls it: a procedure the rules run, another function, a
    report; one called only by unused ones is reported with them."""
    defs = ("define:\n", "procedures:\n  note(x):\n    - log '{}', x\n  unused():\n    - do note(twice(1))\n"
            "define:\n  twice(n): n * 2\n  half(n): n // 2\n  quarter(n): half(half(n))\n")
    got = _warnings([defs], tmp_path)
    assert _said(got) == [
        ("W004", "function 'half' is called only by 'quarter', which nothing uses"),
        ("W004", "function 'quarter' is never called"),
        ("W004", "function 'twice' is called only by 'unused', which nothing uses"),
        ("W005", "procedure 'note' is run only by 'unused', which nothing uses"),
        ("W005", "procedure 'unused' is never run")]
    got = _warnings([defs, ("      - best = top_value(table)\n", "      - best = top_value(table)\n"
                            "      - do unused()\n"),
                     ("  winners: all_max_by(players, p => wins[p])\n", "  report:\n    q: quarter(wins[p])\n"
                      "  winners: all_max_by(players, p => wins[p])\n")], tmp_path)
    assert got == []


def test_phases_are_entered_through_goto_then_and_procedures(tmp_path: Path) -> None:
    """From 'match: deal' (directly or through a procedure it runs), a phase's `then`, its steps and the
    effects of the actions it lists (through procedures); a phase that only goes to itself is not entered."""
    phases = ("    end:\n      - end deal\n", "    end:\n      - end deal\n"
              "  second:\n    actions: [wait]\n    then: third\n"
              "  third:\n    actions: [wait]\n    after: [do to_fourth()]\n"
              "  fourth:\n    actions: [wait]\n    after: [end deal]\n"
              "  loop:\n    actions: [wait]\n    after: [goto loop]\n")
    wait = ("phases:\n", "  wait: {}\n\nprocedures:\n  to_fourth():\n    - goto fourth\n  start():\n"
            "    - goto second\n\nphases:\n")
    got = _warnings([phases, wait], tmp_path)
    assert _said(got) == [("W005", "procedure 'start' is never run"),
                          ("W007", "action 'wait' is listed only by phases never entered ('fourth', 'loop', 'second', "
                           "'third')"),
                          ("W008", "phase 'fourth' is never entered"), ("W008", "phase 'loop' is never entered"),
                          ("W008", "phase 'second' is never entered"), ("W008", "phase 'third' is never entered")]
    got = _warnings([phases, wait, ("    - goto round\n", "    - if: deal_number == 1\n      then: [goto round]\n"
                                    "      else: [do start()]\n")], tmp_path)
    assert _said(got) == [("W008", "phase 'loop' is never entered")]


def test_an_action_is_reported_once(tmp_path: Path) -> None:
    """An action no phase lists is W006 (not also W010 with --deep); one listed only by phases never entered
    is W007; a 'match: deal' without a goto is one W009, not a warning for every phase and action."""
    extra = ("phases:\n", "  wait: {}\n\nphases:\n")
    assert _said(_warnings([extra], tmp_path)) == [("W006", "action 'wait' is in no phase's 'actions'")]
    got = _warnings([extra, ("    - goto round\n", "    - end deal\n")], tmp_path)
    assert _said(got) == [("W009", "'match: deal' never enters a phase")]


def test_no_warnings_with_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Warnings wait until the file has no errors: a misspelt name would make what it meant look unused."""
    path = tmp_path / "broken.yaml"
    path.write_text(TEMPLATE.read_text(encoding="utf-8").replace(
        "  winners: all_max_by(players, p => wins[p])", "  winners: all_max_by(players, p => winz[p])"),
        encoding="utf-8")
    loaded = compile_file(path, warnings=True)
    assert [d.code for d in loaded.diagnostics] == ["C019"]
    code, out = validate([str(path)], capsys, monkeypatch)
    assert code == 1 and ": warning: " not in out and out.endswith(": 1 problem\n"), out


def test_a_warning_in_a_base_file_is_located_there(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A variant that stops using a function of its base: the warning quotes the base's line."""
    (tmp_path / "base.yaml").write_text(TEMPLATE.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "variant.yaml").write_text("extends: base.yaml\ngame: Low Card\nactions:\n  play:\n"
                                           "    effect: [move card to table]\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["validate", "variant.yaml"]) == 0
    out, _ = capsys.readouterr()
    assert out.splitlines()[:3] == ["base.yaml:22:3: warning: function 'top_value' is never called [W004]",
                                    "      top_value(h): max([c.value for c in h])", "      ^"], out
    assert out.splitlines()[-1] == "variant.yaml: ok: Low Card, 2-4 players, 1 action, 1 phase; 1 warning"


def test_other_commands_do_not_show_warnings(capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A player is not shown the designer's lint, and a game with warnings runs."""
    path = rel(WARNINGS / "unreachable_phase.yaml")
    monkeypatch.chdir(ROOT)
    for argv in (["run", path, "--seed", "1"], ["list", path], ["bench", path, "--seconds", "0.05"]):
        code = main(argv)
        out, err = capsys.readouterr()
        assert code == 0, err
        assert "[W0" not in out + err and ": warning: " not in out + err, argv
    assert compile_file(WARNINGS / "unreachable_phase.yaml").diagnostics == []  # not asked for: not worked out
