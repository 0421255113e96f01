"""The resampler's constraint layer: deals drawn under per-card facts (matching.py), and the search that learns
them from what the player saw (constraints.py)."""

from __future__ import annotations

import random
from collections import Counter

import cardsmith
import pytest
from cardsmith.engine.resample import DEALS
from cardsmith.engine.resample.constraints import Deals, card_pairs
from cardsmith.engine.resample.info import Info
from cardsmith.engine.resample.matching import NoDeal, assign


def test_a_deal_takes_each_card_to_a_place_of_its_domain() -> None:
    rng = random.Random(1)
    domains = {0: {0, 1}, 1: {0}, 2: {1, 2}, 3: {2, 3}}
    for _ in range(50):
        where = assign(domains, rng)
        assert sorted(where.values()) == [0, 1, 2, 3]
        assert all(where[c] in domains[c] for c in domains)
    # The only deal: 1 at 0, so 0 at 1, 2 at 2, 3 at 3; found whatever order the cards are taken in.
    assert assign(domains, random.Random(7)) == {0: 1, 1: 0, 2: 2, 3: 3}


def test_deals_are_drawn_at_random() -> None:
    rng = random.Random(2)
    seen = Counter(tuple(sorted(assign({c: set(range(4)) for c in range(4)}, rng).items())) for _ in range(2400))
    assert len(seen) == 24  # every permutation of 4 cards
    assert min(seen.values()) > 50  # about 100 each


def test_a_deal_keeps_the_places_it_is_given_where_the_facts_allow() -> None:
    rng = random.Random(3)
    keep = {0: 2, 1: 1, 2: 0}
    assert assign({c: {0, 1, 2} for c in range(3)}, rng, keep) == keep
    # Card 0 may not stay at 2: it moves, and the others keep what they can.
    where = assign({0: {0, 1}, 1: {0, 1, 2}, 2: {0, 1, 2}}, rng, keep)
    assert where[0] in (0, 1) and sorted(where.values()) == [0, 1, 2]


def test_no_deal_names_the_card_with_nowhere_to_go() -> None:
    with pytest.raises(NoDeal) as e:
        assign({5: {0}, 6: {1, 2}, 7: {0}}, random.Random(4))
    assert e.value.card in (5, 7)  # whichever of the two comes second finds place 0 taken for good
    with pytest.raises(NoDeal) as e:
        assign({5: {0, 1}, 6: set(), 7: {1}}, random.Random(4))
    assert e.value.card == 6


def _state(name: str, players: int, seed: int, steps: int) -> cardsmith.State:
    g = cardsmith.load(name, players=players)
    s = g.new_initial_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if s.is_terminal():
            break
        la = s.legal_actions()
        s.apply_action(la[rng.randrange(len(la))])
    return s


@pytest.mark.parametrize(("name", "players", "seed", "steps"), [
    ("hearts", 4, 3, 20), ("hearts", 4, 4, 30), ("spades", 4, 5, 40), ("whist", 4, 6, 30), ("euchre", 4, 7, 15),
    ("crazy-eights", 5, 8, 40), ("go-fish", 3, 9, 12)])
def test_the_constraint_layer_finds_states_the_player_cannot_tell_apart(name: str, players: int, seed: int,
                                                                          steps: int) -> None:
    s = _state(name, players, seed, steps)
    p = (s.current_player() + 1) % players if not s.is_terminal() else 0
    info = s._evaluating(Info, p)
    search = Deals(info, p, random.Random(seed), 20_000)
    found = search.run()
    assert found is not None
    assert found.information_state_string(p) == s.information_state_string(p)
    assert found.observation(p) == s.observation(p)


