"""The test harness itself: what the suite's speed and its shared caches rely on."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

GROUPED = '''
import os
import pytest

@pytest.mark.xdist_group("one")
def test_a():
    print("worker", os.environ.get("PYTEST_XDIST_WORKER"))

@pytest.mark.xdist_group("one")
def test_b():
    print("worker", os.environ.get("PYTEST_XDIST_WORKER"))
'''


@pytest.mark.slow
def test_tests_of_one_xdist_group_run_on_one_worker(tmp_path: Path) -> None:
    """pyproject's `--dist loadgroup` keeps a group's tests in one process (tests/test_abi.py's compile of every
    rule file is shared so): pytest 9.2 broke it silently (pytest-dev/pytest-xdist#1386), hence the pin."""
    (tmp_path / "test_grouped.py").write_text(GROUPED)
    p = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "2", "--dist", "loadgroup",
                        "-rP", "-q", "test_grouped.py"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stdout + p.stderr
    workers = {line.split()[1] for line in p.stdout.splitlines() if line.startswith("worker ")}
    assert len(workers) == 1 and workers <= {"gw0", "gw1"}, p.stdout
