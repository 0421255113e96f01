"""Records from anywhere (issue 32, part 6, "Smaller"): a seedless record cut short is looked through without a
traceback (terminal and web), a save file's bots are capped as a browser's are, and the server's records
name a rule file without the server's own path."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest
from cardsmith.cli.main import main
from cardsmith.table.record import open_record, read_record
from conftest import ROOT
from forkserver import run_cli

TIMEOUT = 60.0


def run(args: list[str], stdin: str = "") -> tuple[int, str, str]:
    """`cardsmith ARGS` in a process of its own (forked from the tests' zygote, tests/forkserver.py)."""
    p = run_cli(args, cwd=ROOT, input=stdin.encode(), timeout=TIMEOUT,
                env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def cut_short(tmp_path: Path, game: str, keep: int) -> tuple[Path, dict[str, Any]]:
    """A record of `game` without its seed, its history cut after `keep` entries."""
    whole = tmp_path / "whole.json"
    assert main(["run", game, "--seed", "3", "--record", str(whole)]) == 0
    data = json.loads(whole.read_text())
    data.update(seed=None, result=None, history=data["history"][:keep])
    path = tmp_path / "cut.json"
    path.write_text(json.dumps(data))
    return path, data


@pytest.mark.slow
def test_replay_seat_of_a_seedless_record_cut_short_has_no_traceback(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    path, _ = cut_short(tmp_path, "cribbage", 0)
    capsys.readouterr()
    code, out, err = run(["replay", str(path), "--seat", "0", "--plain"])
    assert (code, err) == (0, ""), err
    assert "Cribbage: a recorded match of 0 moves, as P0 (seat 0) saw it." in out


def test_the_web_replay_of_a_seedless_record_cut_short_is_no_500(tmp_path: Path) -> None:
    pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from cardsmith.web import create_app
    from cardsmith.web.catalog import load_catalog

    _, data = cut_short(tmp_path, "cribbage", 0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(create_app(catalog=load_catalog(["cribbage"]), bot_delay=0.0)) as c:
            r = c.post("/api/replay", json={"record": data, "step": 0, "seat": 0})
    assert r.status_code == 200, r.text
    assert r.json()["steps"] == 0


# ------------------------------------------------------------------ play --resume
def saved_with_bot(tmp_path: Path, spec: str) -> Path:
    path = tmp_path / "m.json"
    code, _, err = run(["play", "kuhn-poker", "--seed", "4", "--save", str(path)], "q\n")
    assert (code, err) == (0, "")
    data = json.loads(path.read_text())
    data["seats"][1] = spec
    path.write_text(json.dumps(data))
    return path


@pytest.mark.slow
def test_resume_caps_the_bots_of_a_save_file(tmp_path: Path) -> None:
    path = saved_with_bot(tmp_path, "ismcts(seconds=3600, iterations=50000, c=0.5)")
    code, out, err = run(["play", "--resume", str(path)], "q\n")
    assert (code, err) == (0, ""), err
    assert "Kuhn poker: you are P0 (seat 0), against ismcts(seconds=10, iterations=20000, c=0.5).\n" in out
    assert ("ismcts(seconds=3600.0, iterations=50000, c=0.5) (seat 1) plays as ismcts(seconds=10, "
            "iterations=20000, c=0.5): a save file's bots are capped as at the web table\n") in out


@pytest.mark.slow
def test_resume_of_a_bot_spec_that_is_no_bot_is_one_error_line(tmp_path: Path) -> None:
    path = saved_with_bot(tmp_path, "ismcts(bogus=1)")
    code, out, err = run(["play", "--resume", str(path)], "q\n")
    assert (code, out) == (1, "")
    assert err == (f"cardsmith: error: {path}: the bot at seat 1: ismcts has no parameter 'bogus'; its parameters: "
                   "by, c, carry, carry_below, iterations, rollout, seconds, worlds\n")


# ------------------------------------------------------------------ the server's records
@pytest.mark.slow
def test_the_server_s_records_hold_no_path_of_its_own(tmp_path: Path) -> None:
    pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from cardsmith.web import create_app
    from cardsmith.web.catalog import load_catalog

    served = tmp_path / "secret-folder" / "my-kuhn.yaml"
    served.parent.mkdir()
    shutil.copy(ROOT / "games" / "kuhn-poker.yaml", served)
    catalog = load_catalog([str(served), "schwimmen"])
    got = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(create_app(catalog=catalog, bot_delay=0.0)) as c:
            for key, n in (("my-kuhn", 2), ("schwimmen", 2)):
                d = c.post("/api/rooms", json={"game": key, "players": n,
                                               "seats": [{"name": "Ann"}, {"bot": "random"}]}).json()
                r = c.post(f"/api/rooms/{d['room']}/record", json={"tokens": [d["seats"][0]["token"]]})
                assert r.status_code == 200
                assert str(tmp_path) not in r.text and "/games/" not in r.text
                got[key] = r.json()
    assert got["my-kuhn"]["source"] == "my-kuhn.yaml" and got["schwimmen"]["source"] == "schwimmen"
    # Replayed where the file is, by its name; records of before, with a path, still load.
    path = tmp_path / "secret-folder" / "rec.json"
    path.write_text(json.dumps(got["my-kuhn"]))
    old = dict(got["my-kuhn"], source=str(served))
    (tmp_path / "old.json").write_text(json.dumps(old))
    assert open_record(read_record(tmp_path / "old.json")).n == 2
    p = subprocess.run([sys.executable, "-m", "cardsmith", "replay", "rec.json"], cwd=served.parent,
                       capture_output=True, timeout=TIMEOUT, env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
    assert p.returncode == 0, p.stderr
