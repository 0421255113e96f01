"""docs/language.md's "YAML traps" box says what each trap does today: every claim is checked here.

Each trap is written into the game of language.md section 1 (the `full` block tests/test_docs.py merges
`mini` excerpts into) the way the box shows it; the diagnostic it gives, or the names and values it
builds when it passes unnoticed, are what the box says. The fixes are a `mini` block right after the box,
checked by tests/test_docs.py. If a trap becomes an error, change the box and this test together (the words
YAML rewrites became S035 in lists of names and constants: issue 15).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from cardsmith.dsl.pipeline import compile_text
from cardsmith.engine.game import Game
from cardsmith.scenario.runner import run_file
from conftest import ROOT

DOC = ROOT / "docs" / "language.md"
# The box as one line of words (its lines joined, without the quote marks).
BOX = " ".join(re.sub(r"\n>", " ", DOC.read_text(encoding="utf-8").split("> **YAML traps.**", 1)[1]
                      .split("\n\n", 1)[0]).split())
BASE = DOC.read_text(encoding="utf-8").split("## 1. A whole game on one page", 1)[1] \
    .split("<!-- check: full -->\n```yaml\n", 1)[1].split("```", 1)[0]


def game_with(old: str, new: str) -> str:
    assert old in BASE, old
    return BASE.replace(old, new, 1)


def problems(text: str) -> list[tuple[str, str]]:
    loaded = compile_text(text, "trap.yaml")
    return [(d.code, d.message) for d in loaded.diagnostics]


def names(text: str) -> Game:
    loaded = compile_text(text, "trap.yaml")
    assert loaded.ok and loaded.game is not None, [d.message for d in loaded.diagnostics]
    return Game(loaded.game, 2)


LOG = "      - log '{} wins with {}', played_by(best), best"
TABLE = "  table: {}"
POINTS = "  points: {type: int, per_player: true}"
RANKS = "  ranks: ['7', '8', '9', '10', J, Q, K, A]"

REFUSED = [
    ("colon in a log step", LOG, "      - log 'winner: {}', played_by(best)", "E000",
     "YAML syntax: this quote is never closed"),
    ("colon in another step", LOG, "      - log winner: x", "S009",
     "a step in 'end' must be a statement, an 'if' or a 'for'"),
    ("hash in a log step", LOG, "      - log 'trick #{} won', deal_number", "P002",
     "unexpected character \"'\" in statement"),
    ("leading bracket", POINTS, POINTS + "\n  seen: {type: players, initial: [dealer]}", "S007",
     "initial value of 'seen' must be an expression (a text value)"),
    ("leading quote", "  strength(c): c.rank_index * 10 + c.suit_index",
     "  strength(c): c.rank_index * 10 + c.suit_index\n  hearts(c): 'hearts' == c.suit", "E000", None),
    ("leading star", TABLE, "  table:\n    label: *the table*", "E000", "YAML syntax: found undefined alias 'the'"),
    ("leading bang", TABLE, "  table:\n    label: !new", "E001", "YAML tag '!new' is not allowed in a rule file"),
    ("leading at", TABLE, "  table:\n    label: @home", "E000",
     "YAML syntax: found character '@' that cannot start any token"),
    ("leading percent", TABLE, "  table:\n    label: '%x'\n    doc: %x", "E000",
     "YAML syntax: found character '%' that cannot start any token"),
    ("leading ampersand", TABLE, "  table:\n    label: & x", "E000", None),
    ("comma in a flow map", TABLE, "  table: {visible: nobody, doc: the spare hand, face down}", "S001",
     "unknown key 'face down' in zone 'table'"),
    ("bracket in a flow map value", POINTS, "  points: {type: int, per_player: true, initial: max([1, 2])}", "E000",
     "YAML syntax: expected ',' or '}', but got '['"),
    ("no as a label", "  play:\n", "  play:\n    label: no\n", "S005", "'label' must be text"),
    ("a rank compared with a number", "  strength(c): c.rank_index * 10 + c.suit_index",
     "  strength(c): if c.rank == 10 then 1 else 0", "C027", "cannot compare rank with int"),
]


@pytest.mark.parametrize("what,old,new,code,message", REFUSED, ids=[r[0] for r in REFUSED])
def test_a_trap_that_is_refused(what: str, old: str, new: str, code: str, message: str | None) -> None:
    found = problems(game_with(old, new))
    assert found and found[0][0] == code, found
    if message is not None:
        assert found[0][1] == message, found
    assert f"`{code}`" in BOX, f"the box does not name {code} ({what})"


MISREAD = [
    ("choice values", "players: {min: 2, max: 6}", "players: {min: 2, max: 6}\noptions:\n"
     "  answer: {type: choice, values: [yes, no, maybe], default: maybe}", "yes", "values of option 'answer'"),
    ("a choice's default", "players: {min: 2, max: 6}", "players: {min: 2, max: 6}\noptions:\n"
     "  answer: {type: choice, values: ['yes', 'no', maybe], default: no}", "no", "the default of option 'answer'"),
    ("suits", "  suits: [diamonds, hearts, spades, clubs]", "  suits: [on, OFF, spades, clubs]", "on", "'suits'"),
    ("a constant list", POINTS, POINTS.replace("  points:", "  modes_unused:") + "\nconstants:\n"
     "  modes: [high, null, low]", "null", "constant 'modes'"),
    ("tilde", "  suits: [diamonds, hearts, spades, clubs]", "  suits: [diamonds, hearts, spades, ~]", "~", "'suits'"),
    ("octal ranks", RANKS, "  ranks: [07, 08, 09, 10, J, Q, K, A]", "07", "'ranks'"),
    ("underscore and trailing zero", RANKS, "  ranks: [7, 8, 9, 1_0, 10.50, J, Q, K, A]", "1_0", "'ranks'"),
]


@pytest.mark.parametrize("what,old,new,word,where", MISREAD, ids=[r[0] for r in MISREAD])
def test_words_yaml_rewrites_are_refused_in_names_and_constants(what: str, old: str, new: str, word: str,
                                                                where: str) -> None:
    found = problems(game_with(old, new))
    assert found and found[0][0] == "S035", found
    assert found[0][1].startswith(f"in {where}, YAML reads {word} as "), found
    assert "`S035`" in BOX and f"`{word}`" in BOX, f"the box does not name {word} ({what})"


def test_the_quoted_words_are_names() -> None:
    text = game_with("players: {min: 2, max: 6}", "players: {min: 2, max: 6}\noptions:\n"
                     "  answer: {type: choice, values: ['yes', 'no', maybe], default: 'no'}")
    g = names(text.replace("  suits: [diamonds, hearts, spades, clubs]", "  suits: ['on', 'off', spades, clubs]"))
    assert g.spec.options[0].values == ["yes", "no", "maybe"]
    assert g.spec.suits == ["on", "off", "spades", "clubs"]
    assert "7 of off" in g.card_names
    assert "values: ['yes', 'no', maybe]" in BOX


def test_dates_and_non_numbers_stay_text() -> None:
    g = names(game_with(RANKS, "  ranks: [7, 08, 09, 10, 2026-11-26, Q, K, A]"))
    assert g.spec.ranks[:5] == ["7", "08", "09", "10", "2026-11-26"]
    assert "Dates such as `2026-11-26` stay text, and `08`" in BOX


@pytest.mark.parametrize("initial", ["null", "~"])
def test_null_and_tilde_are_none(initial: str) -> None:
    g = names(game_with(POINTS, POINTS + f"\n  leader: {{type: player, initial: {initial}}}"))
    s = g.new_initial_state(seed=1)
    assert s.var("leader") is None
    assert "`initial: null` and `initial: ~` are `none`" in BOX


def test_a_scenario_step_no_is_not_an_action(tmp_path: Path) -> None:
    (tmp_path / "g.yaml").write_text(BASE, encoding="utf-8")
    (tmp_path / "s.yaml").write_text("game: g.yaml\nscenarios:\n  - name: n\n    players: 2\n    steps:\n"
                                     "      - P1: no\n", encoding="utf-8")
    [result] = run_file(str(tmp_path / "s.yaml"))
    assert not result.ok and "an action is written as the text" in result.message and "not False" in result.message
    assert "`- P0: no` is not an action" in BOX


def test_ranks_that_look_like_numbers() -> None:
    assert names(game_with(RANKS, "  ranks: [7, 8, 9, 10, J, Q, K, A]")).spec.ranks == \
        ["7", "8", "9", "10", "J", "Q", "K", "A"]
    assert "`ranks: [7, 8, 9, 10]` are the ranks `'7'` to `'10'`" in BOX


def test_the_boxes_are_short() -> None:
    """Both boxes together: two minutes to read, at about 230 words a minute."""
    other = DOC.read_text(encoding="utf-8").split("> **Other traps**", 1)[1].split("\n\n", 1)[0]
    assert len(BOX.split()) + len(other.split()) <= 460, (len(BOX.split()), len(other.split()))


def test_the_other_traps_box_is_short_and_its_links_lead_somewhere() -> None:
    """docs/language.md's "Other traps" box (issue 15): read in two minutes, each trap linked to its section."""
    text = DOC.read_text(encoding="utf-8")
    box = text.split("> **Other traps**", 1)[1].split("\n\n", 1)[0]
    assert len(box.split()) <= 300, len(box.split())
    anchors = set(re.findall(r"\]\(#([a-z0-9-]+)\)", box))
    headings = {re.sub(r"[^a-z0-9 -]", "", h.lower()).replace(" ", "-") for h in re.findall(r"^#+ (.+)$", text, re.M)}
    assert anchors and anchors <= headings, anchors - headings
    for words in ("`log`", "`report`", "`when`", "memoized", "`set:`", "number parameter"):
        assert words in box, words
