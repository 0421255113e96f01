"""Shared helpers for the test suite.

* `GAME_FILES` lists every bundled rule file (`games/*.yaml`) and
  `GAME_CASES` its (file, player count) pairs, read from each compiled spec,
  so a new game in `games/` is picked up by the property tests without any
  change here: every count a game allows with ALL_PLAYER_COUNTS=1 or a deep
  profile, at most four by default (`_counts`). `FEATURE_CASES` does the same for the test
  games of `tests/games/` that the property, observation, tensor and
  information-state tests run too (features no bundled game shows yet).
* The tiers (tests/README.md): `python -m pytest` runs everything on every core (pytest-xdist) and must
  stay within 15 minutes on the 2-core machine; `python -m pytest -m "not slow"`, the inner loop, within
  90 seconds. The measured times are in tests/README.md. `QUICK_CASES` and `QUICK_GAMES` are the per-game
  cases the inner loop keeps; every other case is marked slow. `game_with(...)` writes a small rule file
  from tests/fixtures/base.yaml.
* Hypothesis profiles: "ci" (the default; small, derandomized so that every run
  tries the same examples, and without deadlines, which a loaded machine would
  break) and "deep" (many more examples, random each run),
  chosen with the HYPOTHESIS_PROFILE environment variable:

      HYPOTHESIS_PROFILE=deep python -m pytest tests/test_properties.py

  "fuzz-deep" is for the fuzzers (tests/test_fuzz.py and tests/test_fuzz_families.py):
  6,500 examples per test (FUZZ_EXAMPLES=N to change), over 200,000 cases in all:

      HYPOTHESIS_PROFILE=fuzz-deep python -m pytest tests/test_fuzz.py
      HYPOTHESIS_PROFILE=fuzz-deep python -m pytest tests/test_fuzz_families.py
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from cardsmith.dsl.files import bundled_games
from cardsmith.dsl.pipeline import Loaded, compile_file
from cardsmith.engine.game import Game
from cardsmith.engine.state import State
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
GAMES_DIR = ROOT / "games"
# Where the installed package keeps the bundled games, as the tool reports them: this repository's games/
# under an editable install, site-packages under `pip install .` (as CI installs it).
BUNDLED_DIR = next(iter(bundled_games().values())).parent
# The commands (run, bench, simulate, compare) and the adapters (OpenSpiel, PettingZoo) run on the native backend
# where none is asked for and it can be built (`auto`): every test of them would build each game it touches.
# The suite runs them on the Python backend, the reference, as before; set here, before any test module loads a
# game, and inherited by the commands the tests start. The tests of the default itself unset it
# (tests/test_auto_backend.py), and those of the native backend ask for it by name.
os.environ["CARDSMITH_BACKEND"] = "python"

@pytest.fixture(autouse=True, scope="session")
def _own_state_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """`cardsmith serve` keeps its rooms in $XDG_STATE_HOME unless given --store, and one server at a time may
    hold that file: each test process (each parallel worker) gets a state folder of its own, so servers started
    side by side never meet there, and no test writes into the home folder of whoever runs the tests."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("state")))
        yield


@pytest.fixture(autouse=True, scope="session")
def _native_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """One cache folder of native builds for the whole run, shared by the parallel workers (their base folders
    share a parent; a build holds a lock, so the binding is compiled once): no test writes into the home folder
    or loads a library another run left half built."""
    base = tmp_path_factory.getbasetemp()
    folder = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "native-cache"
    folder.mkdir(parents=True, exist_ok=True)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("CARDSMITH_NATIVE_CACHE", str(folder))
        yield


