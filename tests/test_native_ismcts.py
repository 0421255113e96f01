"""ISMCTS's decision natively (issue 33 stage C; docs/design/native.md, "Stage C"): on a native state the bot's
whole search (its worlds drawn by the native resampler and made native states, its iterations on them) runs in
the binding (native/ismcts.py, mc_search.h). Each test makes a decision both ways on the same state with the same
generator, natively and with the native search turned off (`bots.view.NATIVE_SEARCH`: the bot's own loop, on the
Python worlds the native resampler gives, which tests/test_native_backend.py checks against the Python backend),
and asks for everything the bot keeps to be the same: the action, the root's statistics to the bit, the worlds
searched and failed, the last failure's message, the worlds kept for the next decision and the generator after.

They build the binding and the games' libraries (g++ and pybind11; skipped without them), so they are slow."""

from __future__ import annotations

import random
from typing import Any

import cardsmith
import pytest
from cardsmith.bots import view as V
from cardsmith.bots.spec import make_bot
from cardsmith.bots.view import SeatView
from cardsmith.engine import resample as R
from cardsmith.engine.history import entries
from cardsmith.native import build
from cardsmith.native import ismcts as mc
from test_native_resample import native, play_on

pytestmark = [pytest.mark.skipif(build.missing() is not None, reason=f"{build.missing()}"), pytest.mark.slow]


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """[native decisions made, decisions the native search declined]: a test checks the native path ran."""
    seen = [0, 0]
    real = mc.decide

    def decide(*args: Any, **kw: Any) -> Any:
        out = real(*args, **kw)
        seen[out is None] += 1
        return out
    monkeypatch.setattr(mc, "decide", decide)
    return seen


def kept(bot: Any) -> list[Any]:
    return [entries(t.trail) for t in bot._kept]


def decision(bot: Any, s: Any, natively: bool) -> tuple[Any, ...]:
    """The bot's decision on a copy of s and all it keeps of it."""
    was = V.NATIVE_SEARCH
    V.NATIVE_SEARCH = natively
    try:
        a = bot.choose(SeatView(s.clone(), s.current_player()))
    finally:
        V.NATIVE_SEARCH = was
    stats = [(k, c.visits, c.total, c.avail) for k, c in bot.last.items()]
    return (a, stats, bot.last_worlds, bot.last_failed, bot.last_failure, bot.last_blind, bot.resample_failures,
            bot._dear, kept(bot), bot.rng.getstate())


def states(g: Any, count: int, seed: int, most: int = 80) -> list[Any]:
    """Seeded native states of random matches where the player to act has a choice."""
    rnd = random.Random(seed)
    out = []
    while len(out) < count:
        s = g.new_initial_state(rnd.randrange(10**6))
        play_on(s, rnd, rnd.randrange(0, most))
        if not s.is_terminal() and len(s.legal_actions()) > 1:
            out.append(s)
    return out


def same_both_ways(g: Any, spec: str, ss: list[Any]) -> int:
    """One bot per seat each way, deciding on every state in turn (so a bot's kept worlds go on to its next
    decision on both sides alike); the decisions that carried worlds from the one before."""
    bots: dict[bool, dict[int, Any]] = {True: {}, False: {}}
    carrying = 0
    for i, s in enumerate(ss):
        p = s.current_player()
        bot = bots[True].setdefault(p, make_bot(spec, g, p, 11 + p))
        carrying += bool(bot._dear and bot._kept)
        got = decision(bot, s, True)
        want = decision(bots[False].setdefault(p, make_bot(spec, g, p, 11 + p)), s, False)
        assert got == want, f"state {i}"
    return carrying


GAMES = [("hearts", 4, 6), ("kuhn-poker", 2, 12), ("leduc-poker", 2, 8), ("go-fish", 2, 6), ("go-fish", 3, 4),
         ("schwimmen", 4, 4), ("gin-rummy", 2, 3), ("cribbage", 2, 4), ("oh-hell", 4, 4), ("euchre", 4, 4),
         ("crazy-eights", 3, 4), ("thirty-one", 3, 3), ("whist", 4, 3)]


@pytest.mark.parametrize("name,players,count", GAMES)
def test_a_native_decision_is_the_bots_own(name: str, players: int, count: int, counted: list[int]) -> None:
    g = native(name, players)
    same_both_ways(g, "ismcts(iterations=60)", states(g, count, seed=players))
    assert counted == [count, 0], counted  # (every decision ran natively)


