"""A scenario key whose meaning changed is noted where it is written (issue 31, part 8): `rest:` put the
cards it takes on top of its zone before 2026-11-26 and under its cards since. Where the rules read that
zone's order (a stock drawn from), `cardsmith test` says so at the key; a zone whose order nothing reads
(a hand) gets no note."""

from __future__ import annotations

from pathlib import Path

import pytest
from cardsmith.cli.main import main
from cardsmith.scenario.runner import run_file

SCENARIO = """\
game: crazy-eights
scenarios:
  - name: rest
    players: 3
    dealer: P2
    set:
      hand[0]: [2 of hearts, 7 of clubs, 8 of spades, 9 of clubs, K of diamonds]
      hand[1]: [3 of clubs, 4 of clubs, 5 of clubs, 6 of clubs, 9 of diamonds]
      discard: [7 of hearts]
      REST
    steps:
      - expect: {current: P0}
"""


def _file(tmp_path: Path, rest: str) -> Path:
    path = tmp_path / "s.scenarios.yaml"
    path.write_text(SCENARIO.replace("REST", rest), encoding="utf-8")
    return path


def test_rest_in_a_zone_whose_order_is_read_is_noted(tmp_path: Path) -> None:
    (r,) = run_file(str(_file(tmp_path, "rest: stock")))
    assert r.ok
    (span, note), = r.notes
    assert (span.line, span.col) == (10, 13)
    assert note == ("'rest: stock' puts the cards it takes under the cards the deal gave 'stock' (before "
                    "2026-11-26 it put them on top), so its top cards are the deal's: list them with 'top of' to "
                    "fix them")


def test_rest_in_a_zone_whose_order_nothing_reads_is_not(tmp_path: Path) -> None:
    (r,) = run_file(str(_file(tmp_path, "rest: hand[2]")))
    assert r.ok and r.notes == []


def test_the_note_is_printed_and_the_scenario_still_passes(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                                            ) -> None:
    path = _file(tmp_path, "rest: stock")
    assert main(["test", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"note  {path}:10:13: rest: 'rest: stock' puts the cards it takes under")
    assert out[-1] == "1 passed, 0 failed"
