"""The command line, called in-process: cardsmith.cli.main.main(argv) with captured output."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from cardsmith.dsl.diagnostics import count_of
from cardsmith.scenario.runner import read
from conftest import BUNDLED_DIR, GAME_FILES, GAME_PLAYERS, ROOT, cli, compiled


def assert_one_line_error(code: int, out: str, err: str) -> None:
    assert code != 0, f"exit status 0 for a bad command line; stdout {out!r}"
    lines = err.strip().splitlines()
    assert len(lines) == 1, f"expected a one-line error on stderr, got:\n{err}"
    assert "Traceback" not in err and "Traceback" not in out
    assert "error" in lines[0]


# ---------------------------------------------------------------- validate
@pytest.mark.slow
def test_validate_bundled_games(capsys: pytest.CaptureFixture[str]) -> None:
    files = [str(p) for p in GAME_FILES]
    code, out, err = cli(["validate", *files], capsys)
    assert code == 0, out + err
    lines = out.strip().splitlines()
    assert len(lines) == len(files)
    for f, line in zip(files, lines):
        assert line.startswith(f"{f}: ok: "), line
    assert err == ""


@pytest.mark.slow
def test_validate_bundled_games_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(["validate", *[p.stem for p in GAME_FILES]], capsys)
    assert code == 0
    assert len(out.strip().splitlines()) == len(GAME_FILES)
    assert all(": ok: " in line for line in out.strip().splitlines())


def test_validate_broken_file(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    code, out, _ = cli(["validate", "tests/invalid/unknown_name.yaml"], capsys)
    assert code == 1
    located = [ln for ln in out.splitlines() if ln.startswith("tests/invalid/unknown_name.yaml:")]
    assert located, out
    first = located[0].split(":")
    assert first[1].isdigit() and first[2].isdigit(), located[0]
    assert ": error: " in located[0]
    assert "Traceback" not in out


def test_validate_mixed_files_reports_each(capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    code, out, _ = cli(["validate", "games/stichln.yaml", "tests/invalid/yaml_syntax.yaml"], capsys)
    assert code == 1
    assert "games/stichln.yaml: ok: " in out
    assert "tests/invalid/yaml_syntax.yaml:" in out


def test_validate_strict_exit_status(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Warnings leave the exit status 0; --strict makes them errors (status 1). A clean file passes both, and
    one file with warnings among clean ones fails the whole --strict run."""
    monkeypatch.chdir(ROOT)
    warned, clean = "tests/warnings/unused_zone.yaml", "games/stichln.yaml"
    code, out, err = cli(["validate", warned], capsys)
    assert (code, err) == (0, "") and f"{warned}:16:3: warning: " in out
    assert out.endswith("; 1 warning\n"), out
    code, out, err = cli(["validate", "--strict", warned], capsys)
    assert (code, err) == (1, "") and f"{warned}:16:3: error: zone 'discard' is never used [W002]" in out
    assert out.endswith(f"{warned}: 1 problem\n"), out
    code, out, err = cli(["validate", "--strict", clean], capsys)
    assert (code, err) == (0, "") and out.startswith(f"{clean}: ok: ")
    code, out, err = cli(["validate", "--strict", clean, warned, "kuhn-poker"], capsys)
    assert code == 1 and out.count(": ok: ") == 2 and f"{warned}: 1 problem\n" in out
    # An error is an error with or without --strict; its file shows no warnings meanwhile.
    code, out, err = cli(["validate", "tests/invalid/unknown_name.yaml"], capsys)
    assert code == 1 and ": warning: " not in out


