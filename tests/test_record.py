"""Match records (cardsmith.table.record) and `cardsmith replay`: a recorded match replays exactly, and a record
that is damaged, tampered with or made under other rules is refused in one line."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest
from cardsmith.engine.state import State
from cardsmith.table.record import BadRecord, MatchRecord, open_record, read_record, record_match, replay, steps
from conftest import BUNDLED_DIR, cli, game_for


def _played(name: str, n: int, seed: int, moves: int | None = None) -> State:
    g = game_for(str(BUNDLED_DIR / f"{name}.yaml"), n)
    s = State.initial(g, seed, log=True)
    rng = random.Random(seed)
    while not s.terminal and (moves is None or s.moves < moves):
        s.apply_action(rng.choice(s.legal_actions()))
    return s


@pytest.mark.parametrize("name,n", [("schwimmen", 3), ("thirty-one", 2), ("hearts", 4), ("kuhn-poker", 2),
                                    ("stichln", 3)])
def test_a_record_replays_the_match_exactly(name, n):
    s = _played(name, n, 11)
    rec = MatchRecord.from_json(json.loads(json.dumps(record_match(s, name, ["random"] * n).to_json())))
    assert rec.result == {"winners": s.winners, "returns": s.returns()}
    assert rec.decisions == s.moves
    # Every chance outcome is written out, though the match was played from a seed.
    assert any(who == -1 for who, _ in rec.history)
    g = open_record(rec)
    t = replay(rec, g)
    assert t.log == s.log and t.history() == s.history() and t.returns() == s.returns()
    # Without the seed, the recorded outcomes alone give the same match.
    t2 = replay(MatchRecord.from_json({**rec.to_json(), "seed": None}), g)
    assert t2.log == s.log


def test_steps_go_one_decision_at_a_time_and_upto_stops():
    s = _played("schwimmen", 2, 5)
    rec = record_match(s, "schwimmen", ["random", "random"])
    g = open_record(rec)
    seen = list(steps(rec, g))
    assert [x.moves for x in seen] == list(range(s.moves + 1))
    assert replay(rec, g, upto=3).moves == 3


def test_an_unfinished_match_records_no_result_and_resumes():
    s = _played("schwimmen", 3, 8, moves=10)
    rec = record_match(s, "schwimmen", ["Ann", "random", "random"])
    assert rec.result is None and rec.seats[0] == "Ann"
    t = replay(rec, open_record(rec))
    assert t.moves == 10 and t.observation(0) == s.observation(0)
    # The replayed state goes on from the same seed as the real one.
    a = t.legal_actions()[0]
    s.apply_action(a)
    t.apply_action(a)
    assert t.log == s.log


@pytest.mark.parametrize("change,message", [
    ({"format": "x"}, 'not a cardsmith match record (its "format" is not "cardsmith-match")'),
    ({"version": 9}, "a match record of version 9; this cardsmith reads version 1"),
    ({"players": 0}, 'the record\'s "players" must be a whole number 1 to 64'),
    ({"history": [[0, "a"]]}, 'the record\'s "history" must be a list of [seat, action] pairs of whole numbers '
                              "(seat -1 for chance)"),
    ({"seats": ["a"]}, 'the record\'s "seats" must be a list of texts, one per seat'),
    ({"sha256": "00"}, 'the record\'s "sha256" must be 64 hexadecimal digits'),
    ({"bots": [True]}, 'the record\'s "bots" must be null or a list of true/false, one per seat'),
    ({"bots": [1, 0]}, 'the record\'s "bots" must be null or a list of true/false, one per seat'),
])
def test_a_malformed_record_is_refused_in_one_line(change, message):
    rec = record_match(_played("schwimmen", 2, 1, moves=4), "schwimmen", ["random", "random"]).to_json()
    with pytest.raises(BadRecord) as e:
        MatchRecord.from_json({**rec, **change})
    assert str(e.value) == message


def test_an_illegal_or_foreign_step_is_refused():
    s = _played("schwimmen", 2, 1)
    rec = record_match(s, "schwimmen", ["random", "random"])
    g = open_record(rec)
    hist = list(rec.history)
    first = next(i for i, (who, _) in enumerate(hist) if who >= 0)
    who, a = hist[first]
    wrong = [x for x in range(g.num_actions) if x not in State.initial(g, rec.seed).legal_actions()][0]
    bad = MatchRecord.from_json({**rec.to_json(), "history": [list(x) for x in hist[:first]] + [[who, wrong]]})
    message = rf"^entry {first + 1} of the history: action {wrong} is not legal for P{who} here$"
    with pytest.raises(BadRecord, match=message):
        replay(bad, g)
    other = MatchRecord.from_json({**rec.to_json(), "history": [list(x) for x in hist[:first]] + [[1 - who, a]]})
    with pytest.raises(BadRecord, match=rf"^entry {first + 1} of the history: P{1 - who} does not act here$"):
        replay(other, g)
    # A chance outcome the seed would not deal: the seed deals otherwise (a new shuffle, a tampered record).
    tampered = [list(x) for x in hist]
    c = next(i for i, (w, _) in enumerate(hist) if w == -1)
    tampered[c][1] = (tampered[c][1] + 1) % g.num_cards
    with pytest.raises(BadRecord, match="the seed deals differently"):
        replay(MatchRecord.from_json({**rec.to_json(), "history": tampered}), g)


def test_a_changed_rule_file_is_refused_unless_asked(tmp_path):
    path = tmp_path / "kuhn.yaml"
    shutil.copy(BUNDLED_DIR / "kuhn-poker.yaml", path)
    g = game_for(str(path), 2)
    s = State.initial(g, 3, log=True)
    while not s.terminal:
        s.apply_action(s.legal_actions()[0])
    rec = record_match(s, str(path), ["first", "first"])
    path.write_text(path.read_text() + "\n# a comment\n")
    with pytest.raises(BadRecord, match="has changed since the match was recorded"):
        open_record(rec)
    assert replay(rec, open_record(rec, changed_ok=True)).returns() == s.returns()


def test_run_record_and_replay_print_the_same_match(tmp_path, capsys):
    rec = tmp_path / "m.json"
    code, out, err = cli(["run", "schwimmen", "-n", "3", "--seed", "4", "--record", str(rec)], capsys)
    assert code == 0 and err == ""
    code, again, err = cli(["replay", str(rec)], capsys)
    assert code == 0 and err == ""
    ran, replayed = out.splitlines(), again.splitlines()
    assert replayed[0] == ran[0] and replayed[1] == "seats: P0 random (bot), P1 random (bot), P2 random (bot)"
    assert replayed[2:-1] == ran[1:-1]
    assert replayed[-1] == ran[-1][:-1] + "; replayed from the record: the result is the one recorded)"
    assert read_record(rec).seed == 4 and read_record(rec).bots == [True, True, True]


def test_run_json_is_a_record_that_replay_reads(tmp_path, capsys):
    code, out, _ = cli(["run", "hearts", "-n", "4", "--seed", "2", "--json"], capsys)
    data = json.loads(out)
    assert data["format"] == "cardsmith-match" and data["seed"] == 2 and len(data["sha256"]) == 64
    assert data["winners"] == data["result"]["winners"] and data["events"][0]["event"] == "deal"
    path = tmp_path / "h.json"
    path.write_text(out)
    code, again, err = cli(["replay", str(path), "--json"], capsys)
    replayed = json.loads(again)
    assert code == 0 and replayed["events"] == data["events"] and replayed["returns"] == data["returns"]


@pytest.mark.parametrize("text,message", [
    (None, "cannot read it: No such file or directory"),
    ("{", "not a match record: the text is not JSON"),
    ('{"format": "cardsmith-state"}', 'not a cardsmith match record (its "format" is not "cardsmith-match")'),
])
def test_replay_refuses_a_bad_file_in_one_line(tmp_path, capsys, text, message):
    path = tmp_path / "bad.json"
    if text is not None:
        path.write_text(text)
    code, out, err = cli(["replay", str(path)], capsys)
    assert code == 2 and out == "" and err == f"cardsmith: error: {path}: {message}\n"


def test_replay_upto_stops_early(tmp_path, capsys):
    rec = tmp_path / "m.json"
    cli(["run", "kuhn-poker", "--seed", "1", "--record", str(rec)], capsys)
    code, out, _ = cli(["replay", str(rec), "--upto", "1"], capsys)
    assert code == 0 and out.splitlines()[-1] == "(1 action, 1 deal; replayed from the record: stopped after 1 " \
                                                  "action, as asked)"


def test_records_are_documented():
    doc = (Path(__file__).resolve().parent.parent / "docs" / "records.md").read_text()
    for key in MatchRecord.from_json(record_match(_played("kuhn-poker", 2, 1), "kuhn-poker",
                                                  ["random", "random"]).to_json()).to_json():
        assert f"`{key}`" in doc


def test_replay_seat_looks_through_the_match_as_that_seat_saw_it(tmp_path, capsys, monkeypatch):
    import io
    import sys
    rec = tmp_path / "m.json"
    cli(["run", "schwimmen", "-n", "2", "--seed", "3", "--record", str(rec)], capsys)
    monkeypatch.setattr(sys, "stdin", io.StringIO("n\nn\nq\n"))
    code, out, err = cli(["replay", str(rec), "--seat", "1", "--plain"], capsys)
    assert code == 0 and err == ""
    assert out.splitlines()[0] == "Schwimmen: a recorded match of 54 moves, as P1 (seat 1) saw it."
    assert "History: the start of the match" in out and "History: after move 2 of 54" in out
    # The other seat's hand is face down: the table draws the seat's view (tests/test_table_view.py).
    assert "3 face down" in out and "Your hand:" in out
    code, out, err = cli(["replay", str(rec), "--seat", "2"], capsys)
    assert code == 2 and err == "cardsmith: error: argument --seat: the match has seats 0 to 1\n"


def test_a_record_says_which_seats_bots_played_and_an_older_one_need_not():
    s = _played("schwimmen", 2, 1, moves=4)
    rec = record_match(s, "schwimmen", ["random", "Ann"], [True, False])
    assert MatchRecord.from_json(rec.to_json()).bots == [True, False]
    older = rec.to_json()
    del older["bots"]
    assert MatchRecord.from_json(older).bots is None
