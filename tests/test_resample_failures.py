"""A resampler that gives up is seen: the bot counts it, `simulate` reports it, the web table's log says it."""

from __future__ import annotations

import random
import time
from typing import Any

import cardsmith
import pytest
from cardsmith.bots import SeatView, make_bot, parse_bots, resampling
from cardsmith.bots.ismcts import IsmctsBot
from cardsmith.dsl.limits import Limits
from cardsmith.engine.errors import GameError
from cardsmith.sim.runner import Config, Counts, Outcome, Row, match_seed
from cardsmith.sim.summary import Meta, resampling_warnings, summarize
from cardsmith.sim.terminal import sections


def _give_up(self: SeatView, rng: Any, until: float | None = None) -> Any:
    raise GameError("found no state (a test's resampler that always gives up)")


def _decide(monkeypatch: pytest.MonkeyPatch, fail: bool) -> tuple[IsmctsBot, int]:
    game = cardsmith.load("hearts", players=4)
    s = game.new_initial_state(seed=5)
    while s.is_chance_node() or len(s.legal_actions()) < 2:
        s.apply_action(s.legal_actions()[0])
    if fail:
        monkeypatch.setattr(SeatView, "resample_with_work", _give_up)
    bot = make_bot(parse_bots("ismcts(iterations=8, worlds=3)")[0], game, s.current_player(), 1)
    assert isinstance(bot, IsmctsBot)
    a = bot.choose(SeatView(s, s.current_player()))
    assert a in s.legal_actions()
    return bot, a


def test_a_bot_counts_the_worlds_its_resampler_gave_up_on(monkeypatch: pytest.MonkeyPatch) -> None:
    bot, _ = _decide(monkeypatch, True)
    # Each of the 3 worlds it wants fails; with none, the bot chooses at random: one blind move.
    assert (bot.last_failed, bot.last_blind, bot.resample_failures, bot.blind_moves) == (3, True, 3, 1)
    assert resampling(bot) == (3, 1)


def test_a_bot_whose_resampler_works_counts_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    bot, _ = _decide(monkeypatch, False)
    assert (bot.last_failed, bot.last_blind, bot.resample_failures, bot.blind_moves) == (0, False, 0, 0)
    assert bot.last_worlds == 3
    assert resampling(make_bot(parse_bots("random")[0], bot.game, 0, 1)) == (0, 0)


def _summary(rows: list[Row]) -> dict[str, Any]:
    cfg = Config("x.yaml", 2, {}, Limits(), ("ismcts", "random"), True, 7)
    out = Outcome(rows, Counts([3, 3], [3, 0], [3]), ["play", "raise"], ["main"])
    meta = Meta("x.yaml", "X", ("P0", "P1"), {}, "returns", cfg, len(rows), ())
    return summarize(out, meta)


def _row(i: int, failed: tuple[int, int], blind: tuple[int, int]) -> Row:
    return Row(i, match_seed(7, i), 3, 1, (0,), (1.0, 0.0), 0, 6, 0, None, failed, blind)


def test_simulate_s_summary_counts_failures_per_bot_and_warns() -> None:
    # Rotating seats: match 0 has ismcts at seat 0, match 1 at seat 1.
    s = _summary([_row(0, (3, 0), (1, 0)), _row(1, (0, 2), (0, 0))])
    by_bot = {b["bot"]: b for b in s["bots_table"]}
    assert (by_bot["ismcts"]["resample_failures"], by_bot["ismcts"]["moves_without_world"]) == (5, 1)
    assert (by_bot["random"]["resample_failures"], by_bot["random"]["moves_without_world"]) == (0, 0)
    assert s["warnings"][-1] == ("bot ismcts: the resampler gave up on 5 worlds; 1 move chosen at random for "
                                 "want of any world")
    warned = [sec for sec in sections(s) if sec.title == "warnings"][0]
    assert [s["warnings"][-1]] in warned.rows


def test_no_failure_no_warning() -> None:
    s = _summary([_row(0, (0, 0), (0, 0))])
    assert not any("resampler" in w for w in s["warnings"])
    assert resampling_warnings([{"bot": "b", "resample_failures": 1, "moves_without_world": 0}]) == [
        "bot b: the resampler gave up on 1 world; 0 moves chosen at random for want of any world"]


def test_simulate_runs_record_each_seat_s_failures() -> None:
    from cardsmith.engine.bundled import resolve
    from cardsmith.sim.runner import Player
    cfg = Config(str(resolve("kuhn-poker")), 2, {}, Limits(), ("ismcts(iterations=4)", "random"), False, 3)
    row = Player(cfg).play(0, Counts.zero(4, 4))
    assert row.resample_failures == (0, 0) and row.blind_moves == (0, 0)


