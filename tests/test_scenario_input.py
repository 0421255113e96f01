"""What a scenario file may write: `set:`/`deals:` values checked against their types, the shape of
every scenario key, `game:` (a .yaml path or a bundled game), and action texts read without walking the
id space (Game.actions_from_string, exact against action_to_string)."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from cardsmith.dsl.diagnostics import RuleFileError
from cardsmith.dsl.pipeline import compile_file, compile_text
from cardsmith.engine.game import Game
from cardsmith.scenario.runner import read, run_file
from conftest import GAME_FILES, ROOT

# Every variable type, special cards whose names hold ", ", and an action of every parameter kind.
TYPES = """\
game: Types
players: {min: 2, max: 3}
deck:
  suits: [clubs, hearts]
  ranks: ['2', '3', '4']
  pack:
    - {}
    - card: "Joker, red"
    - card: Joker
    - card: "red, Joker"
zones:
  stock: {}
  hand: {per_player: true}
variables:
  n: {type: int}
  x: {type: number}
  flag: {type: bool}
  note: {type: text}
  trump: {type: suit}
  low: {type: rank}
  who: {type: player}
  best: {type: card}
  seen: {type: cards}
  order: {type: players}
  marks: {type: numbers}
  lives: {type: int, per_player: true}
  held: {type: cards, per_player: true}
actions:
  swap:
    params: {a: stock, b: stock}
  bid:
    params: {amount: "range(-5, 5)", up: "[true, false]", mode: "['high', 'low']", s: suits, q: players}
  pass: {}
phases:
  main:
    actions: [swap, bid, pass]
    after: [end deal]
match:
  deal:
    - deal 2 from stock to hand
    - goto main
  over_when: true
  winners: players
"""


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "types.yaml").write_text(TYPES, encoding="utf-8")
    return tmp_path


def scenario(folder: Path, body: str, head: str = "game: types.yaml\n") -> tuple[Path, int | None]:
    """A scenario file with one scenario; the line marked `# <- HERE` (if any)."""
    text = head + "scenarios:\n  - name: s\n    dealer: P0\n" + body.strip("\n") + "\n"
    path = folder / "s.scenarios.yaml"
    path.write_text(text, encoding="utf-8")
    marked = [i for i, ln in enumerate(text.splitlines(), 1) if ln.rstrip().endswith("# <- HERE")]
    return path, marked[0] if marked else None


def outcome(path: Path) -> tuple[bool, int, str]:
    results = run_file(str(path))
    assert len(results) == 1
    r = results[0]
    return r.ok, r.span.line, r.message


GOOD_SET = """\
    set:
      n: -3
      x: 2.5
      flag: true
      note: "12"
      trump: hearts
      low: 3
      who: P1
      best: "Joker, red"
      seen: [2 of clubs, Joker]
      order: [P1, 0]
      marks: [1, 2.5]
      lives: [1, 2]
      held[1]: ["red, Joker"]
      hand[0]: [3 of clubs]
    steps:
      - expect: {n: -3, x: 2.5, flag: true, note: "12", trump: hearts, low: "3", who: P1, best: "Joker, red",
                 seen: [2 of clubs, Joker], order: [P1, P0], marks: [1, 2.5], lives: [1, 2],
                 held: [[], ["red, Joker"]], "hand[0]": [3 of clubs]}
