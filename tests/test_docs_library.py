"""docs/language.md's library tables hold what they say: each example, run on the deal the section
describes (Schwimmen for 4 players, P0 dealing, the four hands given there), gives the result shown.

The rows are turned into one scenario whose `eval:` maps each example to its result, read as YAML, so
players (`P0`), cards (`A of clubs`), lists and true/false compare as scenarios compare them.
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml
from cardsmith.scenario.runner import run_file
from conftest import ROOT

DOC = ROOT / "docs" / "language.md"
HANDS = {
    "hand[0]": ["7 of hearts", "8 of hearts", "9 of hearts"],
    "hand[1]": ["A of clubs", "A of spades", "K of hearts"],
    "hand[2]": ["J of clubs", "J of spades", "J of hearts"],
    "hand[3]": ["10 of diamonds", "K of diamonds", "A of diamonds"],
}


def _rows() -> list[tuple[str, str]]:
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## 8. The library", 1)[1].split("\n## ", 1)[0]
    out = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if len(cells) == 4 and cells[2].startswith("`") and cells[3].startswith("`"):
            out.append((cells[2].strip("`"), cells[3].strip("`")))
    return out


def test_the_library_tables_are_what_the_functions_give(tmp_path: Path) -> None:
    rows = _rows()
    assert len(rows) >= 30
    # The deal the section describes, set up by the scenario (P0 deals; nothing else moves).
    assert "`hand[0]` = 7, 8, 9 of hearts" in DOC.read_text(encoding="utf-8")
    evals = {}
    for example, result in rows:
        evals[example] = yaml.safe_load(result)
    scenario = {"game": str(ROOT / "games" / "schwimmen.yaml"), "scenarios": [{
        "name": "the library table", "players": 4, "dealer": "P0", "set": HANDS,
        "steps": [{"expect": {"eval": evals}}]}]}
    path = tmp_path / "library.yaml"
    path.write_text(yaml.safe_dump(scenario, sort_keys=False, allow_unicode=True))
    results = run_file(str(path))
    assert [r.ok for r in results] == [True], results[0].message


def test_every_library_function_has_a_row() -> None:
    from cardsmith.dsl.library import LIBRARY
    documented = {m for example, _ in _rows() for m in re.findall(r"([a-z_]+)\(", example)}
    text = DOC.read_text(encoding="utf-8").split("## 8. The library", 1)[1].split("\n## ", 1)[0]
    named = set(re.findall(r"^\| `([a-z_]+)\(", text, re.M))
    assert set(LIBRARY) <= named | documented, sorted(set(LIBRARY) - named - documented)
