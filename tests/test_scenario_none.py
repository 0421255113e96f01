"""`none` in a scenario's expectations (issue 31, part 8): YAML reads it as the text 'none', where the rules
spell no value `none`. For a value that is not text it means no value, as in the rules; for a text value it
stays text, and a mismatch with no value says to write null."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_scenario_input import TYPES, outcome, scenario


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "types.yaml").write_text(TYPES, encoding="utf-8")
    return tmp_path


def test_none_expects_no_value_for_players_cards_and_lists_of_them(folder: Path) -> None:
    path, _ = scenario(folder, "    steps:\n      - expect: {who: none, best: none, eval: {who: none, "
                               "'first([who, best])': none, '[who, who]': [none, none]}}")
    ok, line, msg = outcome(path)
    assert ok, f"line {line}: {msg}"


def test_null_still_expects_no_value(folder: Path) -> None:
    path, _ = scenario(folder, "    steps:\n      - expect: {who: null, note: null, eval: {best: null}}")
    ok, line, msg = outcome(path)
    assert ok, f"line {line}: {msg}"


@pytest.mark.parametrize(("step", "message"), [
    ("      - expect: {note: none}  # <- HERE",
     "note: expected the text 'none', got no value; write null to expect no value (YAML reads none as text)"),
    ("      - expect: {eval: {note: none}}  # <- HERE",
     "'note': expected the text 'none', got no value; write null to expect no value (YAML reads none as text)"),
    ("      - expect: {who: none, best: 2 of clubs}  # <- HERE", "best: expected '2 of clubs', got None"),
])
def test_none_for_a_text_value_says_what_to_write(folder: Path, step: str, message: str) -> None:
    path, line = scenario(folder, "    steps:\n" + step)
    ok, got_line, msg = outcome(path)
    assert not ok
    assert (got_line, msg) == (line, message)


def test_none_is_text_where_the_value_is_the_text_none(folder: Path) -> None:
    path, _ = scenario(folder, "    set: {note: none}\n    steps:\n      - expect: {note: none, eval: {note: none}}")
    ok, line, msg = outcome(path)
    assert ok, f"line {line}: {msg}"
