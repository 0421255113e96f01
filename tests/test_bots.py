"""Bots: specs by name and parameters, matches played to the end, and ISMCTS never peeking.

The hidden-card test: two states that differ only in what the bot's seat cannot see (cards permuted among
hidden places, or a whole other history the seat cannot tell from the real one, with other future
shuffles) give the same decision and the same search statistics for the same seed.
"""

from __future__ import annotations

import random

import pytest
from cardsmith.bots import BadBotSpec, SeatView, make_bot, parse_bots, seat_seed
from cardsmith.bots.spec import BotSpec, parse_bot
from cardsmith.engine.state import State
from conftest import GAME_FILES, GAME_PLAYERS, game_for, game_param
from test_observation import hidden_places, permute_hidden

SMALL = "ismcts(iterations=24, worlds=3)"


# ---------------------------------------------------------------- specs
def test_specs_name_a_bot_and_its_parameters() -> None:
    assert parse_bot("random") == BotSpec("random")
    spec = parse_bot(" ismcts( iterations = 50 , c=1.5,rollout=first ) ")
    assert spec == BotSpec("ismcts", (("iterations", 50), ("c", 1.5), ("rollout", "first")))
    assert str(spec) == "ismcts(iterations=50, c=1.5, rollout=first)"
    assert spec.settings() == {"iterations": 50, "seconds": 0.0, "c": 1.5, "worlds": 0, "rollout": "first",
                               "by": "", "carry": 32, "carry_below": 8}
    assert parse_bots("ismcts(iterations=5, worlds=2), first", 4) == [
        BotSpec("ismcts", (("iterations", 5), ("worlds", 2))), BotSpec("first"), BotSpec("first"), BotSpec("first")]


@pytest.mark.parametrize(("text", "message"), [
    ("rando", "no bot named 'rando'; the bots are first, greedy, ismcts, random; the rule file has no strategies"),
    ("greedy(by=1x)", "greedy: by must be a name, not '1x'"),
    ("ismcts(iter=3)",
     "ismcts has no parameter 'iter'; its parameters: by, c, carry, carry_below, iterations, rollout, seconds, worlds"),
    ("ismcts(iterations=0)", "ismcts: iterations must be from 1 to 1,000,000, not 0"),
    ("ismcts(iterations=1_000)", "ismcts: iterations must be a whole number, not '1_000'"),
    ("ismcts(c=1e3)", "ismcts: c must be a number, not '1e3'"),
    ("ismcts(c=2.5)x", "bot spec 'ismcts(c=2.5)x': expected a bot's name, optionally followed by parameters in "
                       "parentheses, like ismcts(iterations=400)"),
    ("ismcts(worlds=-1)", "ismcts: worlds must be from 0 to 100,000, not -1"),
    ("ismcts(iterations=2.5)", "ismcts: iterations must be a whole number, not '2.5'"),
    ("ismcts(c=nan)", "ismcts: c must be a number, not 'nan'"),
    ("ismcts(rollout=smart)", "ismcts: rollout must be one of random, first, greedy, not 'smart'"),
    ("ismcts(rollout=1x)", "ismcts: rollout must be one of random, first, greedy, not '1x'"),
    ("ismcts(c=1, c=2)", "ismcts: c is given twice"),
    ("ismcts(c)", "ismcts: expected key=value, not 'c'"),
    ("random(seed=1)", "random has no parameter 'seed'; its parameters: none"),
    ("greedy(depth=2)", "greedy has no parameter 'depth'; its parameters: by"),
    ("ismcts(c=1", "bot spec 'ismcts(c=1': a '(' without its ')'"),
    ("3bots", "bot spec '3bots': expected a bot's name, optionally followed by parameters in parentheses, "
              "like ismcts(iterations=400)"),
])
def test_a_bad_spec_says_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(BadBotSpec) as e:
        parse_bot(text) if "(" in text and text.count("(") == text.count(")") else parse_bots(text)
    assert str(e.value) == message


def test_greedy_values_what_the_rule_file_reports() -> None:
    g = game_for(str(next(p for p in GAME_FILES if p.stem == "schwimmen")), 3)
    with pytest.raises(BadBotSpec) as e:
        make_bot("greedy(by=lives)", g, 0, 1)
    assert str(e.value) == "greedy: by must name a number the rule file reports for each player: returns, hand; " \
                           "not 'lives'"
    # Schwimmen has no `match: returns`: by default greedy takes the swap that most raises its hand's value.
    s = State.initial(g, 4)
    while g.phases[s.phase].name != "turn":
        s.apply_action(s.legal_actions()[0])
    p = s.current_player()
    a = make_bot("greedy", g, p, 1).choose(SeatView(s, p))
    value = g.ns["fn_hand_value"]
    hand, centre = s.zone_cards("hand", p), s.zone_cards("centre")
    best = max(value(s, [c for c in hand if c != x] + [y]) for x in hand for y in centre)
    if best > value(s, hand):
        _, (give, take) = g.codec.decode(a)
        assert value(s, [c for c in hand if c != give] + [take]) == best


