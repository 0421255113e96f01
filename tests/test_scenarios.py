"""Every scenario in every tests/scenarios/*.yaml file, each as its own test case."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from cardsmith.dsl.diagnostics import RuleFileError
from cardsmith.scenario.runner import read, run_file
from conftest import GAME_FILES, QUICK_GAMES, TESTS

SCENARIO_DIR = TESTS / "scenarios"


def _marks(path: Path) -> Any:
    """A bundled game's scenarios are slow unless the game is one of conftest.QUICK_GAMES; the scenarios of
    the test games (features no bundled game shows) stay in the inner loop."""
    bundled = {p.stem for p in GAME_FILES}
    return pytest.mark.slow if path.stem in bundled and path.stem not in QUICK_GAMES else ()


def _collect() -> list[object]:
    cases: list[object] = []
    for path in sorted(SCENARIO_DIR.glob("*.yaml")):
        try:
            sf = read(str(path))
        except Exception as e:  # a broken scenario file is one failing case
            msg = e.render() if isinstance(e, RuleFileError) else str(e)
            cases.append(pytest.param(path, None, msg, id=f"{path.stem}::<unreadable>"))
            continue
        if not sf.scenarios:
            cases.append(pytest.param(path, None, "the file has no scenarios", id=f"{path.stem}::<empty>"))
        names = [sc.name for sc in sf.scenarios]
        for name in names:
            if names.count(name) > 1:
                cases.append(pytest.param(path, name, f"two scenarios are named '{name}'",
                                          id=f"{path.stem}::{name}::<duplicate>"))
            else:
                cases.append(pytest.param(path, name, None, id=f"{path.stem}::{name}", marks=_marks(path)))
    return cases


CASES = _collect()


def test_there_are_scenarios() -> None:
    assert CASES, f"no scenario files in {SCENARIO_DIR}"


@pytest.mark.parametrize(("path", "name", "problem"), CASES)
def test_scenario(path: Path, name: str | None, problem: str | None) -> None:
    if problem is not None:
        pytest.fail(f"{path}: {problem}", pytrace=False)
    try:
        results = run_file(str(path), only=name)
    except RuleFileError as e:
        pytest.fail(e.render(), pytrace=False)
    assert len(results) == 1, f"{path}: expected one scenario named '{name}', ran {len(results)}"
    r = results[0]
    if not r.ok:
        pytest.fail(f"{r.span}: scenario '{r.name}' failed: {r.message}", pytrace=False)