"""


def test_every_type_takes_its_values(folder: Path) -> None:
    path, _ = scenario(folder, GOOD_SET)
    ok, line, msg = outcome(path)
    assert ok, f"line {line}: {msg}"


BAD_SET: list[tuple[str, str, str]] = [
    ("a map for a text variable", "note: {a: 1}", "'note' holds text, not a map"),
    ("a list for a text variable", "note: [a, b]", "'note' holds text, not a list"),
    ("a number for a text variable", "note: 5", "'note' holds text, not 5"),
    ("a map for a rank", "low: {a: 1}", "'low' holds a rank of the deck (2, 3, 4), not a map"),
    ("a rank the deck lacks", "low: 'A'", "'low' holds a rank of the deck (2, 3, 4), not 'A'"),
    ("a nested list for a number", "n: [[1]]", "'n' holds a whole number, not a list"),
    ("a decimal for a whole number", "n: 2.5", "'n' holds a whole number, not 2.5"),
    ("true for a number", "x: true", "'x' holds a number, not True"),
    ("text for true/false", "flag: 'yes'", "'flag' holds true or false, not 'yes'"),
    ("a suit the deck lacks", "trump: spades", "'trump' holds a suit of the deck (clubs, hearts), not 'spades'"),
    ("a map for a player", "who: {p: 1}", "a player is written P0 to P1, not a map"),
    ("true for a player", "who: true", "'True' is not a player of this game"),
    ("a list for a card", "best: [2 of clubs]", "a card is written by its name, like 'A of clubs', not a list"),
    ("a nested list of cards", "seen: [[2 of clubs]]", "a card is written by its name, like 'A of clubs', not a "
     "list"),
    ("one card for a list of cards", "seen: 2 of clubs", "'seen' holds a list of cards, not '2 of clubs'"),
    ("a map for a list of numbers", "marks: {a: 1}", "'marks' holds a list of numbers, not a map"),
    ("text in a list of numbers", "marks: [1, two]", "'marks' holds a number, not 'two'"),
    ("a map in a per-player list", "lives: [1, {a: 1}]", "'lives' holds a whole number, not a map"),
    ("a list for one player's value", "lives[0]: [1]", "'lives[0]' holds a whole number, not a list"),
    ("a map in a zone's cards", "hand[0]: [{a: 1}]", "a card is written by its name, like 'A of clubs', not a map"),
    ("a list in a zone's cards", "hand[0]: [[3 of clubs]]", "a card is written by its name, like 'A of clubs', "
     "not a list"),
    ("a map for rest", "rest: {a: 1}", "'rest' names one zone, not a map"),
    ("a map for the dealer", "dealer: {a: 1}", "a player is written P0 to P1, not a map"),
]


@pytest.mark.parametrize(("entry", "message"), [(c[1], c[2]) for c in BAD_SET], ids=[c[0] for c in BAD_SET])
def test_a_value_of_the_wrong_type_is_a_located_failure(folder: Path, entry: str, message: str) -> None:
    path, line = scenario(folder, f"    set:\n      {entry}  # <- HERE\n")
    ok, got_line, msg = outcome(path)
    assert not ok
    assert got_line == line, msg
    assert msg.startswith(message), msg


# Expectations that take a list of players, cards or action texts, written as one value: a list of one.
ONE_FOR_A_LIST = """\
    set:
      seen: [2 of clubs]
      order: [P1]
      marks: [2]
      held[1]: ["red, Joker"]
      hand[0]: [3 of clubs]
    steps:
      - expect:
          seen: 2 of clubs
          order: P1
          marks: 2
          held[1]: "red, Joker"
          hand[0]: 3 of clubs
          legal_includes: pass
          legal_excludes: swap 3 of clubs, 2 of clubs
          out: []
          eval:
            seen: 2 of clubs
            "[p for p in players if p == 1]": P1
      - P0: pass
      - expect: {terminal: true, winners: P1}
