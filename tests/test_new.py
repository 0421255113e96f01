"""`cardsmith new NAME --template KIND`: every template writes a rule file that passes `validate --deep --strict`
and a scenario file that passes `cardsmith test`, from a fresh folder, at the template's whole range of players
and at each end of it; bad names, kinds, counts and existing files are refused in one line."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from cardsmith.cli.new import KINDS, render
from cardsmith.dsl.pipeline import compile_text
from conftest import ROOT, cli
from test_cli import assert_one_line_error

CASES = [pytest.param(kind, n, id=f"{kind}-{n or 'range'}") for kind, k in KINDS.items()
         for n in (None, k.min_players, k.max_players)]


@pytest.mark.parametrize("kind,players", CASES)
def test_a_template_validates_deep_and_strict_and_its_scenarios_pass(kind: str, players: int | None, tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str],
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    extra = ["--players", str(players)] if players is not None else []
    code, out, err = cli(["new", "my-game", "--template", kind, *extra], capsys)
    assert (code, err) == (0, ""), err
    assert sorted(os.listdir(tmp_path)) == ["my-game.scenarios.yaml", "my-game.yaml"]
    k = KINDS[kind]
    count = f"{players} players" if players is not None else f"{k.min_players}-{k.max_players} players"
    assert out.splitlines()[0] == (f"wrote my-game.yaml ({k.what} for {count}) and its scenarios, "
                                   "my-game.scenarios.yaml; next:")
    code, out, err = cli(["validate", "--deep", "--strict", "my-game.yaml"], capsys)
    assert (code, err) == (0, ""), out
    assert out.startswith(f"my-game.yaml: ok: my-game, {count}, ") and out.endswith(", no problems\n"), out
    assert "warning" not in out
    scenarios = yaml.safe_load(Path("my-game.scenarios.yaml").read_text(encoding="utf-8"))["scenarios"]
    assert len(scenarios) >= 4
    code, out, err = cli(["test", "my-game.scenarios.yaml", "-v"], capsys)
    assert (code, err) == (0, ""), out
    assert out.splitlines()[-1] == f"{len(scenarios)} passed, 0 failed"


@pytest.mark.parametrize("kind", list(KINDS))
def test_a_template_is_written_for_the_table(kind: str) -> None:
    """Every placeholder is filled; the rule file names the game NAME, says what it is, and gives the tables a
    label and a sentence of help for each phase and help for some of what it shows."""
    rules, scenarios = render(kind, "Some_Game")
    assert "$" not in rules + scenarios
    loaded = compile_text(rules, "Some_Game.yaml", warnings=True)
    assert loaded.ok and loaded.game is not None and not loaded.diagnostics
    sp = loaded.game.spec
    assert sp.name == "Some_Game" and sp.summary
    assert all(ph.label and ph.doc for ph in sp.phases), kind
    assert any(z.doc for z in sp.zones) or any(v.doc for v in sp.variables), kind
    assert yaml.safe_load(scenarios)["game"] == "Some_Game.yaml"
    # The rule file starts with its rules in words (the rulebook quotes them), then where it came from.
    assert rules.startswith(f"# Some_Game: {KINDS[kind].what}. ")
    assert f"\n\n# Started from cardsmith's \"{kind}\" template (cardsmith new --template {kind})." in rules


def test_new_from_another_folder_with_the_installed_package(tmp_path: Path) -> None:
    """As a designer runs it: `python -m cardsmith` from a folder outside the repository, the templates read
    from the installed package, and --dir made when missing."""
    r = subprocess.run([sys.executable, "-m", "cardsmith", "new", "fish", "-t", "fishing", "--dir", "games/mine"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert (r.returncode, r.stderr) == (0, "")
    assert r.stdout.splitlines() == [
        "wrote games/mine/fish.yaml (a fishing game for 2-6 players) and its scenarios, "
        "games/mine/fish.scenarios.yaml; next:",
        "  cardsmith validate --deep games/mine/fish.yaml",
        "  cardsmith test games/mine/fish.scenarios.yaml",
        "  cardsmith run games/mine/fish.yaml --players 3",
        "  cardsmith play games/mine/fish.yaml --players 3"]
    t = subprocess.run([sys.executable, "-m", "cardsmith", "test", "games/mine/fish.scenarios.yaml"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert t.returncode == 0 and t.stdout.endswith(" passed, 0 failed\n"), t.stdout + t.stderr


@pytest.mark.parametrize("existing", ["my-game.yaml", "my-game.scenarios.yaml"])
def test_an_existing_file_is_never_overwritten(existing: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path(existing).write_text("mine\n", encoding="utf-8")
    code, out, err = cli(["new", "my-game"], capsys)
    assert_one_line_error(code, out, err)
    assert err == (f"cardsmith: error: {existing} already exists: cardsmith new writes only new files (choose "
                   "another NAME or --dir)\n")
    assert os.listdir(tmp_path) == [existing] and Path(existing).read_text(encoding="utf-8") == "mine\n"


@pytest.mark.parametrize("argv,message", [
    (["new", "my game"], "NAME must be a letter, then letters, digits, '-' or '_' (at most 40 in all), not "
                         "'my game'"),
    (["new", "7up"], "NAME must be a letter, then letters, digits, '-' or '_' (at most 40 in all), not '7up'"),
    (["new", "mine.yaml"], "NAME must be a letter, then letters, digits, '-' or '_' (at most 40 in all), not "
                           "'mine.yaml' (the files are named NAME.yaml and NAME.scenarios.yaml)"),
    (["new", "x" * 41], "NAME must be a letter, then letters, digits, '-' or '_' (at most 40 in all), not "
                        f"'{'x' * 41}'"),
    (["new", "mine", "--template", "poker"], "argument --template/-t: invalid choice: 'poker' (choose from 'trick', "
                                             "'shedding', 'exchange', 'rummy', 'fishing')"),
    (["new", "mine", "-t", "rummy", "--players", "5"], "argument --players: the rummy template is for 2 to 4 "
                                                       "players, not 5"),
    (["new", "mine", "--players", "2"], "argument --players: the trick template is for 3 to 6 players, not 2"),
])
def test_bad_names_kinds_and_counts_are_refused_in_one_line(argv: list[str], message: str, tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = cli(argv, capsys)
    assert_one_line_error(code, out, err)
    assert code == 2 and err == f"cardsmith: error: {message} (see 'cardsmith new --help')\n"
    assert os.listdir(tmp_path) == []


def test_dir_that_is_a_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("notes").write_text("", encoding="utf-8")
    code, out, err = cli(["new", "mine", "--dir", "notes"], capsys)
    assert_one_line_error(code, out, err)
    assert err == "cardsmith: error: argument --dir: 'notes' is not a folder (see 'cardsmith new --help')\n"


def test_the_tutorial_shows_a_template_as_it_is_written() -> None:
    """docs/tutorial.md, section 9: its example files are what `cardsmith new switch --template shedding`
    writes, the rule file is shown whole as it is, and its table gives every template with its players."""
    rules, scenarios = render("shedding", "switch")
    examples = ROOT / "docs" / "examples"
    assert (examples / "switch.yaml").read_text(encoding="utf-8") == rules
    assert (examples / "switch.scenarios.yaml").read_text(encoding="utf-8") == scenarios
    tutorial = (ROOT / "docs" / "tutorial.md").read_text(encoding="utf-8")
    assert f"<!-- check: full -->\n```yaml\n{rules}```\n" in tutorial
    for kind, k in KINDS.items():
        assert re.search(rf"^\| `{kind}`.* \| {k.min_players}-{k.max_players} \|$", tutorial, re.MULTILINE), kind


@pytest.mark.parametrize("kind", list(KINDS))
def test_a_template_validates_against_the_editors_schema(kind: str) -> None:
    """A designer edits the files in an editor with cardsmith's schema (docs/editors.md): no key is underlined."""
    pytest.importorskip("jsonschema")
    from test_schema import RULES, SCENARIOS, data, problems, tree
    rules, scenarios = render(kind, "mine", KINDS[kind].min_players)
    assert not problems(RULES, data(tree("mine.yaml", rules)))
    assert not problems(SCENARIOS, data(tree("mine.scenarios.yaml", scenarios)))