settings.register_profile(
    "ci",
    max_examples=15,
    # The same examples on every run: CI and a developer's run agree, and a failure is reproducible.
    # Exploring new examples is the job of the "deep" profiles; what they found is kept as a fixed
    # example (tests/test_infostate.py keeps the states resampling once gave up on).
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.register_profile(
    "deep",
    max_examples=500,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.register_profile(
    "fuzz-deep",
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "6500")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked slow first, in their order: pytest-xdist hands tests out in this order, so the
    workers start on the long ones and end on short ones, and neither waits long for the other at the end."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@cache
def compile_result(path: str) -> Loaded:
    """compile_file(path), once per process: collection reads every rule file's player counts, and the
    tests then play the same compiled games."""
    return compile_file(path)


def compiled(path: str) -> Any:
    """The compiled rule file (fails the calling test with the diagnostics if it does not compile)."""
    r = compile_result(str(path))
    if not r.ok or r.game is None:
        from cardsmith.dsl.diagnostics import render_all

        pytest.fail(f"{path} does not compile:\n{render_all(r.diagnostics, {r.file: r.source})}")
    return r.game


@cache
def game_for(path: str, num_players: int) -> Game:
    """A shared game instance with default options (instances are not changed by play)."""
    return Game(compiled(path), num_players)


def play_random(path: str, num_players: int, seed: int, steps: int) -> State:
    """A seeded match of `path` after at most `steps` random actions (`seed` draws the deals and the moves)."""
    rng = random.Random(seed)
    s = State.initial(game_for(path, num_players), seed)
    for _ in range(steps):
        if s.is_terminal():
            break
        la = s.legal_actions()
        s.apply_action(la[rng.randrange(len(la))])
    return s


def fresh_game(path: str, num_players: int) -> Game:
    """A new, unshared game instance."""
    return Game(compiled(path), num_players)


def _player_range(path: Path) -> range:
    r = compile_result(str(path))
    if not r.ok or r.game is None:
        # Still listed (with one count) so the property tests fail loudly on it.
        return range(1, 2)
    sp = r.game.spec
    return range(sp.min_players, sp.max_players + 1)


GAME_FILES: list[Path] = sorted(GAMES_DIR.glob("*.yaml"))
GAME_PLAYERS: dict[str, range] = {str(p): _player_range(p) for p in GAME_FILES}


def _counts(r: range) -> list[int]:
    """The player counts the suites run a game at: every one with ALL_PLAYER_COUNTS=1 or the deep profiles;
    by default at most four (the fewest, the next, one between and the most), which keeps the suite's time
    within CI's while a game allowing 2 to 15 players still meets its edge cases."""
    if len(r) <= 4 or os.environ.get("ALL_PLAYER_COUNTS") == "1" or \
            os.environ.get("HYPOTHESIS_PROFILE", "ci") != "ci":
        return list(r)
    return sorted({r[0], r[1], r[len(r) // 2], r[-1]})


# The per-game suites run in the inner loop (`-m "not slow"`, tests/README.md) at these cases only: a poker
# game and a trick-taking game, both with hidden hands, at a few seconds in all. Every other case is slow.
QUICK_CASES = {"leduc-poker-2p", "stichln-3p"}
QUICK_GAMES = {"leduc-poker", "stichln"}


def game_param(path: Path) -> Any:
    """A bundled rule file as a test case named by its stem, slow unless it is one of QUICK_GAMES."""
    return pytest.param(str(path), id=path.stem, marks=() if path.stem in QUICK_GAMES else pytest.mark.slow)


def game_case(path: Path, n: int) -> Any:
    case = f"{path.stem}-{n}p"
    return pytest.param(str(path), n, id=case, marks=() if case in QUICK_CASES else pytest.mark.slow)


GAME_CASES: list[Any] = [game_case(p, n) for p in GAME_FILES for n in _counts(GAME_PLAYERS[str(p)])]

assert GAME_FILES, f"no rule files found in {GAMES_DIR}"

# Test games that show what no bundled game does yet, run by the property, observation, tensor and
# information-state tests beside the bundled games: tests/games/melds.yaml (actions over several cards at
# once, card_lists variables, a secret action of several cards).
FEATURE_FILES: list[Path] = [TESTS / "games" / "melds.yaml"]
FEATURE_CASES: list[Any] = [game_case(p, n) for p in FEATURE_FILES for n in _player_range(p)]


# The sections of a rule file in the order the docs write them (docs/language.md); game_with keeps it.
SECTION_ORDER = ("game", "summary", "players", "options", "constraints", "constants", "deck", "zones", "variables",
                 "define", "procedures", "actions", "phases", "match")
BASE_GAME = TESTS / "fixtures" / "base.yaml"  # not in tests/games/, whose files are full test games


def _sections(text: str) -> dict[str, str]:
    """A rule file's top-level sections: name -> its text after `name:` (up to the next top-level key)."""
    out: dict[str, str] = {}
    key = None
    for line in text.splitlines(keepends=True):
        if line[:1].isalpha():
            key, _, rest = line.partition(":")
            out[key] = rest
        elif key is not None:
            out[key] += line
    return out


def game_with(**sections: str | None) -> str:
    """The text of tests/fixtures/base.yaml (a small match: deal two cards each, play them onto a pile, two
    deals) with the sections given replaced, added (in SECTION_ORDER) or, given None, left out. A value
    ending in a newline is the section's block, written unindented (game_with(define="twice(x): x * 2\n"));
    any other is the section's value on its line (game_with(game="Mini", players="2"))."""
    base = _sections(BASE_GAME.read_text(encoding="utf-8"))
    text = ""
    for key in sorted(base.keys() | sections.keys(), key=SECTION_ORDER.index):
        value = sections[key] if key in sections else base[key]
        if value is None:
            continue
        if key not in sections:
            text += f"{key}:{value}"
        elif value.endswith("\n"):
            text += f"{key}:\n" + "".join(f"  {ln}" if ln.strip() else ln for ln in value.splitlines(keepends=True))
        else:
            text += f"{key}: {value}\n"
    return text


def cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Run the command line in-process: (exit status, stdout, stderr); argparse's SystemExit counts as a
    return."""
    from cardsmith.cli.main import main
    try:
        code = main(argv)
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    out, err = capsys.readouterr()
    return code, out, err
