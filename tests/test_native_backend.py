"""The native backend behind one switch (issue 33): `cardsmith.load(..., backend=...)`, its errors and its
fallback word for word, the native state's interface (every public name of the Python `State` and `Game`),
the answers its Python twin gives (equal to the Python backend's on the same actions), the build limits, and
the commands' `--backend`.

The tests that build need g++ and pybind11 (CI has both) and are skipped cleanly without them. They build
into a cache folder of the test session (shared by the parallel workers, whose concurrent builds of one
library are safe), never the user's: the binding once per session, each game's library once."""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import cardsmith
import pytest
from cardsmith.dsl.pipeline import compile_file
from cardsmith.engine.bundled import resolve
from cardsmith.engine.errors import GameError, IllegalAction, RuleError
from cardsmith.engine.game import Game
from cardsmith.engine.state import State
from cardsmith.native import build
from cardsmith.native.backend import NativeFallback, NativeGame, NativeUnavailable, load_backend
from cardsmith.native.build import BuildLimits
from cardsmith.native.wrapper import NATIVE, NativeState
from conftest import cli

CAN_BUILD = build.missing() is None
needs_build = pytest.mark.skipif(not CAN_BUILD, reason=f"{build.missing()}")


@pytest.fixture(scope="module")
def hearts() -> Game:
    return cardsmith.load("hearts", players=4, backend="native")


@pytest.fixture(scope="module")
def go_fish() -> Game:
    return cardsmith.load("go-fish", players=2, backend="native")


def _compiled(name: str) -> tuple[Path, Any]:
    path = resolve(name)
    r = compile_file(path)
    assert r.game is not None
    return path, r.game


def _public(cls: type) -> set[str]:
    return {n for n in dir(cls) if not n.startswith("_")}


# ---------------------------------------------------------------- the switch, without building
def test_python_is_the_default_backend() -> None:
    g = cardsmith.load("kuhn-poker", players=2)
    assert type(g) is Game and (g.backend, g.backend_note) == ("python", None)


def test_an_unknown_backend_is_refused() -> None:
    with pytest.raises(GameError) as e:
        cardsmith.load("kuhn-poker", players=2, backend="fast")
    assert str(e.value) == "backend must be 'python', 'native' or 'auto', not 'fast'"


@pytest.fixture
def uncovered(tmp_path: Path) -> str:
    """A rule file using what the native backend does not cover (every bundled game is covered)."""
    from test_native_games import UNCOVERED
    path = tmp_path / "groups.yaml"
    path.write_text(UNCOVERED)
    return str(path)


def test_native_refuses_what_the_lowering_does_not_cover(uncovered: str) -> None:
    with pytest.raises(NativeUnavailable) as e:
        cardsmith.load(uncovered, players=2, backend="native")
    assert str(e.value) == ("Groups the players cannot run on the native backend: it does not cover library "
                            "function group_by yet")
    assert isinstance(e.value, GameError)


def test_auto_falls_back_saying_why_in_one_line(uncovered: str) -> None:
    with pytest.warns(NativeFallback) as caught:
        g = cardsmith.load(uncovered, players=2, backend="auto")
    note = "Groups the players runs on the Python backend: it does not cover library function group_by yet"
    assert type(g) is Game and g.backend == "python" and g.backend_note == note
    assert [str(w.message) for w in caught] == [note]


def test_a_bad_option_is_the_python_backends_error_not_a_fallback() -> None:
    with pytest.raises(cardsmith.BadOption) as e:
        cardsmith.load("hearts", players=9, backend="auto")
    assert str(e.value) == "Hearts is for 4 players, not 9"


def test_no_compiler(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("CARDSMITH_NATIVE_CACHE", str(tmp_path))  # nothing built there
    monkeypatch.setattr(build, "COMPILER", "cardsmith-no-such-compiler")
    with pytest.raises(NativeUnavailable) as e:
        cardsmith.load("hearts", players=4, backend="native")
    assert str(e.value) == "Hearts cannot run on the native backend: no C++ compiler (cardsmith-no-such-compiler) " \
                           "on this machine"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NativeFallback)
        g = cardsmith.load("hearts", players=4, backend="auto")
    assert g.backend_note == "Hearts runs on the Python backend: no C++ compiler (cardsmith-no-such-compiler) on " \
                             "this machine"


