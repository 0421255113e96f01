"""Every scenario of every tests/scenarios/*.yaml file runs on the Python backend as `cardsmith test` runs it
and, in lockstep, on a native state put at the Python state's position once the setup has dealt (and again at
each later deal a `deals:` setup fixes): after every action the two agree on the whole position, the player to
act, the legal actions (an `illegal:` step is refused natively too), the returns and every player's
observation and its string (`cardsmith.scenario.lockstep`). A scenario the native backend cannot take is
reported as unsupported, never passed: `UNSUPPORTED` lists the expected ones with their reasons.

All slow: each player count and set of options a scenario file uses is a build of its own (about 60 for the
bundled files), and the inner loop builds nothing. Skipped where the machine has no C++ compiler or no
pybind11."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from cardsmith.scenario.reading import read
from conftest import TESTS

pytest.importorskip("pybind11")
if shutil.which("g++") is None:
    pytest.skip("no C++ compiler", allow_module_level=True)

from cardsmith.scenario.lockstep import PASSED, UNSUPPORTED, run_lockstep  # noqa: E402

SCENARIO_DIR = TESTS / "scenarios"

# The scenarios the native backend cannot take, and why (the reason `run_lockstep` gives, word for word).
UNSUPPORTED_SCENARIOS = {
    ("crazy-eights", "no eight is ever turned up"): "it does not cover more than 10 players yet",
}

def _cases() -> list[Any]:
    cases = []
    for path in sorted(SCENARIO_DIR.glob("*.yaml")):
        for sc in read(str(path)).scenarios:
            cases.append(pytest.param(path, sc.name, id=f"{path.stem}::{sc.name}", marks=pytest.mark.slow))
    return cases


CASES = _cases()


def test_the_unsupported_name_real_scenarios() -> None:
    names = {(p.values[0].stem, p.values[1]) for p in CASES}
    assert set(UNSUPPORTED_SCENARIOS) <= names


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