def test_a_failure_to_follow_suit_is_learned_as_a_fact() -> None:
    """A seat whose public action would have been refused had it held a card (a suit it did not follow) held
    none: the search learns it as a fact, and the history it finds keeps every such fact."""
    g = cardsmith.load("hearts", players=4)
    learned = 0
    for seed in range(12):
        s = _state("hearts", 4, seed, 60)
        p = 0
        info = s._evaluating(Info, p)
        search = Deals(info, p, random.Random(seed), 50_000)
        if search.run() is None:
            continue
        for step, _key, card, places, keep in search.facts:
            if keep:
                continue
            learned += 1
            seat = info.who[step]
            assert seat is not None and seat != p and places
            base = search.frames[step].base
            assert g.zone_owner[base.loc[card]] != seat, (seed, step, g.card_names[card])
    assert learned > 0


def test_a_deal_with_no_place_for_a_card_names_it() -> None:
    """Facts that leave a card nowhere (two unseen cards that must both take one place): the deal fails, changes
    nothing, and the search keeps the card as `stuck`, which a failure then reports."""
    s = _state("hearts", 4, 3, 20)
    p = 0
    info = s._evaluating(Info, p)
    search = Deals(info, p, random.Random(3), 20_000)
    assert search.run() is not None
    i = 1
    origins = search._origins(i, False)
    key = (0, 0)
    free = sorted(c for c, o in origins.items() if o == key)
    seq = search._seq(key)
    assert seq is not None and len(free) > 2
    c, d = free[:2]
    place = frozenset({seq.index(c)})
    search.facts += [(i, key, c, place, True), (i, key, d, place, True)]
    before = [f.outcomes[:] for f in search.frames]
    assert not search._deal(i, {key}, False, False, False)
    assert search.stuck in (c, d)
    assert [f.outcomes for f in search.frames] == before


def _rank(g: cardsmith.Game, c: int) -> str:
    return str(g.card_names[c].split(" of ")[0])


def _places(search: Deals, i: int, who: int, origins: dict[int, tuple[int, int]]) -> set[frozenset[int]]:
    """The positions whose cards seat `who` holds before step i, per shuffle, as the facts name them."""
    out = set()
    for o, cards in search._held(i, who, origins).items():
        seq = search._seq(o)
        assert seq is not None
        out.add(frozenset(seq.index(x) for x in cards))
    return out


def test_an_exclusion_holds_whatever_card_of_the_seat_it_takes_the_place_of() -> None:
    """The probe that rules a card out of a seat (`Deals._exclude`) swaps it with each of the seat's cards in
    turn, not one only: a Go Fish asker whose only card of the rank it asked for was the one swapped out
    would have every card probed ruled out of its hand, though holding any one more card keeps the ask
    legal. A seat told "go fish" does rule out every card of the rank asked for, and no other."""
    g = cardsmith.load("go-fish", players=3)
    lone = go_fish = 0
    for seed in range(6):
        s = _state("go-fish", 3, seed, 25)
        p = 0
        info = s._evaluating(Info, p)
        search = Deals(info, p, random.Random(seed), 50_000)
        if search.run() is None:
            continue
        for i in range(1, len(search.frames) - 1):
            seat, a = info.who[i], info.known[i]
            if seat in (None, p) or a is None or search.frames[i].base.pending is not None:
                continue
            act = g.action_for(a)
            rank, target = act.decode(a - act.offset)
            base, after = search.frames[i].base, search.frames[i + 1].base
            origins = search._origins(i, False)

            mine = [c for c in base.z[g.zone_owner.index(seat, 1)] if _rank(g, c) == rank]
            lone += len(mine) == 1
            search.facts = []
            search._learn(i)
            asker = _places(search, i, seat, origins)
            asked = _places(search, i, target, origins) if target != p else set()
            # Holding one more card never makes an ask illegal: nothing is ruled out of the asker's hand.
            assert not [f for f in search.facts if f[3] in asker and f[3] not in asked], (seed, i)
            hand = g.zone_owner.index(target, 1)
            if target != p and len(after.z[hand]) >= len(base.z[hand]) and after.cur != seat:
                # "Go fish": the target held no card of the rank, and holding one would show.
                go_fish += 1
                out = {f[2] for f in search.facts if f[3] in asked}
                unseen = {y for y, o in origins.items() if base.loc[y] != hand}
                assert {y for y in unseen if _rank(g, y) == rank} <= out, (seed, i)
    assert lone > 0 and go_fish > 0