"""


def test_one_value_for_a_list_is_a_list_of_one(folder: Path) -> None:
    (folder / "types.yaml").write_text(TYPES.replace("winners: players", "winners: \"[left(dealer)]\""),
                                       encoding="utf-8")
    path, _ = scenario(folder, ONE_FOR_A_LIST)
    ok, line, msg = outcome(path)
    assert ok, f"line {line}: {msg}"


ONE_FOR_A_LIST_FAILS: list[tuple[str, str, str]] = [
    ("another winner", "      - P0: pass\n      - expect: {winners: P0}  # <- HERE",
     "winners: expected ['P0'], got ['P1']"),
    ("winners before the end", "      - expect: {winners: P1}  # <- HERE", "winners: expected ['P1'], got None"),
    ("a player not out", "      - expect: {out: P1}  # <- HERE", "players out: expected ['P1'], got []"),
    ("another card", "      - expect: {seen: 3 of clubs}  # <- HERE",
     "seen: expected ['3 of clubs'], got ['2 of clubs']"),
    ("another card in a zone", "      - expect: {\"hand[0]\": 2 of clubs}  # <- HERE",
     "cards in hand[0]: expected ['2 of clubs'], got ['3 of clubs']"),
    ("a legal action excluded", "      - expect: {legal_excludes: pass}  # <- HERE", "['pass'] should not be legal"),
    ("true for an action text", "      - expect: {legal_excludes: true}  # <- HERE",
     "'legal_excludes' takes a list of action texts (or one text)"),
    ("a list-typed eval", "      - expect: {eval: {seen: 3 of clubs}}  # <- HERE",
     "'seen': expected ['3 of clubs'], got ['2 of clubs']"),
]


@pytest.mark.parametrize(("step", "message"), [(c[1], c[2]) for c in ONE_FOR_A_LIST_FAILS],
                         ids=[c[0] for c in ONE_FOR_A_LIST_FAILS])
def test_one_value_for_a_list_still_fails_on_a_mismatch(folder: Path, step: str, message: str) -> None:
    (folder / "types.yaml").write_text(TYPES.replace("winners: players", "winners: \"[left(dealer)]\""),
                                       encoding="utf-8")
    path, line = scenario(folder, "    set:\n      seen: [2 of clubs]\n      hand[0]: [3 of clubs]\n"
                                  "    steps:\n" + step)
    ok, got_line, msg = outcome(path)
    assert not ok
    assert (got_line, msg) == (line, message), msg


SHAPES: list[tuple[str, str, str]] = [
    ("deals is a map", "    deals: {a: 1}  # <- HERE", "'deals' must be a list of maps like 'set'"),
    ("deals holds a number", "    deals:\n      - 1  # <- HERE", "each item of 'deals' maps zones and variables"),
    ("set is a list", "    set: [1]  # <- HERE", "'set' must map zones and variables to values"),
    ("an option given a list", "    options: {a: [1, 2]}  # <- HERE", "option 'a' takes one value, not a list"),
    ("players given a map", "    players: {a: 1}  # <- HERE", "'players' must be a whole number, not a map"),
    ("seed given a list", "    seed: [1]  # <- HERE", "'seed' must be a whole number of 0 or more, not a list"),
    ("an action given as a map", "    steps:\n      - P0: {a: 1}  # <- HERE", "an action is written as the text"),
    ("an action read as true", "    steps:\n      - P0: yes  # <- HERE", "an action is written as the text"),
    ("an illegal action given as a list", "    steps:\n      - illegal: {P0: [pass]}  # <- HERE",
     "an action is written as the text"),
    ("an illegal action cut at a comma", "    steps:\n      - illegal: {P0: play a, b}  # <- HERE",
     "'illegal' takes one  P<n>: action; in {...} a comma ends the text, so YAML read 'play a' and then 'b' as "
     "another key: quote the action, P0: \"play a, b\""),
    ("a step cut at a comma", "    steps:\n      - {P0: play a, b}  # <- HERE",
     "each step is one of  P<n>: action,  illegal: {P<n>: action},  expect: {...},  random: N; in {...} a comma "
     "ends the text, so YAML read 'play a' and then 'b' as another key: quote the action, P0: \"play a, b\""),
]


@pytest.mark.parametrize(("body", "message"), [(c[1], c[2]) for c in SHAPES], ids=[c[0] for c in SHAPES])
def test_a_key_of_the_wrong_shape_is_a_located_failure(folder: Path, body: str, message: str) -> None:
    path, line = scenario(folder, body)
    ok, got_line, msg = outcome(path)
    assert not ok
    assert (got_line, msg[:len(message)]) == (line, message), msg


def test_deals_are_checked_before_the_match_starts(folder: Path) -> None:
    """A malformed map for a later deal fails at once, even if the match never gets there."""
    path, line = scenario(folder, "    deals:\n      - {n: 1}\n      - [n]  # <- HERE\n")
    ok, got_line, msg = outcome(path)
    assert not ok and got_line == line, msg


FILE_PROBLEMS: list[tuple[str, str, str]] = [
    ("an unknown top-level key", "game: types.yaml\nscenario: []  # <- HERE\n", "[T001]"),
    ("game is a map", "game: {file: types.yaml}  # <- HERE\n", "[T002]"),
    ("game names no bundled game", "game: types  # <- HERE\n", "no bundled game named 'types' [T002]"),
    ("a name without a text", "game: types.yaml\nscenarios:\n  - name: [a]  # <- HERE\n", "[T003]"),
]


@pytest.mark.parametrize(("text", "tail"), [(c[1], c[2]) for c in FILE_PROBLEMS], ids=[c[0] for c in FILE_PROBLEMS])
def test_scenario_file_problems_are_located(folder: Path, text: str, tail: str) -> None:
    if "scenarios:" not in text:
        text += "scenarios: []\n"
    path = folder / "f.scenarios.yaml"
    path.write_text(text, encoding="utf-8")
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if ln.endswith("# <- HERE"))
    with pytest.raises(RuleFileError) as e:
        read(str(path))
    first = e.value.render().splitlines()[0]
    assert first.startswith(f"{path}:{line}:") and first.endswith(tail), first


def test_game_is_relative_to_the_scenario_file_not_the_working_directory(folder: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    sub = folder / "sub"
    sub.mkdir()
    (sub / "s.yaml").write_text("game: types.yaml\nscenarios:\n  - name: s\n", encoding="utf-8")
    monkeypatch.chdir(folder)  # types.yaml is here, but the scenario file is in sub/
    with pytest.raises(RuleFileError) as e:
        run_file(str(sub / "s.yaml"))
    assert "cannot read file" in e.value.render() and "[E008]" in e.value.render()
    (sub / "s.yaml").write_text("game: ../types.yaml\nscenarios:\n  - name: s\n", encoding="utf-8")
    assert [r.ok for r in run_file(str(sub / "s.yaml"))] == [True]


def test_a_named_rule_file_shows_its_own_problems(folder: Path) -> None:
    """A file recognised as a rule file is compiled as usual: its problems are shown, with its lines."""
    (folder / "types.yaml").write_text(TYPES.replace("deal 2 from stock to hand", "deal 2 from stok to hand"),
                                       encoding="utf-8")
    path, _ = scenario(folder, "")
    with pytest.raises(RuleFileError) as e:
        run_file(str(path))
    text = e.value.render()
    assert re.search(r"types\.yaml:\d+:\d+: error: .*stok", text) and "deal 2 from stok to hand" in text, text


# ---------------------------------------------------------------- action texts
@pytest.mark.parametrize("path", GAME_FILES, ids=[p.stem for p in GAME_FILES])
def test_action_texts_read_back_exactly(path: Path) -> None:
    """For every id at the fewest and most players: the ids printing as a text are exactly those found
    from it."""
    compiled = compile_file(path).game
    assert compiled is not None
    for n in sorted({compiled.spec.min_players, compiled.spec.max_players}):
        g = Game(compiled, n)
        by_text: dict[str, list[int]] = {}
        for a in range(g.num_distinct_actions):
            by_text.setdefault(g.action_to_string(None, a), []).append(a)
        for text, ids in by_text.items():
            assert g.actions_from_string(text) == ids, text
            assert g.action_from_string(text) == ids[0]


def test_action_texts_of_every_parameter_kind(folder: Path) -> None:
    loaded = compile_text(TYPES, str(folder / "types.yaml"))
    assert loaded.game is not None
    g = Game(loaded.game, 3)
    for a in range(g.num_distinct_actions):
        assert a in g.actions_from_string(g.action_to_string(None, a))
    assert g.action_to_string(None, g.action_from_string("bid -5, no up, low, hearts, P2") or 0) == \
        "bid -5, no up, low, hearts, P2"
    # Card names holding ", ": a text that reads two ways gives both ids.
    both = g.actions_from_string("swap Joker, red, Joker")
    assert len(both) == 2 and all(g.action_to_string(None, a) == "swap Joker, red, Joker" for a in both)
    for text in ("bid -0, up, low, hearts, P2", "bid 05, up, low, hearts, P2", "bid 5, up, low, hearts, P2",
                 "bid 1, up, low, hearts, P3", "bid 1, up, low, hearts", "bid 1, up, low, hearts, P2, P2",
                 "bid 1, maybe, low, hearts, P2", "swap Joker", "pass ", "pas", "", "bid", "swap Joker, red"):
        assert g.actions_from_string(text) == [], text
    assert g.actions_from_string(None) == []  # type: ignore[arg-type]


def test_action_texts_are_found_without_walking_a_huge_id_space() -> None:
    compiled = compile_file(ROOT / "tests" / "attacks_scenarios" / "rules" / "big_actions.yaml").game
    assert compiled is not None
    g = Game(compiled, 2)
    assert g.num_distinct_actions == 10**8
    t0 = time.process_time()
    assert g.action_to_string(None, g.action_from_string("choose 9999, 9999") or 0) == "choose 9999, 9999"
    assert g.action_from_string("choose 1234, 5678") == 1234 + 5678 * 10_000
    for text in ("choose 10000, 1", "choose 1, -1", "fly away", "choose " + ", ".join(["9999"] * 100_000),
                 "choose 1" + "0" * 100_000 + ", 1", "choose " + ", " * 200_000):
        assert g.action_from_string(text) is None
    assert time.process_time() - t0 < 1.0