def test_no_pybind11(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("CARDSMITH_NATIVE_CACHE", str(tmp_path))
    monkeypatch.setattr(build, "COMPILER", "sh")  # a program that is there
    monkeypatch.setattr(build, "_has_pybind11", lambda: False)
    with pytest.raises(NativeUnavailable) as e:
        cardsmith.load("go-fish", players=2, backend="native")
    assert str(e.value) == "Go Fish cannot run on the native backend: pybind11 is not installed " \
                           "(pip install 'cardsmith[native]')"
    assert build.status() == "native backend: unavailable here: pybind11 is not installed " \
                             "(pip install 'cardsmith[native]')"


def test_the_generated_source_has_a_size_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDSMITH_NATIVE_CACHE", str(tmp_path))
    path, compiled = _compiled("hearts")
    size = len(build.library_source(build.program("hearts", 4)).encode())
    with pytest.raises(NativeUnavailable) as e:
        load_backend(path, compiled, 4, {}, compiled.limits, "native", BuildLimits(source=1000))
    assert str(e.value) == f"Hearts cannot run on the native backend: the generated source of its library " \
                           f"({size:,} bytes) passes its limit of 1,000 bytes"


def test_the_cache_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("CARDSMITH_NATIVE_CACHE", str(tmp_path / "here"))
    assert build.cache_dir() == tmp_path / "here"
    monkeypatch.delenv("CARDSMITH_NATIVE_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert build.cache_dir() == tmp_path / "xdg" / "cardsmith" / "native"


def test_the_native_state_has_every_public_name_of_the_python_state() -> None:
    """Explicit methods and properties, one per public name of `State` (its methods and the engine's fields):
    the binding answers the hot loop's (NATIVE), the Python class the rest."""
    assert _public(State) - _public(NativeState) == set(NATIVE)
    assert issubclass(NativeGame, Game)


# ---------------------------------------------------------------- limits of a build
@needs_build
@pytest.mark.slow
@pytest.mark.parametrize(("limits", "said"), [
    (BuildLimits(seconds=0.001), "the build of its library passed its time limit of 0.001 s"),
    (BuildLimits(memory=64 << 20), "the build of its library passed its memory limit of 64 MB"),
])
def test_a_build_past_its_limits(limits: BuildLimits, said: str, tmp_path: Path,
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDSMITH_NATIVE_CACHE", str(tmp_path))  # nothing cached: it compiles
    path, compiled = _compiled("hearts")
    with pytest.raises(NativeUnavailable) as e:
        load_backend(path, compiled, 4, {}, compiled.limits, "native", limits)
    assert str(e.value) == f"Hearts cannot run on the native backend: {said}"
    with pytest.warns(NativeFallback) as caught:
        g = load_backend(path, compiled, 4, {}, compiled.limits, "auto", limits)
    assert g.backend == "python" and str(caught[0].message) == f"Hearts runs on the Python backend: {said}"
    # no half-built library left behind (only the empty lock file a build holds: build._building)
    assert [f.name for f in tmp_path.iterdir() if not f.name.endswith('.lock')] == []


# ---------------------------------------------------------------- the native game and state
@needs_build
@pytest.mark.slow
def test_the_native_game_is_the_python_game_with_native_states(hearts: Game) -> None:
    py = cardsmith.load("hearts", players=4)
    assert isinstance(hearts, NativeGame) and hearts.backend == "native" and hearts.backend_note is None
    own = {n for n in vars(py) if not n.startswith("_")}
    assert own - set(vars(hearts)) == set()
    assert {n for n in dir(py) if not n.startswith("_")} - set(dir(hearts)) == set()
    assert isinstance(hearts.new_initial_state(), NativeState)
    assert isinstance(hearts.new_initial_state(seed=1), NativeState)
    assert _public(State) - set(dir(hearts.new_initial_state())) == set()
    assert Path(hearts.native_library).parent == build.cache_dir()  # type: ignore[attr-defined]


def _same_views(nat: Any, py: State, n: int) -> None:
    for p in range(n):
        assert nat.observation_string(p) == py.observation_string(p)
        assert nat.information_state_string(p) == py.information_state_string(p)
        assert nat.observation_tensor(p) == py.observation_tensor(p)
        assert nat.information_state_tensor(p) == py.information_state_tensor(p)
        assert nat.observation(p) == py.observation(p)


@needs_build
@pytest.mark.slow
@pytest.mark.parametrize("name", ["hearts", "go_fish"])
def test_every_view_of_a_native_match_is_the_python_backends(name: str, request: pytest.FixtureRequest) -> None:
    """A match played on both backends with the same actions (chance drawn by the test): the same player,
    legal actions and chance outcomes at every node; every observation, information-state string and tensor
    of every seat the same; the same returns, history and serialization at the end."""
    g: Game = request.getfixturevalue(name)
    n = g.num_players()
    py_game = cardsmith.load(g.name.lower().replace(" ", "-"), players=n)
    rng = random.Random(5)
    nat, py = g.new_initial_state(), py_game.new_initial_state()
    nodes = 0
    while not py.is_terminal():
        assert (nat.current_player(), nat.is_chance_node(), nat.is_terminal()) == \
            (py.current_player(), py.is_chance_node(), False)
        assert nat.legal_actions() == py.legal_actions()
        assert nat.chance_outcomes() == py.chance_outcomes()
        if nodes % 3 == 0 or not py.is_chance_node():
            _same_views(nat, py, n)
        a = rng.choice(py.legal_actions())
        assert nat.action_to_string(nat.current_player(), a) == py.action_to_string(py.current_player(), a)
        nat.apply_action(a)
        py.apply_action(a)
        nodes += 1
    assert nat.is_terminal() and nat.returns() == py.returns() and nat.rewards() == py.rewards()
    assert nat.history() == py.history() and nat.full_history() == py.full_history()
    _same_views(nat, py, n)
    assert nat.serialize() == py.serialize() and str(nat) == str(py)
    back = g.deserialize_state(nat.serialize())
    assert isinstance(back, NativeState) and back.history() == nat.history() and back.returns() == nat.returns()


@needs_build
@pytest.mark.slow
def test_a_seeded_native_match_is_the_python_backends(go_fish: Game) -> None:
    """A seed deals the same match on both backends: with the same moves, the same legal actions, returns,
    history and every view; a clone draws on as its original; the twin is the Python state of the same seed."""
    py_game = cardsmith.load("go-fish", players=2)
    rng = random.Random(2)
    for seed in (11, 2**70 + 3):
        s, py = go_fish.new_initial_state(seed=seed), py_game.new_initial_state(seed=seed)
        while not py.is_terminal():
            assert not s.is_chance_node() and s.legal_actions() == py.legal_actions()
            if len(py.history()) == 10:
                c = s.clone()
                c.apply_action(c.legal_actions()[0])
                assert len(c.history()) == len(s.history()) + 1  # the clone alone moved
            a = rng.choice(py.legal_actions())
            s.apply_action(a)
            py.apply_action(a)
        assert s.is_terminal() and s.returns() == py.returns()
        assert s.history() == py.history() and s.full_history() == py.full_history()
        _same_views(s, py, 2)
        assert s.serialize() == py.serialize() and s.rng == py.rng
        back = go_fish.deserialize_state(py.serialize())
        assert isinstance(back, NativeState) and back.history() == py.history()
    with pytest.raises(GameError) as e:
        go_fish.new_initial_state(seed=2**256)
    assert str(e.value) == "the native backend takes seeds below 2**256 in size"
    with pytest.raises(GameError) as e:
        go_fish.new_initial_state(seed=1).reseed(3)
    assert str(e.value) == "a native state cannot be reseeded yet: reseed its python_state()"


@needs_build
@pytest.mark.slow
def test_refusals_are_the_python_backends_word_for_word(hearts: Game) -> None:
    s = hearts.new_initial_state(seed=3)
    py = s.python_state()
    bad = next(a for a in range(hearts.num_distinct_actions()) if a not in s.legal_actions())
    with pytest.raises(IllegalAction) as e:
        s.apply_action(bad)
    with pytest.raises(IllegalAction) as e_py:
        py.apply_action(bad)
    assert str(e.value) == str(e_py.value)
    assert re.fullmatch(r"action \d+ \(.+\) is not legal for P\d in phase '\w+'", str(e.value))
    cur = s.current_player()
    assert s.legal_actions(cur) == py.legal_actions(cur) == s.legal_actions()
    assert s.legal_actions((cur + 1) % 4) == py.legal_actions((cur + 1) % 4) == []
    numpy = pytest.importorskip("numpy")
    s.apply_action(numpy.int64(s.legal_actions()[0]))  # an integer of numpy's is an action id, as in Python
    assert len(s.history()) == 1
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[0])
    with pytest.raises(IllegalAction) as e:
        s.apply_action(0)
    assert str(e.value) == "the game is over; no action can be taken"


@needs_build
@pytest.mark.slow
@pytest.mark.parametrize("action", [1.0, "3", None, True, 2**40, -2**70, [1]])
def test_what_is_not_an_action_id_is_refused_as_the_python_backend_refuses_it(hearts: Game, action: Any) -> None:
    """The binding reads an action id itself (a plain CPython method): anything else is the Python backend's
    refusal, word for word, and the state is unchanged."""
    s = hearts.new_initial_state(seed=4)
    py = s.python_state()
    with pytest.raises(Exception) as e:
        s.apply_action(action)
    with pytest.raises(Exception) as e_py:
        py.apply_action(action)
    assert (type(e.value), str(e.value)) == (type(e_py.value), str(e_py.value))
    assert s.history() == [] and s.legal_actions() == py.legal_actions()


@needs_build
@pytest.mark.slow
def test_a_clone_is_a_whole_state_of_its_own(go_fish: Game) -> None:
    """`clone` (the binding's, no Python frame) copies the game, the seed and the twin: the copy answers as the
    original, each moves alone, and each one's twin follows its own moves."""
    s = go_fish.new_initial_state()
    while s.is_chance_node():
        s.apply_action(s.chance_outcomes()[0][0])
    s.python_state()  # the twin is made (the strings no longer make it: test_native_infostate.py)
    c = s.clone()
    assert (c.game, c._seed, c._synced) == (s.game, s._seed, s._synced) and c._twin is not s._twin
    assert c.information_state_string(0) == s.information_state_string(0)
    c.apply_action(c.legal_actions(player=c.current_player())[0])
    assert len(c.full_history()) == len(s.full_history()) + 1
    assert c.python_state().full_history() == c.full_history()
    assert s.python_state().full_history() == s.full_history()
    seeded = go_fish.new_initial_state(seed=2**64 + 5)
    twin = seeded.clone()
    assert twin._seed == 2**64 + 5 and twin.seed() == seeded.seed() == seeded.python_state().rng
    assert isinstance(twin, NativeState) and type(twin) is type(seeded)


@needs_build
@pytest.mark.slow
def test_chance_outcomes_are_pairs_of_an_id_and_its_probability(go_fish: Game) -> None:
    """The binding hands out each (outcome, 1/n) pair once made: equal to the Python backend's at every node."""
    s = go_fish.new_initial_state()
    py = cardsmith.load("go-fish", players=2).new_initial_state()
    while s.is_chance_node():
        out = s.chance_outcomes()
        assert out == py.chance_outcomes() and all(type(a) is int and type(p) is float for a, p in out)
        assert s.chance_outcomes() == out
        s.apply_action(out[-1][0])
        py.apply_action(out[-1][0])


@needs_build
@pytest.mark.slow
@pytest.mark.parametrize(("name", "players"), [("thirty-one", 3), ("siebenbatten", 4), ("euchre", 4)])
def test_observations_are_native_and_the_python_backends(name: str, players: int) -> None:
    """Each player's observation and its string come from the native state (view.h: no Python twin is made),
    equal to the Python backend's, with `visible` rules, the deal as it ended and the winners; before the
    match's first step (its chance pending) the Python backend answers."""
    g = cardsmith.load(name, players=players, backend="native")
    rng = random.Random(3)
    s = g.new_initial_state()
    first = s.observation_string(0)  # the match's start: the twin's
    assert s._twin is not None and first == s.python_state().observation_string(0)
    s = g.new_initial_state(seed=11)
    ended = over = 0
    while True:
        mine = [(s.observation(p), s.observation_string(p)) for p in range(players)]
        assert s._twin is None
        py = State.initial(cardsmith.load(name, players=players), 11) if s.is_terminal() else None
        if py is not None:
            for a in s.history():
                py.apply_action(a)
            assert mine == [(py.observation(p), py.observation_string(p)) for p in range(players)]
            over = 1
            break
        ended += any(o["deal_end"] is not None for o, _ in mine)
        assert s.observation_words(0) == s.clone().observation_words(0)
        la = s.legal_actions()
        s.apply_action(la[rng.randrange(len(la))])
    c = s.clone()
    assert c.observation_string(1) == s.observation_string(1) and over
    assert ended or name == "euchre"  # one deal is the whole match
    with pytest.raises(GameError) as e:
        s.observation_string(players)
    assert str(e.value) == f"no player {players}: the seats are 0 to {players - 1}"


@needs_build
@pytest.mark.slow
def test_the_action_limit_holds_natively() -> None:
    g = cardsmith.load("hearts", players=4, backend="native", limits=cardsmith.Limits(actions=5))
    py = cardsmith.load("hearts", players=4, limits=cardsmith.Limits(actions=5))
    s, p = g.new_initial_state(), py.new_initial_state()
    with pytest.raises(RuleError) as e:
        while True:
            s.apply_action(s.legal_actions()[0])
    for _who, what in s.full_history():
        p.apply_action(what)
    with pytest.raises(RuleError) as e_py:
        p.apply_action(p.legal_actions()[0])
    assert e.value.code == e_py.value.code == "R003"
    assert str(e.value) == str(e_py.value)


# ---------------------------------------------------------------- the commands
def test_backend_is_a_flag_of_the_commands_that_play_fast(capsys: pytest.CaptureFixture[str]) -> None:
    for cmd in ("run", "bench", "simulate"):
        code, out, _ = cli([cmd, "--help"], capsys)
        assert code == 0 and "--backend {python,native,auto}" in out
    for cmd in ("validate", "explain"):
        code, out, _ = cli([cmd, "--help"], capsys)
        assert code == 0 and "--backend" not in out
    code, _, err = cli(["run", "hearts", "--backend", "fast"], capsys)
    assert code == 2 and "argument --backend: invalid choice: 'fast'" in err


def test_auto_says_once_why_a_command_runs_in_python(capsys: pytest.CaptureFixture[str], uncovered: str) -> None:
    code, out, err = cli(["run", uncovered, "--players", "2", "--seed", "1", "--backend", "auto"], capsys)
    assert code == 0
    assert err == "cardsmith: Groups the players runs on the Python backend: it does not cover library function " \
                  "group_by yet\n"
    code, out, err = cli(["run", uncovered, "--players", "2", "--backend", "native"], capsys)
    assert (code, out) == (1, "")
    assert err == "cardsmith: error: Groups the players cannot run on the native backend: it does not cover " \
                  "library function group_by yet\n"


@needs_build
@pytest.mark.slow
@pytest.mark.parametrize("spec", ["random", "greedy", "ismcts(iterations=30)"])
def test_the_bots_choose_on_a_native_state_as_on_the_python_backends(spec: str, hearts: Game,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """A bot given a native state's seat (its resampler and masking read the Python twin) makes the choices it
    makes on the Python backend's state of the same seed: the same worlds, the same decisions."""
    from cardsmith.bots.spec import make_bot
    from cardsmith.bots.view import SeatView
    py_game = cardsmith.load("hearts", players=4)
    nat, py = hearts.new_initial_state(seed=8), py_game.new_initial_state(seed=8)
    for _ in range(14):
        p = py.current_player()
        a = make_bot(spec, py_game, p, 5).choose(SeatView(py, p))
        b = make_bot(spec, hearts, p, 5).choose(SeatView(nat, p))
        assert a == b
        py.apply_action(a)
        nat.apply_action(b)
    cli_args = ["simulate", "hearts", "--players", "4", "--games", "2", "--backend", "native", "--workers", "1",
                "--no-progress", "--seed", "4", "--bots", f"{spec}, random"]
    code, _out, err = cli(cli_args, capsys)
    assert code == 0 and "2 matches" in err, err


@needs_build
@pytest.mark.slow
def test_run_and_simulate_on_the_native_backend(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(["run", "hearts", "--players", "4", "--seed", "3", "--backend", "native"], capsys)
    assert (code, err) == (0, "")
    assert out.startswith("Hearts, 4 players, seed 3") and out.endswith("(64 actions, 1 deal)\n")
    code, out, err = cli(["simulate", "go-fish", "--players", "2", "--games", "20", "--backend", "native",
                          "--workers", "1", "--no-progress"], capsys)
    assert code == 0 and "20 matches" in err


@needs_build
@pytest.mark.slow
def test_bench_runs_the_native_loop_beside_the_python_backend(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(["bench", "go-fish", "--players", "2", "--backend", "native", "--seconds", "0.4",
                          "--rounds", "2"], capsys)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert re.fullmatch(r"native backend: available here \(g\+\+ [\d.]+, pybind11 [\d.]+\)", lines[0])
    assert lines[1] == "Go Fish, 2 players: 2 rounds of 0.10 s of random playouts on each backend, alternated, " \
                       "after a warm-up match"
    assert [ln.split(":")[0] for ln in lines[2:6]] == ["  round 1, native loop", "  round 1, Python backend",
                                                       "  round 2, Python backend", "  round 2, native loop"]
    assert re.fullmatch(r"median: native loop [\d,.]+ games/s \([\d,.]+\.\.[\d,.]+\), Python backend [\d,.]+ "
                        r"games/s \([\d,.]+\.\.[\d,.]+\); native/Python [\d,.]+x \([\d,.]+\.\.[\d,.]+\)", lines[6])
    code, out, err = cli(["bench", "go-fish", "--backend", "native", "--profile", "--seconds", "0.1"], capsys)
    assert (code, out) == (1, "")
    assert err == "cardsmith: error: --profile shows the Python backend's rule-file lines: use it without " \
                  "--backend native\n"


@needs_build
@pytest.mark.slow
@pytest.mark.rl
def test_the_openspiel_benchmark_measures_the_native_backend() -> None:
    """`benchmarks/openspiel.py playouts --backend native` and `native-loop`, with a tiny budget: their tables
    (the native cache folder is the session's, conftest's, through the environment)."""
    pytest.importorskip("pyspiel")
    bench = Path(__file__).resolve().parent.parent / "benchmarks" / "openspiel.py"
    env = dict(os.environ)
    for args, head in ((["playouts", "go-fish", "--backend", "native"],
                        "game  players  loop  cardsmith native games/s  pyspiel games/s  cardsmith native/pyspiel"),
                       (["native-loop", "go-fish"],
                        "game  players  native loop games/s  evaluate_bots games/s  native/evaluate_bots")):
        out = subprocess.run([sys.executable, str(bench), *args, "--rounds", "1", "--seconds", "0.05"],
                             capture_output=True, text=True, timeout=600, env=env)
        assert out.returncode == 0, out.stderr
        lines = out.stdout.splitlines()
        assert lines[0] == head
        assert all(ln.startswith("Go Fish  2  ") for ln in lines[1:] if ln), lines


def test_the_standard_headers_are_precompiled_once_per_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game's library reads the standard headers precompiled (std.h.gch, built at the first game and kept
    in the cache), not as text each time: the first native load of a game is ~0.3 s faster."""
    monkeypatch.setenv("CARDSMITH_NATIVE_CACHE", str(tmp_path))
    build.game_library(build.program("kuhn-poker", 2))
    gch = list(tmp_path.glob("cs_std_*/std.h.gch"))
    assert len(gch) == 1
    made = gch[0].stat().st_mtime_ns
    _, compiled = build.game_library(build.program("leduc-poker", 2))
    assert compiled and gch[0].stat().st_mtime_ns == made
    flag = build._precompiled(build.DEFAULT_BUILD_LIMITS)
    assert flag == [f"-I{gch[0].parent}"]
    # The compiler takes it: -H marks a precompiled header used with "!".
    src = tmp_path / "probe.cc"
    src.write_text(build.library_source(build.program("kuhn-poker", 2)))
    r = subprocess.run([build.COMPILER, *[f for f in build.FLAGS if f != "-shared"], "-fsyntax-only", "-H", *flag,
                        f"-I{build.HERE}", str(src)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stderr.splitlines()[0] == f"! {gch[0]}"