@pytest.mark.parametrize("spec", ["ismcts(iterations=40, worlds=5)", "ismcts(iterations=40, rollout=first, c=2.5)",
                                  "ismcts(iterations=300)"])
def test_the_settings_are_the_bots_own(spec: str, counted: list[int]) -> None:
    """A fixed number of worlds, the `first` rollout, another exploration constant, more iterations."""
    for name, players in (("hearts", 4), ("leduc-poker", 2)):  # (Go Fish's `first` rollout never ends a match)
        g = native(name, players)
        same_both_ways(g, spec, states(g, 4, seed=7))
    assert counted == [8, 0]


def test_resampler_failures_and_kept_worlds_are_the_bots_own(monkeypatch: pytest.MonkeyPatch,
                                                              counted: list[int]) -> None:
    """Within smaller resampler bounds many late Go Fish states are not found: the same failures, the same message
    (with the constraint layer's stuck card), the same blind moves; a decision with few fresh worlds keeps its
    last ones, which the next decision carries forward (in the bot's own loop, on the same worlds)."""
    monkeypatch.setattr(R, "MAX_WORK", 1500)
    monkeypatch.setattr(R, "DEALS", 300)
    monkeypatch.setattr(R, "SCOUT", 200)
    g = native("go-fish", 2)
    ss = states(g, 10, seed=3, most=140)
    same_both_ways(g, "ismcts(iterations=30)", ss)
    assert counted == [len(ss), 0]
    bot = make_bot("ismcts(iterations=30)", g, 0, 1)
    failed = dear = blind = 0
    for s in ss:
        bot.seat = s.current_player()
        decision(bot, s, True)
        failed += bot.last_failed
        dear += bot._dear
        blind += bot.last_blind
    assert failed and dear and "cannot tell from this one" in str(bot.last_failure)


def test_worlds_kept_natively_are_carried_by_the_bot(counted: list[int]) -> None:
    """At 60 iterations a Hearts decision affords few fresh worlds: the native search keeps its last worlds (their
    steps, `Kept`) and the bot's next decision carries them forward natively, as its own loop would."""
    g = native("hearts", 4)
    ss = states(g, 6, seed=4)
    carrying = same_both_ways(g, "ismcts(iterations=60)", ss)
    assert counted == [len(ss), 0] and carrying
    # Natively and not in turn (the bot's own loop carrying what a native decision kept, and the other way),
    # against the bot's own loop throughout.
    a, b = make_bot("ismcts(iterations=60)", g, 0, 3), make_bot("ismcts(iterations=60)", g, 0, 3)
    for i, s in enumerate(ss):
        a.seat = b.seat = s.current_player()
        assert decision(a, s, i % 2 == 0) == decision(b, s, False), f"state {i}"


def test_where_it_declines_the_bot_searches_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    """None, the generator untouched: an unseeded state, a rollout it does not play, a generator of another class,
    and the action limit reached within an iteration (the bot's own loop then raises the rule's error, or not)."""
    g = native("hearts", 4)
    s = states(g, 1, seed=5)[0]
    p = s.current_player()
    plan = dict(iterations=20, deadline=None, stop_at=None, c=0.7, worlds=0, rollout="random", scale=(0.0, 26.0),
                failed_work=R.MAX_WORK, hints=[], carry=32, keep=0, keep_below=8)
    r = random.Random(3)
    before = r.getstate()
    assert mc.decide(s, p, r, **plan) is not None and r.getstate() != before
    unseeded = g.new_initial_state()
    while unseeded.is_chance_node():
        unseeded.apply_action(unseeded.chance_outcomes()[0][0])
    for state, rng, rollout in ((unseeded, random.Random(3), "random"), (s, random.Random(3), "greedy"),
                                (s, random.SystemRandom(), "random")):
        kept_state = rng.getstate() if type(rng) is random.Random else None
        assert mc.decide(state, state.current_player(), rng, **{**plan, "rollout": rollout}) is None
        assert kept_state is None or rng.getstate() == kept_state
    monkeypatch.setattr(g, "action_limit", len(s.history()) + 3)
    r = random.Random(3)
    assert mc.decide(s, p, r, **plan) is None and r.getstate() == before


def test_a_python_state_is_searched_by_the_bot_itself(counted: list[int]) -> None:
    g = cardsmith.load("hearts", players=4)
    s = g.new_initial_state(seed=2)
    bot = make_bot("ismcts(iterations=20)", g, s.current_player(), 1)
    assert bot.choose(SeatView(s, s.current_player())) in s.legal_actions()
    assert counted == [0, 0]