def test_validate_strict_deep_exit_status(capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """An action never legal in the matches played (W010) is a warning, and an error with --strict."""
    monkeypatch.chdir(ROOT)
    path = "tests/warnings/deep/never_legal.yaml"
    code, out, err = cli(["validate", path], capsys)
    assert (code, err) == (0, "") and "[W010]" not in out  # only playing finds it
    code, out, err = cli(["validate", "--deep", path], capsys)
    assert (code, err) == (0, "") and ": warning: action 'play_high' was never legal in the " in out
    code, out, err = cli(["validate", "--deep", "--strict", path], capsys)
    assert (code, err) == (1, "") and ": error: action 'play_high' was never legal in the " in out
    assert "1 problem found by playing" in out


# ---------------------------------------------------------------- run
@pytest.mark.parametrize("players", list(GAME_PLAYERS[str(ROOT / "games" / "schwimmen.yaml")]))
def test_run_schwimmen(players: int, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(["run", "schwimmen", "--players", str(players), "--seed", str(players)], capsys)
    assert code == 0, err
    assert out.startswith(f"Schwimmen, {players} players, seed {players}")
    assert "The match is over" in out
    assert err == ""


@pytest.mark.parametrize("players", list(GAME_PLAYERS[str(ROOT / "games" / "stichln.yaml")]))
def test_run_stichln_one_deal(players: int, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(["run", "stichln", "-n", str(players), "--seed", "3", "-o", "deals=1"], capsys)
    assert code == 0, err
    assert "options deals=1" in out.splitlines()[0]
    assert "The match is over" in out
    assert out.count("== Deal ") == 1
    assert re.search(r"\n\(\d+ actions, 1 deal\)$", out.rstrip()), out.rstrip().splitlines()[-1]


def test_run_stichln_default_deals(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(["run", "games/stichln.yaml", "-n", "4", "--seed", "11"], capsys)
    assert code == 0, err
    assert "The match is over" in out
    assert out.count("== Deal ") == 4  # the default is one deal per player
    assert re.search(r"\n\(\d+ actions, 4 deals\)$", out.rstrip()), out.rstrip().splitlines()[-1]


def test_a_report_named_like_a_variable_is_printed_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Stichln shows its per-player variable 'score' (the running total) after each deal. A variant that names a
    report line 'score' (the deal's points) gets one 'score' line per deal: its report, as --json records it."""
    variant = tmp_path / "reported.yaml"
    variant.write_text(f"extends: {ROOT / 'games' / 'stichln.yaml'}\ngame: Stichln (score reported)\n"
                       "match:\n  report:\n    score: deal_score(p)\n", encoding="utf-8")
    argv = ["run", str(variant), "-n", "3", "--seed", "1"]
    code, out, err = cli(argv, capsys)
    assert code == 0, err
    code, js, err = cli([*argv, "--json"], capsys)
    assert code == 0, err
    record = json.loads(js)
    reports = [ev["report"]["score"] for ev in record["events"] if ev["event"] == "end_deal"]
    printed = [ln for ln in out.splitlines() if ln.startswith("    score: ")]
    assert printed == ["    score: " + ", ".join(f"P{p} {v}" for p, v in enumerate(r)) for r in reports]
    # The variable (the sum of the deals' points) would have printed other values: the report's line is the one.
    totals = [record["variables"][f"score[{p}]"] for p in range(3)]
    assert len(reports) == 3 and totals == [sum(r[p] for r in reports) for p in range(3)] and totals != reports[-1]
    # Without the report line, the variable is shown as before: one line per deal, the running total.
    code, out, err = cli(["run", "stichln", "-n", "3", "--seed", "1"], capsys)
    assert code == 0, err
    assert len([ln for ln in out.splitlines() if ln.startswith("    score: ")]) == 3


@pytest.mark.parametrize("n,noun,text", [(0, "deal", "0 deals"), (1, "deal", "1 deal"), (2, "deal", "2 deals"),
                                         (1, "random match", "1 random match"), (3, "random match", "3 random matches"),
                                         (1_000, "action", "1,000 actions"), (1, "unit", "1 unit")])
def test_counts_are_pluralised(n: int, noun: str, text: str) -> None:
    assert count_of(n, noun) == text


def test_one_player_one_action_one_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every 'N things' the commands print is singular for one: a game for one player with one action."""
    solo = tmp_path / "solo.yaml"
    solo.write_text(SOLO, encoding="utf-8")
    code, out, err = cli(["validate", str(solo)], capsys)
    assert (code, out, err) == (0, f"{solo}: ok: Solo, 1 player, 1 action, 1 phase\n", "")
    code, out, err = cli(["run", str(solo), "--seed", "1"], capsys)
    assert code == 0, err
    assert out.splitlines()[0] == "Solo, 1 player, seed 1"
    assert out.splitlines()[-1] == "(1 action, 1 deal)"
    code, out, err = cli(["list", str(solo)], capsys)
    assert out == f"{solo}: Solo, 1 player\n"
    code, out, err = cli(["validate", "--deep", "--deep-games", "1", str(solo)], capsys)
    assert out.endswith("; deep: 1 setting, 1 random match, 1 action, no problems\n"), out
    code, out, err = cli(["run", str(solo), "--players", "2"], capsys)
    assert code == 1 and err == "cardsmith: error: Solo is for 1 player, not 2\n"


SOLO = """\
game: Solo
players: 1
deck:
  suits: [a]
  ranks: ['1']
zones:
  stock: {}
actions:
  go: {}
phases:
  main:
    actions: [go]
    after: [end deal]
match:
  deal: [goto main]
  over_when: true
  winners: players
"""


def test_run_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(["run", "schwimmen", "-n", "4", "--seed", "5", "--json"], capsys)
    assert code == 0, err
    lines = out.strip().splitlines()
    assert len(lines) == 1
    rec = json.loads(lines[0])
    assert isinstance(rec, dict)
    assert rec["game"] == "Schwimmen" and rec["players"] == 4 and rec["seed"] == 5
    assert isinstance(rec["winners"], list) and rec["winners"]
    assert all(0 <= p < 4 for p in rec["winners"])
    assert len(rec["returns"]) == 4
    assert rec["events"][-1] == {"event": "over", "winners": rec["winners"]}


def test_run_json_stichln_with_option(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(["run", "stichln", "-n", "3", "--seed", "2", "--json", "-o", "deals=2"], capsys)
    assert code == 0
    rec = json.loads(out)
    assert rec["options"] == {"deals": 2}
    assert rec["deals"] == 2
    assert "winners" in rec


def test_run_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    first = cli(["run", "schwimmen", "-n", "5", "--seed", "42"], capsys)
    second = cli(["run", "schwimmen", "-n", "5", "--seed", "42"], capsys)
    assert first == second


# ---------------------------------------------------------------- list
@pytest.mark.slow
def test_list(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(["list"], capsys)
    assert code == 0
    lines = out.splitlines()
    assert any(ln.startswith("schwimmen: Schwimmen, 2-8 players") for ln in lines), out
    assert any(ln.startswith("stichln: Stichln, 3-8 players") for ln in lines), out
    assert any("--option deals=VALUE" in ln and "1..50" in ln for ln in lines), out
    for p in GAME_FILES:
        header = [i for i, ln in enumerate(lines) if ln.startswith(f"{p.stem}: ")]
        assert len(header) == 1, f"{p.stem} not listed once"
        # Where the bundled game's file is (to read it, or to know what `extends: NAME` reads).
        assert lines[header[0] + 1] == f"    file: {BUNDLED_DIR / p.name}", out


def test_list_of_files_names_no_file_twice(capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    code, out, _ = cli(["list", "tests/invalid/bases/high_card.yaml", "stichln"], capsys)
    assert code == 0
    assert out.splitlines() == [
        "tests/invalid/bases/high_card.yaml: High Card, 2-4 players",
        "stichln: Stichln, 3-8 players",
        f"    file: {BUNDLED_DIR / 'stichln.yaml'}",
        "    --option deals=VALUE  (1..50; default =num_players)  number of deals in the match (default one per "
        "player)",
    ]


# ---------------------------------------------------------------- bad arguments
@pytest.mark.parametrize("argv", [
    pytest.param(["run", "stichln", "-n", "3", "-o", "colour=red"], id="unknown-option"),
    pytest.param(["run", "schwimmen", "-n", "3", "-o", "deals=2"], id="option-of-another-game"),
    pytest.param(["run", "stichln", "-n", "3", "-o", "deals=0"], id="option-below-range"),
    pytest.param(["run", "stichln", "-n", "3", "-o", "deals=51"], id="option-above-range"),
    pytest.param(["run", "stichln", "-n", "3", "-o", "deals=many"], id="option-not-a-number"),
    pytest.param(["run", "stichln", "-n", "2"], id="too-few-players"),
    pytest.param(["run", "schwimmen", "-n", "9"], id="too-many-players"),
    pytest.param(["run", "schwimmen", "-n", "0"], id="zero-players"),
    pytest.param(["run", "schwimmen", "-n", "two"], id="players-not-a-number"),
    pytest.param(["run", "no/such/file.yaml"], id="missing-file"),
    pytest.param(["run", "nosuchgame"], id="unknown-game"),
    pytest.param(["run", "stichln", "-n", "3", "-o", "deals"], id="option-without-equals"),
    pytest.param(["run", "stichln", "-n", "3", "-o", "=3"], id="option-without-name"),
    pytest.param(["run", "stichln", "--seed", "x"], id="bad-seed"),
    pytest.param(["run"], id="no-game"),
    pytest.param(["frobnicate"], id="unknown-command"),
    pytest.param([], id="no-command"),
    pytest.param(["bench", "stichln", "-n", "1", "--seconds", "0.1"], id="bench-wrong-players"),
    pytest.param(["test", "no/such/scenarios.yaml"], id="missing-scenario-file"),
])
def test_bad_arguments(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(argv, capsys)
    assert_one_line_error(code, out, err)


def test_missing_file_names_the_file(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = cli(["run", "no/such/file.yaml"], capsys)
    assert code != 0
    assert "no/such/file.yaml" in err


# ---------------------------------------------------------------- bench and test
def test_bench(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(["bench", "schwimmen", "-n", "3", "--seconds", "0.2"], capsys)
    assert code == 0, err
    assert "actions/s" in out
    assert "games/s" in out


@pytest.mark.slow
def test_test_command_runs_scenarios(capsys: pytest.CaptureFixture[str]) -> None:
    files = sorted(str(p) for p in (ROOT / "tests" / "scenarios").glob("*.yaml"))
    code, out, _ = cli(["test", *files], capsys)
    assert code == 0, out
    assert out.strip().splitlines()[-1].endswith(" passed, 0 failed")


@pytest.mark.slow
def test_only_a_name_no_scenario_has_fails(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """`--only` with a name no scenario has ran nothing and said "0 passed" with status 0: now it is an error that
    names the filter and the closest name, the names holding the filter, or the first names."""
    monkeypatch.chdir(ROOT)
    files = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "tests" / "scenarios").glob("*.yaml"))
    code, out, err = cli(["test", *files, "--only", "worked exmaple from the seed"], capsys)
    assert (code, out) == (1, "")
    assert err == (f"cardsmith: error: --only 'worked exmaple from the seed': no scenario of the {len(files)} files "
                   "has this name; did you mean 'worked example from the seed'?\n")
    code, out, err = cli(["test", "tests/scenarios/stichln.yaml", "--only", "first trick"], capsys)
    assert (code, out) == (1, "")
    assert err == ("cardsmith: error: --only 'first trick': no scenario of tests/scenarios/stichln.yaml has this "
                   "name; the scenarios whose names hold it: 'dealer P2 - P0 chooses first and leads the first "
                   "trick, t...'\n")
    names = [sc.name for sc in read("tests/scenarios/stichln.yaml").scenarios]
    code, out, err = cli(["test", "tests/scenarios/stichln.yaml", "--only", "no such"], capsys)
    assert (code, out) == (1, "")
    shown = ", ".join(repr(n if len(n) <= 60 else n[:57] + "...") for n in names[:5])
    assert err == (f"cardsmith: error: --only 'no such': no scenario of tests/scenarios/stichln.yaml has this name; "
                   f"its scenarios: {shown}, ... ({len(names)} in all)\n")
    # A name that some scenario has still runs just that one, whichever file holds it.
    code, out, err = cli(["test", *files, "--only", "worked example from the seed"], capsys)
    assert (code, out, err) == (0, "1 passed, 0 failed\n", "")


def test_only_lists_hostile_names_short_and_escaped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "many.yaml"
    names = [f"\\x1b[2J{i} \\u202e" + "x" * 300 for i in range(2_000)]
    path.write_text("game: stichln\nscenarios:\n" + "".join(f'  - name: "{n}"\n' for n in names), encoding="utf-8")
    code, out, err = cli(["test", str(path), "--only", "\x1b[31mno such"], capsys)
    assert (code, out) == (1, "")
    assert len(err.splitlines()) == 1 and len(err) < 600 and "\x1b" not in err and "\u202e" not in err, err
    assert err.startswith("cardsmith: error: --only '\\x1b[31mno such': no scenario of ")
    assert err.endswith(", ... (2,000 in all)\n"), err
    path.write_text("game: stichln\nscenarios: []\n", encoding="utf-8")
    code, out, err = cli(["test", str(path), "--only", "a"], capsys)
    assert (code, out, err) == (1, "", f"cardsmith: error: --only 'a': no scenario of {path} has this name; it has "
                                       "no scenarios\n")


# ---------------------------------------------------------------- the kind of file
def test_test_given_a_rule_file_says_so(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    code, out, err = cli(["test", "games/stichln.yaml"], capsys)
    assert code == 1 and err == ""
    assert out == (
        "games/stichln.yaml:4:1: error: this is a rule file (it has the section 'summary'), not a scenario file "
        "[T005]\n"
        "    summary: >\n"
        "    ^\n"
        "    hint: check it with 'cardsmith validate games/stichln.yaml' or play it with 'cardsmith run "
        "games/stichln.yaml'; 'cardsmith test' runs scenario files, which hold 'game:' and 'scenarios:'\n"
        "0 passed, 1 failed\n")


def test_validate_given_a_scenario_file_says_so(capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    code, out, err = cli(["validate", "tests/scenarios/stichln.yaml"], capsys)
    assert code == 1 and err == ""
    assert out == (
        "tests/scenarios/stichln.yaml:6:1: error: this is a scenario file (it has 'scenarios'), not a rule file "
        "[E011]\n"
        "    scenarios:\n"
        "    ^\n"
        "    hint: run its scenarios with 'cardsmith test tests/scenarios/stichln.yaml'; 'cardsmith validate' checks "
        "rule files, such as the one its 'game:' names\n"
        "tests/scenarios/stichln.yaml: 1 problem\n")
    # The commands that play a rule file answer the same, on standard error.
    for argv in (["run", "tests/scenarios/stichln.yaml"], ["list", "tests/scenarios/stichln.yaml"]):
        code, out, err = cli(argv, capsys)
        assert code == 1 and "not a rule file [E011]" in err and "Traceback" not in err + out, argv


def test_test_hints_to_quote_a_flow_key_that_holds_brackets(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """`{won[1]: 0}` in a scenario step: the hint is about the key, though the line is a `- ` step (it used to
    say to quote a `log` step). tests/invalid/yaml_flow_key.yaml shows the same through `validate`."""
    monkeypatch.chdir(tmp_path)
    Path("s.yaml").write_text("game: stichln\nscenarios:\n  - name: s\n    players: 3\n    steps:\n"
                              "      - expect: {hand[0]: 15, deal: 1}\n"
                              "      - expect:\n          eval: {len(won[1]): 0}\n", encoding="utf-8")
    code, out, err = cli(["test", "s.yaml"], capsys)
    assert (code, err) == (1, "")
    assert out == (
        "s.yaml:6:22: error: YAML syntax: expected ',' or '}', but got '[' [E000]\n"
        "          - expect: {hand[0]: 15, deal: 1}\n"
        "                         ^\n"
        "    hint: quote a key that holds brackets in a {...} map: {\"hand[0]\": 15}; written one key a line, it needs "
        "no quotes\n"
        "0 passed, 1 failed\n")
    # Quoted as the hint says (and the second map too), the scenario runs.
    Path("s.yaml").write_text(Path("s.yaml").read_text(encoding="utf-8").replace("{hand[0]: 15", '{"hand[0]": 15')
                              .replace("{len(won[1]): 0}", '{"len(won[1])": 0}'), encoding="utf-8")
    code, out, err = cli(["test", "s.yaml"], capsys)
    assert (code, out, err) == (0, "1 passed, 0 failed\n", "")
    # A value holding brackets keeps the hint about quoting an expression.
    Path("s.yaml").write_text("game: stichln\nscenarios:\n  - name: s\n    players: 3\n    set: {leader: max([1])}\n",
                              encoding="utf-8")
    code, out, err = cli(["test", "s.yaml"], capsys)
    assert "hint: quote a step or expression that holds [ ] { } ':' or '#'" in out, out


def _codes(out: str) -> list[str]:
    return re.findall(r"^\S+:\d+:\d+: error: .*\[([A-Z]\d{3})\]$", out, re.MULTILINE)


@pytest.mark.parametrize("change,codes", [
    # A misspelt section: still a rule file, with its real problems.
    (lambda t: t.replace("deck:", "dekc:"), ["C003", "C003", "S001"]),
    # A stray `scenarios` beside the sections: a rule file with one unknown key.
    (lambda t: t + "scenarios: []\n", ["S001"]),
], ids=["misspelt section", "stray scenarios key"])
def test_a_broken_rule_file_is_still_a_rule_file(change: Any, codes: list[str], tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "solo.yaml"
    path.write_text(change(SOLO), encoding="utf-8")
    code, out, _ = cli(["validate", str(path)], capsys)
    assert code == 1 and sorted(_codes(out)) == sorted(codes), out
    if "scenarios" not in change(""):
        code, out, _ = cli(["test", str(path)], capsys)
        assert code == 1 and _codes(out) == ["T005"], out


def test_a_scenario_file_with_a_stray_key_is_still_a_scenario_file(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """`players` one level too high does not make a scenario file a rule file; `deck` beside `scenarios` makes
    the file neither clearly, and each command reports it as the kind of file it takes."""
    path = tmp_path / "s.yaml"
    path.write_text("game: stichln\nplayers: 3\nscenarios:\n  - name: a\n", encoding="utf-8")
    code, out, _ = cli(["validate", str(path)], capsys)
    assert code == 1 and _codes(out) == ["E011"], out
    code, out, _ = cli(["test", str(path)], capsys)
    assert code == 1 and _codes(out) == ["T001"] and "unknown key 'players' in a scenario file" in out, out
    path.write_text("game: stichln\ndeck: {}\nscenarios:\n  - name: a\n", encoding="utf-8")
    code, out, _ = cli(["validate", str(path)], capsys)
    assert code == 1 and "E011" not in _codes(out) and "unknown key 'scenarios' in the rule file" in out, out
    code, out, _ = cli(["test", str(path)], capsys)
    assert code == 1 and _codes(out) == ["T001"] and "unknown key 'deck' in a scenario file" in out, out


def test_compile_prints_the_generated_python_with_its_rule_lines(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(["compile", "stichln", "--emit-python"], capsys)
    assert code == 0 and err == "", err
    assert "def legal_play(s, out):" in out and "# stichln.yaml:63: play:" in out
    # The annotated text is the module the engine runs: without the comments it is the compiled source.
    plain = "\n".join(x for x in out.splitlines() if not x.lstrip().startswith("# stichln.yaml:"))
    assert plain + "\n" == compiled(str(BUNDLED_DIR / "stichln.yaml")).source
    code, slow, err = cli(["compile", "stichln", "--no-optimize"], capsys)
    assert code == 0 and slow != out


def test_compile_of_a_file_with_errors_reports_them(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: x\n", encoding="utf-8")
    code, out, err = cli(["compile", str(bad)], capsys)
    assert code == 1 and "bad.yaml:1:1: error" in err


def test_bench_profile_names_rule_file_lines(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(["bench", "stichln", "-n", "3", "--seconds", "1", "--profile"], capsys)
    assert code == 0 and err == "", err
    lines = out.splitlines()
    assert lines[1].startswith("profile: ") and "% in the rule file's code" in lines[1], out
    assert any(re.match(r" +\d+\.\d%  stichln\.yaml:\d+: ", x) for x in lines), out
    import signal
    assert signal.getsignal(signal.SIGPROF) in (signal.SIG_DFL, None, signal.SIG_IGN)  # the sampler is gone


def test_profile_counts_a_sample_where_python_knows_no_line() -> None:
    """A sample can stop a generated function at an instruction without a line (`f_lineno` None, Python 3.11):
    it counts for the function's first line instead of failing the report."""
    from types import SimpleNamespace

    from cardsmith.cli.profile import Sampler
    from cardsmith.dsl.pipeline import compile_file
    game = compile_file(ROOT / "games" / "go-fish.yaml").game
    assert game is not None
    first = 1 + game.source.splitlines().index(next(x for x in game.source.splitlines() if x.startswith("def legal_")))
    code = SimpleNamespace(co_filename=game.filename, co_firstlineno=first, co_name="legal_ask")
    sampler = Sampler(game)
    sampler._sample(0, SimpleNamespace(f_code=code, f_lineno=None, f_back=None))  # type: ignore[arg-type]
    assert sampler.lines == {first: 1} and sum(sampler.by_rule_line().values()) == 1
    assert any("go-fish.yaml:158: ask:" in line for line in sampler.report()), sampler.report()


def test_bench_reports_rounds_and_their_median(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(["bench", "stichln", "-n", "3", "--seconds", "0.3", "--rounds", "3"], capsys)
    assert code == 0 and err == "", err
    lines = out.splitlines()
    assert lines[0] == "Stichln, 3 players: 3 rounds of 0.10 s of random playouts, after a warm-up match"
    assert [x.split(":")[0] for x in lines[1:4]] == ["  round 1", "  round 2", "  round 3"]
    assert re.match(r"median: [\d,]+ actions/s \([\d,]+\.\.[\d,]+\), [\d,.]+ games/s \(", lines[4]), lines[4]


# ---------------------------------------------------------------- the command line itself (issue 14)
def _commands() -> dict[str, Any]:
    import argparse

    from cardsmith.cli.main import build_parser
    parser = build_parser()
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return {"": parser, **sub.choices}


def test_version_prints_the_package_version(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib.metadata import version

    from cardsmith.native.build import status
    code, out, err = cli(["--version"], capsys)
    assert (code, out, err) == (0, f"cardsmith {version('cardsmith')}\n{status()}\n", "")
    native = r"native backend: (available here \(.+\)|unavailable here: .+)"
    assert re.fullmatch(r"cardsmith \d+\.\d+\.\d+\n" + native + r"\n", out), out


def test_every_argument_of_every_command_has_help() -> None:
    missing = [f"cardsmith {name} {'/'.join(a.option_strings) or a.dest}".replace("  ", " ")
               for name, parser in _commands().items() for a in parser._actions
               if not (a.help or "").strip()]
    assert not missing, f"without a help text: {missing}"


def test_help_lists_every_command_with_its_summary(capsys: pytest.CaptureFixture[str]) -> None:
    """The description of `cardsmith --help` lists each command once, with a line of summary, in the order
    of a designer's work; the list is checked against the commands the parser has, so none is forgotten."""
    from cardsmith.cli.main import ORDER
    code, out, err = cli(["--help"], capsys)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    start = lines.index("commands:") + 1
    listed = [m.group(1, 2) for line in lines[start:lines.index("", start)]
              if (m := re.match(r"  ([a-z]+) +(\S.*)", line))]
    commands = [name for name in _commands() if name]
    assert [name for name, _ in listed] == list(ORDER) and sorted(ORDER) == sorted(commands)
    assert all(len(summary) > 10 for _, summary in listed)
    for name in commands:  # once: argparse's own list of the commands is not printed as well
        assert len(re.findall(rf"^  {name} ", out, re.MULTILINE)) == 1, name
    assert "--version" in out


def test_limit_flags_are_grouped_after_the_ordinary_flags(capsys: pytest.CaptureFixture[str]) -> None:
    """Every command that reads rule files has the --max-... flags, each with its default, under one heading
    after its own flags, and named once in its usage line."""
    from dataclasses import fields

    from cardsmith.cli.main import LIMITS
    from cardsmith.dsl.limits import Limits
    flags = {Limits.flag(f.name) for f in fields(Limits)}
    with_limits = set()
    for name, parser in _commands().items():
        text = parser.format_help()
        if not name or "--max-actions" not in text:
            continue
        with_limits.add(name)
        lines = text.splitlines()
        heading = lines.index(f"{LIMITS}:")
        before = [x.split()[0].rstrip(",") for x in lines[:heading] if x.startswith("  -")]
        after = [x.split()[0] for x in lines[heading:] if x.startswith("  -")]
        assert before and not flags & set(before), name
        assert set(after) == flags and len(after) == len(flags), name
        usage = text[:text.index("\n\n")]
        assert "[--max-... N]" in usage and not any(f in usage for f in flags), usage
    assert with_limits == {"validate", "explain", "list", "run", "play", "serve", "bots", "test", "bench", "compile",
                           "simulate", "compare"}


@pytest.mark.slow
def test_counts_have_thousands_separators(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Counts the commands print are written one way, 12,345: here the scenarios passed and the problems found."""
    game = tmp_path / "solo.yaml"
    game.write_text(SOLO, encoding="utf-8")
    scenarios = tmp_path / "many.yaml"
    scenarios.write_text("game: solo.yaml\nscenarios:\n" + "".join(f"  - name: s{i}\n" for i in range(1_200)),
                         encoding="utf-8")
    code, out, err = cli(["test", str(scenarios)], capsys)
    assert (code, out, err) == (0, "1,200 passed, 0 failed\n", "")
    broken = tmp_path / "broken.yaml"
    broken.write_text(SOLO.replace("phases:", "define:\n" + "".join(f"  f{i}(): nowhere{i}\n" for i in range(1_001))
                                   + "phases:"), encoding="utf-8")
    code, out, err = cli(["validate", str(broken)], capsys)
    assert code == 1 and out.endswith(f"{broken}: 1,001 problems\n"), out[-200:]


def test_rank_and_suit_hints_list_them_in_the_deck_s_order(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A hint that lists the deck's ranks gives them lowest first, as `ranks:` does (then the special cards),
    not sorted as text ('10' before '7', 'A' before 'J'); suits as `suits:` lists them."""
    monkeypatch.chdir(ROOT)
    code, out, _ = cli(["validate", "tests/invalid/rank_not_in_deck.yaml"], capsys)
    assert code == 1 and "    hint: ranks: 7, 8, 9, 10, J, Q, K, A, Joker\n" in out, out
    path = tmp_path / "suits.yaml"
    path.write_text(SOLO.replace("suits: [a]", "suits: [spades, hearts, diamonds, clubs]").replace(
        "  go: {}", "  go: {when: \"'stars' in suits\"}"), encoding="utf-8")
    code, out, _ = cli(["validate", str(path)], capsys)
    assert code == 1 and "    hint: suits: spades, hearts, diamonds, clubs\n" in out, out


class _Terminal:
    """A stand-in for stderr on a terminal: isatty() is true, and what is written is kept."""

    def __init__(self) -> None:
        self.text = ""

    def write(self, s: str) -> int:
        self.text += s
        return len(s)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return True


@pytest.mark.slow
@pytest.mark.parametrize("fancy", [False, True], ids=["plain", "rich"])
def test_validate_deep_shows_its_progress_on_a_terminal_only(fancy: bool, capsys: pytest.CaptureFixture[str],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    import cardsmith.sim.terminal as terminal
    if fancy:
        pytest.importorskip("rich")
    code, out, err = cli(["validate", "--deep", "stichln"], capsys)
    assert (code, err) == (0, "") and "; deep: all 24 settings," in out  # captured: no progress
    monkeypatch.setattr(terminal, "_rich", lambda: fancy)
    tty = _Terminal()
    monkeypatch.setattr(sys, "stderr", tty)
    code, out, _ = cli(["validate", "--deep", "stichln"], capsys)
    assert code == 0 and "; deep: all 24 settings," in out and "playing" not in out
    if fancy:
        assert "stichln.yaml: playing" in tty.text and "settings/s" in tty.text, tty.text
    else:
        # The line rewritten in place, then wiped: the settings done of all of them.
        assert "\rstichln.yaml: playing 24/24 settings, " in tty.text and tty.text.endswith("\r\033[K"), tty.text
