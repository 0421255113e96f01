"""Strategies written in the rule file, and the masked state they read.

* `masked(s, seat, rng)` leaves what the seat sees as it is, and depends on nothing else: permuting the
  cards the seat cannot see, or taking another history it cannot tell from this one, gives the same masked
  state for the same random numbers (every bundled game at its fewest players);
* a strategy bot decides alike on such states, for the same seed;
* the bundled strategies (games/schwimmen.yaml) follow their rules in order, and play whole matches;
* rule files with strategies are checked like the rest (golden files in tests/invalid show the errors).
"""

from __future__ import annotations

import random

import pytest
from cardsmith.bots import BadBotSpec, SeatView, make_bot, parse_bots, seat_seed, strategy_names
from cardsmith.engine.masked import masked
from cardsmith.engine.state import State
from conftest import GAME_FILES, GAME_PLAYERS, GAMES_DIR, game_for
from test_observation import hidden_places, permute_hidden

SCHWIMMEN = str(GAMES_DIR / "schwimmen.yaml")


def _decision_points(path: str, players: int, seed: int, count: int = 6) -> list[State]:
    g = game_for(path, players)
    rng = random.Random(seed)
    s = State.initial(g, seed)
    out: list[State] = []
    while not s.is_terminal() and len(out) < count:
        la = s.legal_actions()
        if len(la) > 1 and hidden_places(s, s.current_player()) and rng.random() < 0.3:
            out.append(s.clone())
        s.apply_action(la[rng.randrange(len(la))])
    return out


def _by_seen(s: State, p: int) -> dict[int, int]:
    """`played_by` of the cards the seat cannot see (resampling keeps the history p saw, not who moved each
    card it can see, which the rules may read too but no observation shows)."""
    hidden = {s.z[zi][i] for zi, i in hidden_places(s, p)}
    return {c: s.by[c] for c in hidden}


@pytest.mark.parametrize("path", [pytest.param(str(p), id=p.stem) for p in GAME_FILES])
def test_a_masked_state_shows_what_the_seat_sees_and_nothing_else(path: str) -> None:
    players = min(GAME_PLAYERS[path])
    for k, s in enumerate(_decision_points(path, players, 5)):
        p = s.current_player()
        m = masked(s, p, random.Random(k))
        assert m.observation(p) == s.observation(p)
        for other in (permute_hidden(s, p, random.Random(k + 100)), s.resample_from_infostate(p, k)):
            n = masked(other, p, random.Random(k))
            assert (n.z, n.v) == (m.z, m.v)
            assert n.by == m.by or _by_seen(n, p) == _by_seen(m, p)


def test_a_masked_state_reads_hidden_variables_as_their_initial_values() -> None:
    # Siebenbatten: trump and the special rank are seen by the captain and the dealer only.
    g = game_for(str(GAMES_DIR / "siebenbatten.yaml"), 4)
    checked = 0
    for s in _decision_points(str(GAMES_DIR / "siebenbatten.yaml"), 4, 3, 12):
        for p in range(g.n):
            shown = s.observation(p)["variables"]
            m = masked(s, p, random.Random(1))
            for i, name in enumerate(g.var_names):
                if name.split("[")[0] in ("trump", "special_rank", "captain_card", "dealer_card") and \
                        name not in shown:
                    assert m.v[i] is None  # the initial value
                    checked += s.v[i] is not None
            assert m.observation(p) == s.observation(p)
    assert checked


@pytest.mark.parametrize("spec", ["steady", "hasty"])
def test_a_strategy_decides_alike_whatever_the_cards_it_cannot_see(spec: str) -> None:
    for k, s in enumerate(_decision_points(SCHWIMMEN, 4, 9, 10)):
        p = s.current_player()
        decisions = set()
        for t in (s, permute_hidden(s, p, random.Random(k)), s.resample_from_infostate(p, k)):
            bot = make_bot(spec, s.game, p, 77)
            decisions.add(bot.choose(SeatView(t, p)))
        assert len(decisions) == 1


def _hand_value(s: State, hand: list[int]) -> float:
    return float(s.game.ns["fn_hand_value"](s, hand))


def test_steady_follows_its_rules_in_order() -> None:
    g = game_for(SCHWIMMEN, 3)
    seen: set[str] = set()
    for seed in range(12):
        bots = [make_bot(sp, g, p, seat_seed(seed, p)) for p, sp in enumerate(parse_bots("steady, random", 3,
                                                                                           strategy_names(g)))]
        s = State.initial(g, seed)
        while not s.is_terminal():
            p = s.current_player()
            a = bots[p].choose(SeatView(s, p))
            if p == 0:
                name = g.action_for(a).name
                legal = {g.action_for(x).name for x in s.legal_actions()}
                value = _hand_value(s, s.zone_cards("hand", 0))
                seen.add(name)
                if "keep" in legal:
                    assert name == ("keep" if value >= 24 else "reject")
                if "knock" in legal:
                    assert name == ("knock" if value >= 27 else "continue")
                if "swap" in legal:
                    best = max(_hand_value(s, [c for c in s.zone_cards("hand", 0) if c != give] + [take])
                               for give in s.zone_cards("hand", 0) for take in s.zone_cards("centre"))
                    if best > value:
                        _, (give, take) = g.codec.decode(a)
                        after = [c for c in s.zone_cards("hand", 0) if c != give] + [take]
                        assert name == "swap" and _hand_value(s, after) == best
                    else:
                        assert name == "pass"
            s.apply_action(a)
    assert {"swap", "pass", "knock", "continue"} <= seen


def test_a_strategy_is_named_like_a_bot_and_checked_against_the_game() -> None:
    g = game_for(SCHWIMMEN, 3)
    assert strategy_names(g) == ["steady", "hasty"]
    assert [str(x) for x in parse_bots("steady, hasty", 3, strategy_names(g))] == ["steady", "hasty", "hasty"]
    with pytest.raises(BadBotSpec) as e:
        parse_bots("stedy", 3, strategy_names(g))
    assert str(e.value) == "no bot named 'stedy'; the bots are first, greedy, ismcts, random; the rule file's " \
                           "strategies: hasty, steady"
    with pytest.raises(BadBotSpec) as e:
        parse_bots("steady(x=1)", 3, strategy_names(g))
    assert str(e.value) == "strategy 'steady' takes no parameters"
    other = game_for(str(GAMES_DIR / "stichln.yaml"), 3)
    with pytest.raises(BadBotSpec) as e:
        make_bot("steady", other, 0, 1)
    assert str(e.value) == "no bot named 'steady'; the bots are first, greedy, ismcts, random; the rule file has no " \
                           "strategies"
