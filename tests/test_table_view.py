"""The seat view (cardsmith.table.view): what the terminal table, the web page and the wire show a seat.

The permutation property, applied to the view: a state the seat cannot tell from the real one (the engine's
`resample_from_infostate`: the cards hidden from it dealt otherwise, consistently with all it saw) gives
the seat the very same view, log included. Its log is rebuilt by replaying the resampled history, so the
announcements and end-of-deal lines are computed from the other cards.
"""

from __future__ import annotations

import json
import random

import pytest
from cardsmith.engine.state import State
from cardsmith.table.view import TableView, readable, seat_view
from conftest import BUNDLED_DIR, GAME_FILES, GAME_PLAYERS, ROOT, game_for


def load_game(name: str, n: int):
    return game_for(str(BUNDLED_DIR / f"{name}.yaml"), n)

# (game, players): every bundled game at its fewest players, and a commerce game at more.
CASES = sorted([(p.stem, GAME_PLAYERS[str(p)][0]) for p in GAME_FILES] + [("schwimmen", 4)])

def _replayed(g, history):
    # A resampled state's history is an explicit replay: every shuffle's outcomes at once (engine/chance.py).
    t = State.initial(g, None, log=True, lazy=False)
    for _who, a in history:
        t.apply_action(a)
    return t


@pytest.mark.slow
@pytest.mark.parametrize("name,n", CASES, ids=[f"{g}-{n}" for g, n in CASES])
def test_view_does_not_change_when_hidden_cards_do(name, n):
    g = load_game(name, n)
    tv = TableView(g)
    rng = random.Random(f"{name}:{n}")
    checks = 0
    mid = 0  # views compared in the middle of a match
    match = 0
    # Two matches, and more while no view has been compared in the middle of one: a game of a few moves
    # (Leduc poker's) can end both before the 1-in-20 draw picks a moment.
    while match < 2 or (mid == 0 and match < 40):
        s = State.initial(g, match, log=True)
        while not s.terminal:
            if rng.random() < 0.05:
                k = rng.randrange(g.n)
                other = _replayed(g, s.resample_from_infostate(k, rng).full_history())
                assert tv.view(other, k) == tv.view(s, k)
                checks += 1
                mid += 1
            s.apply_action(rng.choice(s.legal_actions()))
        k = match % g.n  # the end, with the result and the whole log
        other = _replayed(g, s.resample_from_infostate(k, rng).full_history())
        assert tv.view(other, k) == tv.view(s, k)
        checks += 1
        match += 1
    assert checks > 2
    assert mid > 0


def test_view_is_plain_json_with_readable_names_and_sorted_hand():
    g = load_game("schwimmen", 3)
    s = State.initial(g, 3, log=True)
    rng = random.Random(0)
    while s.phase == 0 or s.current_player() != 1:
        s.apply_action(rng.choice(s.legal_actions()))
    v = seat_view(s, 1, names=["Ann", "Bob", "Cy"])
    assert json.loads(json.dumps(v)) == v
    assert v["your_turn"] and v["turn"] == 1 and v["players"][1]["name"] == "Bob"
    zones = {(z["name"], z["owner"]): z for z in v["zones"]}
    mine, theirs = zones[("hand", 1)], zones[("hand", 0)]
    assert mine["visible"] and len(mine["cards"]) == 3 and theirs == {
        "name": "hand", "label": "hand", "doc": g.spec.zones[1].doc, "owner": 0, "visible": False, "count": 3,
        "cards": None}
    suits, ranks = list(g.spec.suits), list(g.spec.ranks)
    keys = [(suits.index(c["suit"]), ranks.index(c["rank"])) for c in mine["cards"]]
    assert keys == sorted(keys)
    # The centre keeps its order: it is the order the cards lie in.
    assert [c["name"] for c in zones[("centre", None)]["cards"]] == s.zone("centre")
    # The rule file's labels, and nothing it keeps off the table (`out_now`, `show: false`).
    assert {x["label"] for x in v["variables"]} == {"lives", "knocked", "passes in a row"}  # no hand value yet
    assert v["phase"] == {"name": "turn", "label": "swap or pass", "doc": ""}
    assert [x["value"] for x in v["variables"] if x["name"] == "closer"] == [None]
    for m in v["moves"]:
        assert m["id"] in s.legal_actions() and m["text"] == s.action_to_string(1, m["id"])
    swaps = [m for m in v["moves"] if m["action"] == "swap"]
    assert swaps and [p["name"] for p in swaps[0]["params"]] == ["give", "take"]
    assert all(p["card"]["name"] in [c["name"] for c in mine["cards"]] for p in (m["params"][0] for m in swaps))


def test_others_see_a_secret_action_by_its_public_text_only():
    g = load_game("stichln", 3)
    s = State.initial(g, 1, log=True)
    while s.phase == 0:  # everyone declares a card, face down
        s.apply_action(s.legal_actions()[0])
    declared = [e for e in seat_view(s, 0)["log"] if e["event"] == "action"]
    assert len(declared) == 3
    for e in declared:
        if e["player"] == 0:
            assert "(hidden)" not in e["text"]
        else:
            assert e["text"].endswith("(hidden)")


