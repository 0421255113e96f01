"""A memoized `define:` function keeps values, never a list the game still changes (issue 31, part 8).

A function given a player's hand may return the hand itself. Its memo used to keep the live zone list as the
cached value: when the hand changed, the cached value changed with it, and a later match on the same game
object (the same deal, so the same key) found a player with no legal action."""

from __future__ import annotations

import random

from cardsmith.dsl.pipeline import compile_text
from cardsmith.engine.game import Game

GAME = """\
game: M
players: 2
deck:
  suits: [a, b]
  ranks: ['1', '2', '3', '4']
zones:
  stock: {}
  hand: {per_player: true}
  pile: {}
variables:
  led: {type: text}
  n: {type: number}
define:
  playable(h, s): |
    let follow = [c for c in h if c.suit == s];
    if len(follow) == 0 then h else follow
  both(h, s): |
    let follow = [c for c in h if c.suit == s];
    [h, follow]
actions:
  play:
    params: {card: "playable(hand[player], led)"}
    effect:
      - move card to pile
      - led = card.suit
      - n = len(first(both(hand[player], led)))
phases:
  main:
    actions: [play]
    after:
      - if: len(hand[player]) == 0
        then: [end deal]
match:
  deal: [move pack to stock, shuffle stock, deal 4 from stock to hand, goto main]
  over_when: deal_number >= 1
  winners: players
"""


def _game(optimize: bool = True) -> Game:
    r = compile_text(GAME, "m.yaml", optimize=optimize)
    assert r.ok and r.game is not None, r.diagnostics
    return Game(r.game, 2)


def _match(game: Game, seed: int) -> list[int]:
    s = game.new_initial_state(seed)
    rng = random.Random(seed)
    moves = []
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(rng.choice([a for a, _ in s.chance_outcomes()]))
            continue
        a = rng.choice(s.legal_actions())
        moves.append(a)
        s.apply_action(a)
    return moves


def test_two_matches_on_one_game_object_play_alike() -> None:
    game = _game()
    for seed in range(5):
        first = _match(game, seed)
        assert _match(game, seed) == first
        assert _match(_game(), seed) == first  # and as on a fresh game object


def test_a_memo_keeps_the_value_of_a_list_argument_as_it_was() -> None:
    game = _game()
    ns = game.ns
    assert "fk_playable" in ns and "fk_both" in ns  # memoized, so the test means something
    s = game.new_initial_state(1)
    hand = [0, 1, 2]
    assert ns["fn_playable"](s, hand, "c") == [0, 1, 2]
    assert ns["fn_both"](s, hand, "c") == [[0, 1, 2], []]
    hand.pop()  # the zone changes with the next move
    assert ns["fn_playable"](s, [0, 1, 2], "c") == [0, 1, 2]
    assert ns["fn_both"](s, [0, 1, 2], "c") == [[0, 1, 2], []]