def test_a_rollout_is_a_policy_or_a_strategy_of_the_rule_file() -> None:
    g = game_for(str(next(p for p in GAME_FILES if p.stem == "schwimmen")), 3)
    names = ["steady", "hasty"]
    assert parse_bot("ismcts(rollout=steady)", names) == BotSpec("ismcts", (("rollout", "steady"),))
    with pytest.raises(BadBotSpec) as e:
        parse_bot("ismcts(rollout=calm)", names)
    assert str(e.value) == "ismcts: rollout must be one of random, first, greedy, steady, hasty, not 'calm'"
    # With the game not known yet, any name is taken; making the bot checks it.
    spec = parse_bot("ismcts(rollout=calm)", None)
    for text, message in [
        (spec, "ismcts: rollout must be one of random, first, greedy, steady, hasty, not 'calm'"),
        ("ismcts(by=hand)", "ismcts: by is for rollout=greedy (what the greedy rollout maximises), not rollout=random"),
        ("ismcts(rollout=greedy, by=lives)",
         "ismcts: by must name a number the rule file reports for each player: returns, hand; not 'lives'"),
    ]:
        with pytest.raises(BadBotSpec) as e:
            make_bot(text, g, 0, 1)
        assert str(e.value) == message
    make_bot("ismcts(rollout=greedy, by=hand)", g, 0, 1)


def test_a_greedy_or_strategy_rollout_plays_the_world_as_that_bot_plays() -> None:
    """In a rollout's world, `greedy` takes an action of the highest value for the seat to act, and a strategy
    the action the strategy takes there."""
    from cardsmith.bots.greedy import value_after, value_of
    from cardsmith.bots.rollout import policy
    from cardsmith.bots.strategy import StrategyBot
    g = game_for(str(next(p for p in GAME_FILES if p.stem == "schwimmen")), 3)
    rng = random.Random(2)
    s = State.initial(g, 6)
    checked = 0
    while not s.is_terminal() and s.deal_no < 5:
        la = s.legal_actions()
        if not s.is_chance_node() and len(la) > 1:
            p = s.current_player()
            a, looked = policy("greedy", g, random.Random(1))(s, la)
            value = value_of(g, "")
            assert looked == len(la)
            assert value_after(s, a, value, p) == max(value_after(s, b, value, p) for b in la)
            world = s.clone()
            b, _ = policy("steady", g, random.Random(1))(world, la)
            assert world.history() == s.history()  # the strategy reads the world, it does not play on it
            assert b == StrategyBot(random.Random(1), game=g, seat=p, strategy="steady").decide(s, la)
            checked += 1
        s.apply_action(la[rng.randrange(len(la))])
    assert checked > 10


def test_the_bots_command_lists_bots_and_strategies(capsys: pytest.CaptureFixture[str]) -> None:
    from cardsmith.cli.main import main
    assert main(["bots", "schwimmen"]) == 0
    out = capsys.readouterr().out
    assert "  ismcts: information-set Monte Carlo tree search" in out
    assert "      rollout (default random): how a simulation plays on past the tree, one of random, first, greedy " \
           "or a strategy of the rule file" in out
    assert "  steady: keeps a hand of 24 or more" in out
    assert main(["bots", "stichln"]) == 0
    assert "Stichln has no strategies" in capsys.readouterr().out


def test_more_bots_than_seats_is_refused() -> None:
    with pytest.raises(BadBotSpec, match="3 bots for 2 seats"):
        parse_bots("random, first, random", 2)


# ---------------------------------------------------------------- playing
def _match(path: str, players: int, specs: str, seed: int) -> State:
    g = game_for(path, players)
    bots = [make_bot(spec, g, p, seat_seed(seed, p)) for p, spec in enumerate(parse_bots(specs, g.n))]
    s = State.initial(g, seed)
    while not s.is_terminal():
        p = s.current_player()
        s.apply_action(bots[p].choose(SeatView(s, p)))
    return s


@pytest.mark.slow
def test_bots_play_whole_matches_and_a_seed_replays_them() -> None:
    path = str(next(p for p in GAME_FILES if p.stem == "schwimmen"))
    a = _match(path, 3, f"{SMALL}, greedy, first", 5)
    b = _match(path, 3, f"{SMALL}, greedy, first", 5)
    assert a.history() == b.history() and a.returns() == b.returns()


