"""Every scenario in every tests/scenarios/*.yaml file, each as its own test case."""

from __future__ import annotations

from pathlib import Path

import pytest
from cardsmith.dsl.diagnostics import RuleFileError
from cardsmith.scenario.runner import read, run_file
from conftest import TESTS

SCENARIO_DIR = TESTS / "scenarios"


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
                cases.append(pytest.param(path, name, None, id=f"{path.stem}::{name}"))
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
