"""Siebenbatten's hidden information (spec: shared/rules/siebenbatten.md, "A deal", step 2).

The captain (the dealer's left) shows a card to the dealer only: its rank is the special rank.
The dealer shows a card to the captain only: its suit is trumps. "Nobody else is told, ever,
during the deal." So the special rank, the trump suit and both shown cards must be in the
observations of the captain and the dealer, and in no one else's; and the public text of the
two showing actions must not name the card. Scenario files cannot look at observations, hence
this test.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from cardsmith.engine.game import load_game
from cardsmith.engine.state import State

GAME = Path(__file__).resolve().parent.parent / "games" / "siebenbatten.yaml"
SECRET = ("special_rank", "trump", "captain_card", "dealer_card")
SEEDS = [0, 1, 2, 3, 7, 11, 42]


@pytest.fixture(scope="module")
def game():
    return load_game(GAME, 4)


def _card_of(game, player: int, action: int, label: str) -> str:
    text = game.action_to_string(player, action)
    assert text.startswith(label + " "), text
    card = text[len(label) + 1:]
    assert card in game.card_names, text
    return card


def _show_both(game, s):
    """Take the two showing actions (the first legal card each); return the shown cards."""
    dealer = s.dealer
    captain = (dealer + 1) % 4
    assert s.current_player() == captain
    a = s.legal_actions()[0]
    ccard = _card_of(game, captain, a, "show a card to the dealer")
    s.apply_action(a)
    assert s.current_player() == dealer
    a = s.legal_actions()[-1]
    dcard = _card_of(game, dealer, a, "show a card to the captain")
    s.apply_action(a)
    return captain, dealer, ccard, dcard


def _public_cards(obs) -> set[str]:
    """Cards lying face up for everyone (the trick and the won piles), now and as the last deal ended."""
    seen: set[str] = set()
    for zones in [obs["zones"]] + ([obs["deal_end"]["zones"]] if obs["deal_end"] else []):
        for name, cards in zones.items():
            if (name == "trick" or name.startswith("won[")) and isinstance(cards, list):
                seen.update(cards)
    return seen


def _check_knowledge(game, s, captain, dealer, ccard, dcard):
    rank, suit = ccard.split(" of ")[0], dcard.split(" of ")[1]
    for p in range(4):
        obs = s.observation(p)
        var = obs["variables"]
        if p in (captain, dealer):
            assert var.get("special_rank") == rank, (p, var)
            assert var.get("trump") == suit, (p, var)
            assert var.get("captain_card") == ccard, (p, var)
            assert var.get("dealer_card") == dcard, (p, var)
        else:
            leaked = [k for k in SECRET if k in var]
            assert not leaked, f"P{p} (neither captain nor dealer) sees {leaked}: {var}"
            # nor may a shown card turn up anywhere in the observation before it is played
            text = json.dumps(obs)
            for card in (ccard, dcard):
                if card not in _public_cards(obs):
                    assert f'"{card}"' not in text, f"P{p} sees {card}: {obs}"
        # the undealt cards are seen by nobody
        assert obs["zones"]["stock"] == 4, obs["zones"]["stock"]


@pytest.mark.parametrize("seed", SEEDS)
def test_special_rank_and_trump_known_to_captain_and_dealer_only(game, seed):
    s = State.initial(game, seed)
    assert game.phases[s.phase].name == "choose_rank"
    dealer = s.dealer
    captain = (dealer + 1) % 4
    # before anything is shown, the two others see none of the secret variables either
    for p in range(4):
        var = s.observation(p)["variables"]
        if p not in (captain, dealer):
            assert not [k for k in SECRET if k in var], (p, var)

    captain, dealer, ccard, dcard = _show_both(game, s)
    assert game.phases[s.phase].name == "tricks"
    _check_knowledge(game, s, captain, dealer, ccard, dcard)

    # play several tricks (random legal cards), checking after every card
    rng = random.Random(seed)
    for _ in range(4 * 5):
        assert not s.is_terminal()
        a = rng.choice(s.legal_actions())
        s.apply_action(a)
        assert s.deal_no == 1
        _check_knowledge(game, s, captain, dealer, ccard, dcard)
    assert sum(s.observation(0)["variables"][f"tricks[{p}]"] for p in range(4)) == 5


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_next_deal_new_captain_and_dealer(game, seed):
    """In the next deal the new captain and dealer (moved one seat left) know, the others do not."""
    s = State.initial(game, seed)
    first_dealer = s.dealer
    _show_both(game, s)
    rng = random.Random(seed)
    while s.deal_no == 1:
        s.apply_action(rng.choice(s.legal_actions()))
    assert not s.is_terminal()  # at most 5 points in one deal
    assert s.dealer == (first_dealer + 1) % 4
    captain, dealer, ccard, dcard = _show_both(game, s)
    assert (captain, dealer) == ((first_dealer + 2) % 4, (first_dealer + 1) % 4)
    _check_knowledge(game, s, captain, dealer, ccard, dcard)
    for _ in range(8):
        s.apply_action(rng.choice(s.legal_actions()))
        _check_knowledge(game, s, captain, dealer, ccard, dcard)


@pytest.mark.parametrize("seed", SEEDS)
def test_showing_actions_hide_the_card_in_public(game, seed):
    s = State.initial(game, seed)
    for label in ("show a card to the dealer", "show a card to the captain"):
        acting = s.current_player()
        legal = s.legal_actions()
        assert len(legal) == 7
        for a in legal:
            card = _card_of(game, acting, a, label)
            public = game.public_action_string(a)
            assert public.startswith(label), public
            assert card not in public, public
            assert not [n for n in game.card_names if n in public], public
            rank, suit = card.split(" of ")
            assert suit not in public, public
        s.apply_action(legal[0])
    assert game.phases[s.phase].name == "tricks"
    # the plays themselves are public
    a = s.legal_actions()[0]
    assert game.public_action_string(a) == game.action_to_string(s.current_player(), a)