def test_result_and_deal_ends_are_in_the_log():
    g = load_game("hearts", 4)
    s = State.initial(g, 2, log=True)
    rng = random.Random(2)
    while not s.terminal:
        s.apply_action(rng.choice(s.legal_actions()))
    v = seat_view(s, 2)
    assert v["over"] and v["moves"] == [] and v["winners"] == s.winners and v["returns"] == s.returns()
    # The end of each deal, without the designer's report lines (worked out from every card).
    assert [e for e in v["log"] if e["event"] == "end_deal"] == [
        {"event": "end_deal", "deal": d} for d in range(1, s.deal_no + 1)]
    assert v["log"][-1] == {"event": "over", "winners": s.winners, "returns": s.returns()}


def test_readable():
    assert readable("out_now") == "out now" and readable("hand") == "hand"


LABELLED = """
game: Labels
players: 2
deck: {suits: [red, blue], ranks: ["1", "2", "3"]}
zones:
  stock: {visible: nobody, show: false}
  hand: {per_player: true, visible: owner, label: cards in hand, doc: what you hold}
  pile: {}
variables:
  passes: {type: int, show: false}
  closer_seat: {type: player, initial: none}
  tally: {type: int, per_player: true, label: points, doc: one for each card played}
actions:
  play:
    params: {card: "hand[player]"}
    effect:
      - move card to pile
      - tally[player] += 1
      - log '{} plays, {} and {} were seated; {} is next', player, players, card, left(player)
phases:
  go: {actions: [play], label: playing, doc: each plays a card in turn}
match:
  deal:
    - deal 3 from stock to hand
    - goto go
  over_when: len(pile) == 6
  winners: "[0]"
"""


def test_labels_docs_and_show_reach_the_view_and_the_rules_help(tmp_path):
    from cardsmith.engine.game import Game
    from cardsmith.table.view import table_help
    from conftest import compiled
    path = tmp_path / "labels.yaml"
    path.write_text(LABELLED)
    g = Game(compiled(str(path)), 2)
    s = State.initial(g, 1, log=True)
    s.apply_action(s.legal_actions()[0])
    v = TableView(g, ["Ann", "Bob"]).view(s, 1)
    assert [(z["name"], z["label"], z["doc"]) for z in v["zones"]] == [
        ("hand", "cards in hand", "what you hold"), ("hand", "cards in hand", "what you hold"), ("pile", "pile", "")]
    assert [(x["name"], x["label"]) for x in v["variables"]] == [
        ("closer_seat", "closer seat"), ("tally", "points"), ("tally", "points")]
    assert v["phase"] == {"name": "go", "label": "playing", "doc": "each plays a card in turn"}
    # Only what is drawn at the table is kept off it: the observation still holds it, as `visible` says.
    assert "passes" in s.observation(1)["variables"] and s.observation(1)["zones"]["stock"] == 0
    assert table_help(g.spec) == [
        {"kind": "phase", "label": "playing", "doc": "each plays a card in turn"},
        {"kind": "zone", "label": "cards in hand", "doc": "what you hold"},
        {"kind": "variable", "label": "points", "doc": "one for each card played"}]
    # An announcement names seats as the table does; the rule file's own text keeps P0.
    card = s.log[-1][1].split(" and ")[1].split(" were")[0]
    said = [e["text"] for e in v["log"] if e["event"] == "announce"]
    assert said == [f"Ann plays, Ann, Bob and {card} were seated; Bob is next"]
    assert s.log[-1][1] == f"P0 plays, P0, P1 and {card} were seated; P1 is next"


def test_show_may_depend_on_the_table_options():
    """Thirty-One's centre and passes matter to commerce only, the card just taken to draw and discard only:
    each table draws what its options use, and its rules help lists only those."""
    from cardsmith.engine.game import Game
    from cardsmith.table.view import table_help
    from conftest import compiled
    source = compiled(str(BUNDLED_DIR / "thirty-one.yaml"))
    for exchange, drawn, kept in (("commerce", {"centre", "passes"}, {"taken"}),
                                  ("draw_discard", {"taken"}, {"centre", "passes"})):
        g = Game(source, 3, {"exchange": exchange})
        s = State.initial(g, 2, log=True)
        v = TableView(g).view(s, 0)
        names = {z["name"] for z in v["zones"]} | {x["name"] for x in v["variables"]}
        assert drawn <= names and not kept & names, exchange
        helps = {h["label"] for h in table_help(g.spec, g.shown)}
        assert ("passes in a row" in helps) == (exchange == "commerce")
        assert ("just taken" in helps) == (exchange == "draw_discard")


def test_per_team_rows_only_for_teams_someone_is_on() -> None:
    """A per-team variable has a slot for every team number a seat could take; the table shows the rows of
    the teams players are on (four players in two partnerships: teams 0 and 1, not 2 and 3)."""
    g = game_for(str(ROOT / "tests" / "games" / "partners.yaml"), 4)
    s = State.initial(g, 3)
    v = TableView(g).view(s, 0)
    rows = [(x["name"], x["owner"]) for x in v["variables"] if x["team"]]
    assert rows and {owner for _, owner in rows} == {0, 1}, rows
    assert "score[3]" in g.var_names and ("score", 3) not in rows  # the slot is there, its row is not