# Schwimmen at 8 players (benchmarks/resample.py's state 309 of its fixed sequence): a 31 made by another seat
# ends a deal, whose hands the player then sees. Until the cards seen at the deal's end were paired with the
# candidate's own hands where its deal went on (`card_pairs`' `zones`), the player's *new* deal was paired
# with the old one, every search stopped at that step, and the resampler gave up after 400,000 steps (13 of
# the 1,000 states at 8 players).
ENDED_BY_A_31 = ('{"format":"cardsmith-state","version":1,"game":"Schwimmen","players":8,"options":{},'
                 '"seed":759033549,"history":[[0,1],[1,89],[1,1027],[2,759],[1,0],[2,1026],[2,1027],[3,309],'
                 '[4,463],[5,422],[6,9],[7,615],[0,163],[1,152],[2,1],[3,88],[3,1028],[4,848],[4,1028],[5,173],'
                 '[5,1027],[6,381],[7,479],[0,885],[1,709],[2,107],[3,932],[4,316],[3,0],[4,869],[4,1027],[5,45],'
                 '[6,356],[7,83],[0,551],[1,184],[2,127],[3,1026],[4,0],[5,364],[5,1028],[6,51],[6,1028],[7,394],'
                 '[7,1027],[0,350],[1,260],[2,1026],[3,929],[4,92],[5,1021],[6,565],[5,0],[6,414],[6,1027],'
                 '[7,271],[0,640],[1,966],[2,442],[3,923],[4,829],[5,882],[6,0],[7,1026]]}')


def test_a_deal_the_player_saw_end_is_mended_from_the_cards_seen_at_its_end() -> None:
    g = cardsmith.load("schwimmen", players=8)
    s = g.deserialize_state(ENDED_BY_A_31)
    p = 7
    for seed in range(3):
        search = Deals(s._evaluating(Info, p), p, random.Random(seed), DEALS)
        found = search.run()
        assert found is not None, seed  # by the constraint layer, within its share
        assert found.information_state_string(p) == s.information_state_string(p)


def test_the_cards_seen_at_a_deal_s_end_pair_with_the_candidate_s_own_where_its_deal_goes_on() -> None:
    names = {"A": 0, "B": 1, "C": 2, "D": 3}
    end = {"deal": 1, "zones": {"hand[0]": ["A", "B"], "hand[1]": ["C", "D"]}, "variables": {}}
    want = {"deal": 2, "zones": {"hand[0]": ["C", "A"], "hand[1]": 2}, "variables": {}, "deal_end": end}
    got = {"deal": 1, "zones": {"hand[0]": ["A", "C"], "hand[1]": 2}, "variables": {}, "deal_end": None}
    own = {"hand[0]": ["A", "C"], "hand[1]": ["B", "D"]}
    # (card wanted, card there, at the end of the last deal): B where the candidate has C, C where it has B;
    # the new deal's hand[0] ("C", "A") is paired with nothing, since the candidate never dealt it.
    assert card_pairs(want, got, names, zones=own) == [(1, 2, True), (2, 1, True)]
    # Where the candidate's deal ended too, the two ends are paired, and the current hands as before.
    got_ended = {**got, "deal": 2, "zones": {"hand[0]": ["A", "C"], "hand[1]": 2},
                 "deal_end": {**end, "zones": {"hand[0]": ["A", "D"], "hand[1]": ["C", "B"]}}}
    assert card_pairs(want, got_ended, names) == [(1, 3, True), (3, 1, True), (2, 0, False), (0, 2, False)]
