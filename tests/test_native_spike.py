"""The native backend's prototypes (native/, docs/design/native.md) agree move for move with the Python
backend: both designs are built from the bundled rule files and play random matches in lockstep with
`cardsmith.load`, chance drawn by the test (legal sets, chance outcomes, players to act and returns).
Skipped where the machine has no C++ compiler or no pybind11."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import cardsmith
import pytest

NATIVE = Path(__file__).resolve().parent.parent / "native"
pytest.importorskip("pybind11")
if shutil.which("g++") is None:
    pytest.skip("no C++ compiler", allow_module_level=True)


def _native() -> None:
    """native/ is not a package: its modules import one another by name. Put it on the path only when a test
    here runs, not when the inner loop collects this file."""
    if str(NATIVE) not in sys.path:
        sys.path.insert(0, str(NATIVE))

# split: the chosen design (a game's library with a C ABI, loaded by a binding built once); a and b: the two
# prototypes measured against each other (a's rules are split's, with the binding in the same library).
CASES = [("split", "hearts", 4), ("split", "go-fish", 4), ("a", "hearts", 4), ("b", "go-fish", 4)]


@pytest.mark.slow
@pytest.mark.parametrize(("design", "name", "players"), CASES)
def test_prototype_plays_as_python(design: str, name: str, players: int) -> None:
    _native()
    from difftest import compare, native_game
    matches, nodes, err = compare(cardsmith.load(name, players=players), native_game(design, name, players), 40, 7)
    assert err is None
    assert matches == 40 and nodes > 40 * 50


@pytest.mark.slow
def test_unsupported_construct_is_refused(tmp_path: Path) -> None:
    """A rule file using what the prototypes do not cover is refused by name, not run half understood."""
    from cardsmith.native.build import program
    from cardsmith.native.lower import Unsupported
    rules = tmp_path / "groups.yaml"  # every bundled game is covered now: a construct none of them uses
    rules.write_text("""game: Groups
players: {min: 2, max: 2}
deck: {suits: [clubs], ranks: ['2', '3']}
zones: {stock: {}}
actions: {pass: {}}
phases: {main: {actions: [pass], after: [end deal]}}
match:
  deal: [move pack to stock, goto main]
  over_when: len(group_by(players, p => p)) > 0
  winners: players
""")
    with pytest.raises(Unsupported, match="library function group_by"):
        program(str(rules), 2)
