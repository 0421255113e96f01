"""Shimmy's OpenSpiel wrapper over cardsmith's pyspiel games (interpreter/openspiel.py): needs the `rl` extra and
Shimmy (`shimmy[openspiel]`).

`OpenSpielCompatibilityV0(env=game)` reloads the game at every `reset` by `game.get_type().short_name` alone;
a cardsmith game's type bears the game's own registered name (rules digest, players, options), so the reload
gives the very game. Both ways (`env=game` and `game_name="cardsmith"` with a `config`) play random matches of
every bundled game at its default player count and pass PettingZoo's `api_test`.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")
shimmy = pytest.importorskip("shimmy")

import cardsmith.openspiel as cso  # noqa: E402
from cardsmith.engine.errors import GameError  # noqa: E402
from conftest import GAME_FILES, GAME_PLAYERS, GAMES_DIR, game_case  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402
from shimmy import OpenSpielCompatibilityV0  # noqa: E402

pytestmark = [pytest.mark.rl]

DEFAULT_CASES = [game_case(p, GAME_PLAYERS[str(p)].start) for p in GAME_FILES]


def _play(e: OpenSpielCompatibilityV0, seed: int) -> tuple[int, list[float]]:
    """A random match to its end: (agent steps, the pyspiel state's returns)."""
    e.reset(seed=seed)  # seeds chance
    # The agents' choices from a generator of their own: Shimmy makes new action spaces at every step.
    rng = random.Random(seed)
    steps = 0
    for _agent in e.agent_iter(max_iter=100_000):
        _, _, termination, truncation, info = e.last()
        legal = [a for a, bit in enumerate(info["action_mask"]) if bit]
        action = None if termination or truncation else rng.choice(legal)
        e.step(action)
        steps += 1
    # Shimmy counts chance nodes against `max_game_length` (OpenSpiel's bound on player decisions) and
    # truncates there: it does so with pyspiel's own games too (test_shimmy_truncates_pyspiel_games_too).
    assert e.game_state.is_terminal() or e.game_length > e._env.max_game_length()
    return steps, e.game_state.returns()


@pytest.mark.parametrize("rule_file,num_players", DEFAULT_CASES)
def test_env_is_game(rule_file: str, num_players: int) -> None:
    game = cso.load(rule_file, num_players)
    e = OpenSpielCompatibilityV0(env=game)
    for seed in (1, 2):
        steps, returns = _play(e, seed)
        assert steps > 0 and len(returns) == num_players
        # The game reset reloaded is the same rule file at the same table.
        assert e._env.get_parameters()["players"] == num_players
        assert e._env.own_name == game.own_name
    api_test(OpenSpielCompatibilityV0(env=game), num_cycles=30, verbose_progress=False)


@pytest.mark.parametrize("rule_file,num_players", DEFAULT_CASES)
def test_game_name_and_config(rule_file: str, num_players: int) -> None:
    config = {"file": rule_file, "players": num_players}
    e = OpenSpielCompatibilityV0(game_name="cardsmith", config=config)
    steps, returns = _play(e, 3)
    assert steps > 0 and len(returns) == num_players
    api_test(OpenSpielCompatibilityV0(game_name="cardsmith", config=config), num_cycles=30, verbose_progress=False)


def test_shimmy_truncates_pyspiel_games_too() -> None:
    """Why `_play` allows a truncated match: Shimmy ends OpenSpiel's own Kuhn poker the same way, at its
    third node (two of them chance), before the match is over."""
    e = OpenSpielCompatibilityV0(env=pyspiel.load_game("kuhn_poker"))
    _play(e, 1)
    assert not e.game_state.is_terminal() and e.game_length > 3


def test_same_seed_same_match() -> None:
    game = cso.load("kuhn-poker", 2)
    runs = [_play(OpenSpielCompatibilityV0(env=game), 11) for _ in range(2)]
    assert runs[0] == runs[1]


def test_options_and_own_name() -> None:
    plain = cso.load("oh-hell", 3)
    short = cso.load("oh-hell", 3, {"num_suits": 2})
    assert plain.own_name != short.own_name  # the options are part of the name
    again = pyspiel.load_game(short.own_name)
    assert again.get_parameters() == short.get_parameters()
    e = OpenSpielCompatibilityV0(env=short)
    _play(e, 4)
    assert e._env.get_parameters()["options"] == short.get_parameters()["options"]


def test_an_edited_rule_file_is_another_game(tmp_path: Path) -> None:
    path = tmp_path / "kuhn.yaml"
    shutil.copy(GAMES_DIR / "kuhn-poker.yaml", path)
    before = cso.load(str(path), 2)
    old_name = before.own_name
    assert pyspiel.load_game(old_name).num_players() == 2
    path.write_text(path.read_text() + "\n# edited\n")
    after = cso.load(str(path), 2)
    assert after.own_name != old_name
    with pytest.raises(GameError, match="changed since"):
        pyspiel.load_game(old_name)
    # A copy elsewhere is another file: another name, each loading its own file.
    copy = tmp_path / "copy" / "kuhn.yaml"
    copy.parent.mkdir()
    shutil.copy(path, copy)
    assert cso.load(str(copy), 2).own_name != after.own_name
    assert pyspiel.load_game(cso.load(str(copy), 2).own_name).get_parameters()["file"] == str(copy.resolve())
