"""Every scenario of every tests/scenarios/*.yaml file runs on the Python backend as `cardsmith test` runs it
and, in lockstep, on a native state put at the Python state's position once the setup has dealt (and again at
each later deal a `deals:` setup fixes): after every action the two agree on the whole position, the player to
act, the legal actions (an `illegal:` step is refused natively too), the returns and every player's
observation and its string (`cardsmith.scenario.lockstep`). A scenario the native backend cannot take is
reported as unsupported, never passed: `UNSUPPORTED` lists the expected ones with their reasons.

All slow, and the builds cost most of the time (each player count and set of options a scenario file uses is
a build of its own: 144 for the 390 scenarios of tests/scenarios), so CI runs, of each file, the scenarios of
its most used player count and options (a build a file: 223 scenarios) and the expected unsupported ones (which
build nothing); `NATIVE_SCENARIOS=all` runs every scenario (tests/README.md has the times). Skipped where the
machine has no C++ compiler or no pybind11."""

from __future__ import annotations

import os
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from cardsmith.dsl.yaml_loader import plain
from cardsmith.scenario.reading import Scenario, read
from conftest import TESTS
from test_native_games import UNCOVERED

pytest.importorskip("pybind11")
if shutil.which("g++") is None:
    pytest.skip("no C++ compiler", allow_module_level=True)

from cardsmith.scenario.lockstep import PASSED, UNSUPPORTED, run_lockstep  # noqa: E402

SCENARIO_DIR = TESTS / "scenarios"

# The scenarios the native backend cannot take, and why (the reason `run_lockstep` gives, word for word): none
# since it seats up to 62 players (Crazy Eights' "no eight is ever turned up" is at 11).
UNSUPPORTED_SCENARIOS: dict[tuple[str, str], str] = {}
# Run besides each file's most used build: a table past the ten seats the native backend once stopped at.
ALSO = {("crazy-eights", "no eight is ever turned up")}

EVERY = os.environ.get("NATIVE_SCENARIOS") == "all"


def _build(sc: Scenario) -> tuple[Any, ...]:
    """What a scenario's native game is built for: its player count (None: the fewest) and options."""
    m = sc.node
    options = plain(m.get("options")) if m.get("options") is not None else {}
    return (plain(m.get("players")) if m.get("players") is not None else None,
            tuple(sorted(options.items())) if isinstance(options, dict) else repr(options))


def _cases() -> list[Any]:
    cases = []
    for path in sorted(SCENARIO_DIR.glob("*.yaml")):
        scenarios = read(str(path)).scenarios
        most = Counter(_build(sc) for sc in scenarios).most_common(1)[0][0] if scenarios else None
        for sc in scenarios:
            if EVERY or _build(sc) == most or (path.stem, sc.name) in {*UNSUPPORTED_SCENARIOS, *ALSO}:
                cases.append(pytest.param(path, sc.name, id=f"{path.stem}::{sc.name}", marks=pytest.mark.slow))
    return cases


CASES = _cases()


def test_the_unsupported_name_real_scenarios() -> None:
    names = {(p.values[0].stem, p.values[1]) for p in CASES}
    assert {*UNSUPPORTED_SCENARIOS, *ALSO} <= names


@pytest.mark.parametrize(("path", "name"), CASES)
def test_scenario_on_both_backends(path: Path, name: str) -> None:
    results = run_lockstep(read(str(path)), only=name)
    assert len(results) == 1
    r = results[0]
    reason = UNSUPPORTED_SCENARIOS.get((path.stem, name))
    if reason is not None:
        assert (r.outcome, r.message) == (UNSUPPORTED, reason)
        return
    assert r.outcome == PASSED, f"{r.span}: scenario '{r.name}' {r.outcome}: {r.message}"


@pytest.mark.slow
def test_a_disagreement_fails_the_scenario_saying_where(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check itself: a native state put one move further than the Python state's position is caught at
    once, the part that differs named."""
    import struct

    from cardsmith.native import position as pos
    from cardsmith.scenario import lockstep

    def off_by_one(game: Any, s: Any) -> Any:
        t = pos.native_at(game, s)
        words = pos.position(t)
        assert words is not None
        words[[name for name, _ in pos.SCALARS].index("moves")] += 1
        t.set_position(struct.pack(f"<{len(words)}q", *words), s.moves)
        return t

    monkeypatch.setattr(lockstep, "native_at", off_by_one)
    path = SCENARIO_DIR / "kuhn-poker.yaml"
    sf = read(str(path))
    r = run_lockstep(sf, only=sf.scenarios[0].name)[0]
    assert (r.outcome, r.message) == ("failed", "the native backend disagrees once the setup has dealt on the "
                                      "position: moves: [0] against [1] (Python, native)")


@pytest.mark.slow
def test_the_lockstep_command_counts_each_outcome(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from cardsmith.scenario.lockstep import main

    assert main([str(SCENARIO_DIR / "crazy-eights.yaml"), "--only", "no eight is ever turned up"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "1 passed, 0 failed, 0 unsupported by the native backend"
    (tmp_path / "groups.yaml").write_text(UNCOVERED)
    (tmp_path / "groups.test.yaml").write_text(
        "game: groups.yaml\nscenarios:\n  - name: over at once\n    steps:\n      - expect: {terminal: true}\n")
    assert main([str(tmp_path / "groups.test.yaml")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "0 passed, 0 failed, 1 unsupported by the native backend"
    assert out[0].startswith("UNSUPPORTED  ")
    assert out[0].endswith(": over at once: it does not cover library function group_by yet"), out


@pytest.mark.slow
def test_cardsmith_test_runs_the_scenarios_in_lockstep_with_backend_native(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`cardsmith test --backend native` (or auto) is the lockstep run: the counts with the unsupported ones, each
    listed; where the native backend cannot be built, native is an error and auto runs in Python, saying why."""
    from cardsmith.native import build
    from conftest import cli

    kuhn = str(SCENARIO_DIR / "kuhn-poker.yaml")
    code, out, _ = cli(["test", kuhn], capsys)
    assert code == 0 and out.endswith(" passed, 0 failed\n")
    passed = out.split()[-4]
    code, out, err = cli(["test", kuhn, "--backend", "native"], capsys)
    assert (code, out, err) == (0, f"{passed} passed, 0 failed, 0 unsupported by the native backend\n", "")
    (tmp_path / "groups.yaml").write_text(UNCOVERED)
    (tmp_path / "groups.test.yaml").write_text(
        "game: groups.yaml\nscenarios:\n  - name: over at once\n    steps:\n      - expect: {terminal: true}\n")
    code, out, _ = cli(["test", str(tmp_path / "groups.test.yaml"), "--backend", "auto"], capsys)
    lines = out.splitlines()
    assert (code, lines[-1]) == (0, "0 passed, 0 failed, 1 unsupported by the native backend")
    assert lines[0].startswith("UNSUPPORTED  ") and lines[0].endswith(
        ": over at once: it does not cover library function group_by yet")
    monkeypatch.setattr(build, "missing", lambda: "no C++ compiler (g++) on this machine")
    code, out, err = cli(["test", kuhn, "--backend", "native"], capsys)
    assert (code, out, err) == (1, "", "cardsmith: error: the scenarios cannot run on the native backend: no C++ "
                                       "compiler (g++) on this machine\n")
    code, out, err = cli(["test", kuhn, "--backend", "auto"], capsys)
    assert (code, out, err) == (0, f"{passed} passed, 0 failed\n", "cardsmith: the scenarios run on the Python "
                                "backend alone: no C++ compiler (g++) on this machine\n")
