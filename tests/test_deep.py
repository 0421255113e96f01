"""`cardsmith validate --deep` plays rule files and finds what static checks cannot."""

from __future__ import annotations

import re

import pytest
from cardsmith.cli.main import main
from conftest import GAME_FILES, ROOT

DEEP = ROOT / "tests" / "invalid" / "deep"


def deep(path: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
         *extra: str) -> tuple[int, str]:
    monkeypatch.chdir(ROOT)
    code = main(["validate", "--deep", *extra, path])
    out, _ = capsys.readouterr()
    return code, out


def test_finds_a_stuck_player(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    assert main(["validate", str(DEEP / "stuck.yaml")]) == 0  # statically fine
    capsys.readouterr()
    code, out = deep("tests/invalid/deep/stuck.yaml", capsys, monkeypatch)
    assert code == 1
    assert re.search(r"^tests/invalid/deep/stuck\.yaml:17:3: error: no legal action for P\d in phase 'main' "
                     r"\[R002\]$", out, re.M), out
    assert "with 2 players" in out
    assert "1 problem found by playing" in out


def test_finds_a_match_that_never_ends(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = deep("tests/invalid/deep/endless.yaml", capsys, monkeypatch, "--deep-actions", "2000")
    assert code == 1
    assert re.search(r"^tests/invalid/deep/endless\.yaml:19:3: error: the match passed 2,000 actions without "
                     r"ending: phase 'main' repeats the actions pass(, take)? \[R003\]$", out, re.M), out
    assert "--deep-actions" in out


@pytest.mark.slow
def test_bundled_games_have_no_problems_in_play(capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    paths = [str(p.relative_to(ROOT)) for p in GAME_FILES]
    code, out = deep(paths[-1], capsys, monkeypatch, "--deep-games", "1", *paths[:-1])
    assert code == 0, out
    assert out.count("no problems") == len(paths)


def test_a_rule_error_in_run_is_located_with_its_source_line(tmp_path: object, capsys: pytest.CaptureFixture[str],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    code = main(["run", "tests/invalid/deep/stuck.yaml", "-n", "2", "--seed", "2"])
    out, err = capsys.readouterr()
    assert code == 1
    lines = err.splitlines()
    assert re.match(r"tests/invalid/deep/stuck\.yaml:17:3: rule error: no legal action for P\d in phase 'main' "
                    r"\[R002\]$", lines[0]), err
    assert lines[1].strip() == "main:" and lines[2].strip() == "^"
    assert "the match stopped after" in out