def test_the_web_log_says_when_a_bot_chose_at_random(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardsmith.web.catalog import load_catalog
    from cardsmith.web.rooms import Room, Seat, resampling_note
    entry = load_catalog(["hearts"])["hearts"]
    game = cardsmith.load("hearts", players=4)
    spec = parse_bots("ismcts(iterations=4, worlds=2)")[0]
    seats = [Seat("Ann", token="x" * 16)] + [Seat(f"Bot {k}", spec=spec, bot=make_bot(spec, game, k, k))
                                              for k in (1, 2, 3)]
    room = Room("r", entry, game, 11, seats, {})
    monkeypatch.setattr(SeatView, "resample_with_work", _give_up)
    rng = random.Random(2)
    while room.bot_to_move() is None:
        room.move(0, rng.choice(room.legal()))
    p = room.bot_to_move()
    assert p is not None
    while len(room.legal()) < 2:  # a forced move needs no world
        room.play_bot(p, room.bot_choice(p))
        p = room.bot_to_move()
        assert p is not None
    before = len(room.view(0)["log"])
    room.play_bot(p, room.bot_choice(p))
    log = room.view(0)["log"]
    text = ("found no arrangement of the hidden cards that fits what it saw, so it chose this move at random "
            "(the resampler gave up 2 times)")
    assert log[before] == {"event": "bot", "player": p, "text": text}
    assert log[before + 1]["event"] == "action" and log[before + 1]["player"] == p
    assert room.view(2)["log"][before] == log[before]  # every seat reads it
    assert resampling_note(seats[p].bot) == text


def test_a_failure_names_the_card_the_constraint_layer_had_no_place_for(monkeypatch: pytest.MonkeyPatch) -> None:
    import cardsmith.engine.resample as resample
    from cardsmith.engine.resample.constraints import Deals

    def run(self: Deals) -> None:
        self.stuck = self.info.game.card_names.index("Q of spades")
        return None

    monkeypatch.setattr(Deals, "run", run)
    monkeypatch.setattr(resample, "MAX_WORK", 0)
    s = cardsmith.load("hearts", players=4).new_initial_state(seed=5)
    with pytest.raises(GameError) as e:
        s.resample_from_infostate(1, 7)
    assert str(e.value) == ("found no state P1 cannot tell from this one in 0 replayed steps; its information rules "
                            "out almost every arrangement of the cards it has not seen (the last deal tried had no "
                            "place for the Q of spades that fits what P1 saw)")


def test_a_bot_keeps_why_its_resampler_last_gave_up(monkeypatch: pytest.MonkeyPatch) -> None:
    bot, _ = _decide(monkeypatch, True)
    assert bot.last_failure == "found no state (a test's resampler that always gives up)"
    monkeypatch.undo()
    fine, _ = _decide(monkeypatch, False)
    assert fine.last_failure is None


def test_a_bot_whose_time_runs_out_in_the_resampler_stops_there_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot with a wall-clock cap (the web table's) gives the resampler its deadline, so a hard state cannot
    hold it ~10 s past the cap; a decision cut short before any world is a random move, said as such, and not
    counted as the resampler giving up."""
    from cardsmith.engine.resample import OutOfTime
    from cardsmith.web.rooms import resampling_note
    given: list[float | None] = []

    def late(self: SeatView, rng: Any, until: float | None = None) -> Any:
        given.append(until)
        raise OutOfTime("stopped at its time limit (a test's resampler)")
    game = cardsmith.load("hearts", players=4)
    s = game.new_initial_state(seed=5)
    while s.is_chance_node() or len(s.legal_actions()) < 2:
        s.apply_action(s.legal_actions()[0])
    monkeypatch.setattr(SeatView, "resample_with_work", late)
    bot = make_bot(parse_bots("ismcts(iterations=8)")[0], game, s.current_player(), 1)
    assert isinstance(bot, IsmctsBot)
    bot.wall_cap = 5.0
    t = time.monotonic()
    assert bot.choose(SeatView(s, s.current_player())) in s.legal_actions()
    assert len(given) == 1 and given[0] is not None and t < given[0] <= time.monotonic() + 5.0
    assert (bot.last_timed_out, bot.last_blind, bot.last_failed, bot.blind_moves) == (True, True, 0, 1)
    assert resampling_note(bot) == ("ran out of its time before it found an arrangement of the hidden cards that "
                                    "fits what it saw, so it chose this move at random")


def test_a_bot_without_a_cap_gives_the_resampler_no_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    """(Seeded play stays a function of the seed alone.)"""
    given: list[float | None] = []
    real = SeatView.resample_with_work

    def spy(self: SeatView, rng: Any, until: float | None = None) -> Any:
        given.append(until)
        return real(self, rng, until)
    monkeypatch.setattr(SeatView, "resample_with_work", spy)
    bot, _ = _decide(monkeypatch, False)
    assert given and all(u is None for u in given)
    assert not bot.last_timed_out


def test_the_resampler_starts_no_search_past_its_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    import cardsmith.engine.resample as resample
    from cardsmith.engine.resample.constraints import Deals
    game = cardsmith.load("hearts", players=4)
    s = game.new_initial_state(seed=3)
    for _ in range(30):
        s.apply_action(s.legal_actions()[0])
    monkeypatch.setattr(Deals, "run", lambda self: None)  # a constraint layer that finds nothing
    with pytest.raises(resample.OutOfTime, match="^stopped at its time limit after 0 replayed steps, before it "
                                                 "found a state P1 cannot tell from this one$"):
        resample.resample_with_work(s, 1, 7, until=time.monotonic())
    found, _ = resample.resample_with_work(s, 1, 7, until=time.monotonic() + 600)
    assert found.information_state_string(1) == s.information_state_string(1)
    assert issubclass(resample.OutOfTime, GameError)