def test_a_view_offers_nothing_to_a_seat_not_to_act() -> None:
    g = game_for(str(GAME_FILES[0]), min(GAME_PLAYERS[str(GAME_FILES[0])]))
    s = State.initial(g, 1)
    other = (s.current_player() + 1) % g.n
    assert SeatView(s, other).legal_actions() == []
    assert SeatView(s, s.current_player()).legal_actions() == s.legal_actions()


# ---------------------------------------------------------------- no peeking
def _decision_point(path: str, players: int, seed: int) -> State:
    """A state of a seeded match after some random play where the seat to act has a choice to make."""
    g = game_for(path, players)
    rng = random.Random(seed)
    s = State.initial(g, seed)
    points: list[State] = []
    while not s.is_terminal() and len(points) < 40:
        la = s.legal_actions()
        if len(la) > 1 and hidden_places(s, s.current_player()):
            points.append(s.clone())
        s.apply_action(la[rng.randrange(len(la))])
    assert points, "no decision with hidden cards in a whole match"
    return points[rng.randrange(len(points))]


def _search(s: State, seed: int, spec: str = SMALL) -> tuple[int, list[tuple[int, int, float, int]]]:
    p = s.current_player()
    bot = make_bot(spec, s.game, p, seed)
    a = bot.choose(SeatView(s, p))
    return a, sorted((k, ch.visits, round(ch.total, 9), ch.avail) for k, ch in getattr(bot, "last", {}).items())


@pytest.mark.parametrize("spec", [SMALL, "greedy", "ismcts(iterations=8, worlds=2, rollout=greedy)"])
@pytest.mark.parametrize("path", [game_param(p) for p in GAME_FILES])
def test_a_bot_decides_alike_whatever_the_cards_it_cannot_see(path: str, spec: str) -> None:
    players = min(GAME_PLAYERS[path])
    s = _decision_point(path, players, 11)
    p = s.current_player()
    real = _search(s, 3, spec)
    assert real == _search(permute_hidden(s, p, random.Random(4)), 3, spec)
    other = s.resample_from_infostate(p, 9)  # another history p cannot tell from this one
    assert other.z != s.z or other.history() != s.history() or other.rng != s.rng
    assert real == _search(other, 3, spec)


def test_a_strategy_rollout_decides_alike_whatever_the_cards_the_bot_cannot_see() -> None:
    path = str(next(p for p in GAME_FILES if p.stem == "schwimmen"))
    s = _decision_point(path, 3, 11)
    p = s.current_player()
    spec = "ismcts(iterations=24, worlds=3, rollout=steady)"
    real = _search(s, 3, spec)
    assert real == _search(permute_hidden(s, p, random.Random(4)), 3, spec)
    assert real == _search(s.resample_from_infostate(p, 9), 3, spec)


CARRYING = "ismcts(iterations=16, carry=4, carry_below=1000)"  # every decision after the first carries


def _two_decisions(path: str, players: int, seed: int) -> tuple[State, State]:
    """Two states of a seeded match, each a decision of the same seat with hidden cards, the second after
    the first (and the first seat's decision taken between them); the first match from `seed` on that
    has two."""
    g = game_for(path, players)
    for k in range(seed, seed + 50):
        rng = random.Random(k)
        s = State.initial(g, k)
        first: State | None = None
        while not s.is_terminal():
            la = s.legal_actions()
            p = s.current_player()
            if len(la) > 1 and hidden_places(s, p) and (first is None or p == first.current_player()):
                if first is None:
                    if rng.random() < 0.3:
                        first = s.clone()
                elif s.moves > first.moves:
                    return first, s
            s.apply_action(la[rng.randrange(len(la))])
    raise AssertionError("no two decisions of one seat with hidden cards in 50 matches")


@pytest.mark.parametrize("path", [game_param(p) for p in GAME_FILES])
def test_worlds_carried_forward_decide_alike_whatever_the_cards_the_bot_cannot_see(path: str) -> None:
    """A bot that carries its worlds from one decision to the next (`carry`) decides the second alike in two
    matches that differ only in what its seat cannot see, at both decisions."""
    players = min(GAME_PLAYERS[path])
    a1, a2 = _two_decisions(path, players, 12)
    p = a1.current_player()
    b1 = permute_hidden(a1, p, random.Random(4))
    b2 = a2.resample_from_infostate(p, 9)  # a whole other history p cannot tell from the real one
    decisions = []
    for first, second in ((a1, a2), (b1, b2)):
        bot = make_bot(CARRYING, first.game, p, 3)
        bot.choose(SeatView(first, p))
        a = bot.choose(SeatView(second, p))
        decisions.append((a, bot.last_worlds,
                          sorted((k, ch.visits, round(ch.total, 9), ch.avail) for k, ch in bot.last.items())))
    assert decisions[0] == decisions[1]

