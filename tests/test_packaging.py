"""The installed distribution is one package, `cardsmith` (issue 10: no top-level `dsl`, `interpreter` or
`games` module in site-packages; `interpreter` is the name of another popular package)."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from conftest import BUNDLED_DIR, GAMES_DIR, ROOT


@pytest.mark.slow
def test_the_wheel_holds_only_the_cardsmith_package(tmp_path: Path) -> None:
    # Built in isolation, as `pip install .` builds: a fresh venv's own setuptools is older than pyproject needs.
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
                        "-w", str(tmp_path), str(ROOT)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    (wheel,) = tmp_path.glob("cardsmith-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    top = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert top == {"cardsmith"}
    # The language, the rule files, the grammar and the editors' schema are inside it, and the command is
    # `cardsmith`.
    for needed in ("cardsmith/__init__.py", "cardsmith/dsl/grammar.lark", "cardsmith/games/stichln.yaml",
                   "cardsmith/engine/state.py", "cardsmith/py.typed", "cardsmith/web/static/table.js",
                   "cardsmith/schemas/rules.schema.json", "cardsmith/schemas/scenarios.schema.json"):
        assert needed in names
    # The templates of `cardsmith new`, a rule file and a scenario file each.
    from cardsmith.cli.new import KINDS
    for kind in KINDS:
        assert f"cardsmith/templates/{kind}.yaml" in names and f"cardsmith/templates/{kind}.scenarios.yaml" in names
    # Every package of the source is in it (pyproject lists them one by one).
    for src, dest in (("interpreter", "cardsmith"), ("dsl", "cardsmith/dsl"), ("games", "cardsmith/games")):
        for init in (ROOT / src).rglob("__init__.py"):
            assert f"{dest}/{init.relative_to(ROOT / src).as_posix()}" in names
    entry = next(n for n in names if n.endswith("entry_points.txt"))
    assert "cardsmith = cardsmith.cli:main" in zipfile.ZipFile(wheel).read(entry).decode()


def test_import_cardsmith_gives_the_api() -> None:
    import cardsmith

    game = cardsmith.load("stichln", players=4)
    state = game.new_initial_state(seed=3)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert sum(state.returns()) == 1.0
    assert isinstance(game, cardsmith.Game) and isinstance(state, cardsmith.State)


def test_the_installed_games_are_this_repository_s_games() -> None:
    # Under `pip install .` (CI) the tool reads the copies in site-packages while many tests read games/:
    # they must be the same files, or those tests check something the tool does not run.
    installed = {p.name: p.read_bytes() for p in BUNDLED_DIR.glob("*.yaml")}
    assert installed == {p.name: p.read_bytes() for p in GAMES_DIR.glob("*.yaml")}
