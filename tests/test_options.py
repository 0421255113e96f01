"""Every bundled game plays to the end under every value of every table option
(one option changed at a time), at its smallest and largest player count."""

from __future__ import annotations

from typing import Any

import pytest
from cardsmith.cli.main import main
from cardsmith.engine.game import Game
from conftest import GAME_FILES, QUICK_GAMES, compiled


def option_cases() -> list[Any]:
    cases = []
    for path in GAME_FILES:
        spec = compiled(str(path)).spec
        for o in spec.options:
            for n in sorted({spec.min_players, spec.max_players}):
                if o.kind == "choice":
                    values = list(o.values)
                elif o.kind == "bool":
                    values = ["yes", "no"]
                else:
                    # A range may be worked out for the player count (`max: =52 // num_players`): its ends there.
                    game = Game(compiled(str(path)), n, constraints=False)
                    lo, hi = game.option_ranges[o.name]
                    values = sorted({lo, hi, game.options[o.name]})
                for v in values:
                    cases.append(pytest.param(str(path), n, o.name, str(v), id=f"{path.stem}-{n}p-{o.name}={v}",
                                          marks=() if path.stem in QUICK_GAMES else pytest.mark.slow))
    return cases


@pytest.mark.parametrize("rule_file,num_players,option,value", option_cases())
def test_plays_to_the_end_under_every_option_value(rule_file: str, num_players: int, option: str, value: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["run", rule_file, "-n", str(num_players), "--seed", "7", "-o", f"{option}={value}"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "The match is over" in out


def test_a_bad_option_value_names_the_allowed_ones(capsys: pytest.CaptureFixture[str]) -> None:
    thirty_one = next(str(p) for p in GAME_FILES if compiled(str(p)).spec.options and any(
        o.kind == "choice" for o in compiled(str(p)).spec.options))
    spec = compiled(thirty_one).spec
    choice = next(o for o in spec.options if o.kind == "choice")
    code = main(["run", thirty_one, "-n", str(spec.min_players), "-o", f"{choice.name}=nonsense"])
    _, err = capsys.readouterr()
    assert code != 0
    assert err.count("\n") == 1
    for v in choice.values:
        assert v in err
