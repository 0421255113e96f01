"""`auto`, the native backend wherever it helps (issue 33): which backend each command, `cardsmith.load` and the
adapters run on when none is asked for, $CARDSMITH_BACKEND, the one-line reason `auto` gives for running in
Python (once a command, on stderr only), and that the switch changes no seeded result.

The suite sets CARDSMITH_BACKEND=python (conftest.py) so that the other tests never pay a build; the tests of
the defaults here unset it. The tests that build are slow and share the session's native cache; those that
check a fallback use what fails before any build (a construct the lowering does not cover, no compiler)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cardsmith
import pytest
from cardsmith.cli.common import backend_of
from cardsmith.engine.backends import BACKEND_ENV, default_backend
from cardsmith.engine.bundled import resolve
from cardsmith.engine.errors import GameError
from cardsmith.engine.game import Game
from cardsmith.native import build
from cardsmith.native.backend import NativeFallback, NativeUnavailable
from conftest import cli

CAN_BUILD = build.missing() is None
needs_build = pytest.mark.skipif(not CAN_BUILD, reason=f"{build.missing()}")

# The commands that play many matches with bots or random players, and their default.
AUTO_COMMANDS = ("run", "bench", "simulate", "compare")
# The commands that load a game but tell or show it from the Python state: no flag (`test` takes one, python
# by default: test_test_runs_on_python_unless_told).
NO_FLAG = ("play", "serve", "replay", "validate", "explain")


@pytest.fixture
def no_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """The defaults as a user meets them: no $CARDSMITH_BACKEND."""
    monkeypatch.delenv(BACKEND_ENV, raising=False)


@pytest.fixture
def no_compiler(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A machine without the compiler, and nothing built in its cache."""
    monkeypatch.setenv("CARDSMITH_NATIVE_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(build, "COMPILER", "cardsmith-no-such-compiler")


@pytest.fixture
def uncovered(tmp_path: Path) -> str:
    from test_native_games import UNCOVERED
    path = tmp_path / "groups.yaml"
    path.write_text(UNCOVERED)
    return str(path)


NO_COMPILER = "Hearts runs on the Python backend: no C++ compiler (cardsmith-no-such-compiler) on this machine"
GROUPS = "Groups the players runs on the Python backend: it does not cover library function group_by yet"


# ---------------------------------------------------------------- which backend, where none is asked for
@pytest.mark.parametrize("cmd", AUTO_COMMANDS)
def test_the_commands_that_play_many_matches_default_to_auto(cmd: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli([cmd, "--help"], capsys)
    flat = " ".join(out.split())
    assert code == 0 and "--backend {python,native,auto}" in out
    assert "auto (the default): native where it can be built here, else python, saying why in one line; native: " \
           "the rule file compiled to C++ (cached), an error where it cannot be; python: the reference " \
           "($CARDSMITH_BACKEND changes the default)" in flat


def test_test_runs_on_python_unless_told(capsys: pytest.CaptureFixture[str]) -> None:
    """`cardsmith test` takes --backend, python by default: native (or auto) runs the scenarios in lockstep."""
    code, out, _ = cli(["test", "--help"], capsys)
    flat = " ".join(out.split())
    assert code == 0 and "--backend {python,native,auto}" in out
    assert "auto: native where it can be built here, else python, saying why in one line; native: each scenario " \
           "also on the native backend, in lockstep with the Python one (every position, legal set and view " \
           "compared), unsupported ones listed; python (the default): the reference ($CARDSMITH_BACKEND changes " \
           "the default)" in flat


@pytest.mark.parametrize("cmd", NO_FLAG)
def test_the_commands_that_tell_a_match_from_the_python_state_have_no_backend(
        cmd: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli([cmd, "--help"], capsys)
    assert code == 0 and "--backend" not in out


def test_which_backend_a_command_runs_on(monkeypatch: pytest.MonkeyPatch) -> None:
    def ns(**kw: object) -> argparse.Namespace:
        return argparse.Namespace(**kw)
    monkeypatch.delenv(BACKEND_ENV, raising=False)
    assert backend_of(ns(backend=None, backend_default="auto")) == "auto"
    assert backend_of(ns(backend="python", backend_default="auto")) == "python"
    assert backend_of(ns()) == "python"  # a command without --backend
    monkeypatch.setenv(BACKEND_ENV, "native")
    assert backend_of(ns(backend=None, backend_default="auto")) == "native"
    assert backend_of(ns(backend="auto", backend_default="auto")) == "auto"  # what is asked for wins
    assert backend_of(ns()) == "python"
    monkeypatch.setenv(BACKEND_ENV, "")
    assert default_backend() == "auto" and default_backend("python") == "python"


def test_a_bad_cardsmith_backend_is_the_commands_error(monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv(BACKEND_ENV, "fast")
    code, out, err = cli(["run", "kuhn-poker", "--seed", "1"], capsys)
    assert (code, out) == (1, "")
    assert err == "cardsmith: error: CARDSMITH_BACKEND must be 'python', 'native' or 'auto', not 'fast'\n"
    code, out, err = cli(["run", "kuhn-poker", "--seed", "1", "--backend", "python"], capsys)
    assert code == 0 and err == ""  # a backend asked for does not read it


def test_load_keeps_python_as_its_default(no_env: None, no_compiler: None) -> None:
    """`cardsmith.load` runs what it is asked for: Python unless told otherwise, $CARDSMITH_BACKEND or not."""
    g = cardsmith.load("hearts", players=4)
    assert type(g) is Game and (g.backend, g.backend_note) == ("python", None)


# ---------------------------------------------------------------- the one line, once, on stderr
def test_auto_by_default_says_why_it_runs_in_python(no_env: None, no_compiler: None,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(["run", "hearts", "--seed", "3"], capsys)
    assert code == 0 and err == f"cardsmith: {NO_COMPILER}\n"
    assert (0, out, "") == cli(["run", "hearts", "--seed", "3", "--backend", "python"], capsys)


def test_the_note_is_said_once_a_command_and_never_in_its_data(no_env: None, uncovered: str,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """compare loads the game for each configuration (and once more for its player count): one line for all."""
    code, out, err = cli(["compare", uncovered, uncovered, "--games", "4", "--workers", "1", "--seed", "2",
                          "--no-progress", "--plain"], capsys)
    assert code == 0, err
    assert err.splitlines()[0] == f"cardsmith: {GROUPS}" and err.count("Python backend") == 1
    assert "Python backend" not in out
    code, out, err = cli(["run", uncovered, "--seed", "2", "--json"], capsys)
    assert code == 0 and err == f"cardsmith: {GROUPS}\n" and json.loads(out)["game"] == "Groups the players"


@pytest.mark.slow
def test_the_note_stays_out_of_simulates_files(no_env: None, uncovered: str, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    out_dir = tmp_path / "out"
    code, out, err = cli(["simulate", uncovered, "--games", "3", "--workers", "1", "--seed", "2", "--no-progress",
                          "--out", str(out_dir)], capsys)
    assert code == 0 and err.startswith(f"cardsmith: {GROUPS}\n") and err.count("Python backend") == 1
    assert "Python backend" not in out
    for f in ("matches.csv", "summary.json", "report.html"):
        assert "Python backend" not in (out_dir / f).read_text()


def test_bench_profile_runs_on_the_python_backend_by_default(no_env: None, no_compiler: None,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """--profile shows the Python backend's rule-file lines: with the default it neither builds nor says why."""
    code, out, err = cli(["bench", "kuhn-poker", "--profile", "--seconds", "0.1"], capsys)
    assert (code, err) == (0, "") and out.startswith("Kuhn poker, 2 players: random playouts for 0.10 s\n")


def test_the_native_refusal_keeps_where_the_rule_file_writes_it(uncovered: str, no_compiler: None) -> None:
    with pytest.raises(NativeUnavailable) as e:
        cardsmith.load(uncovered, players=2, backend="native")
    assert e.value.span is not None and (Path(e.value.span.file).name, e.value.span.line) == ("groups.yaml", 12)
    with pytest.raises(NativeUnavailable) as e:
        cardsmith.load("hearts", players=4, backend="native")
    assert e.value.span is None  # no construct to point at


# ---------------------------------------------------------------- the adapters
def test_the_openspiel_game_takes_a_backend(no_compiler: None, monkeypatch: pytest.MonkeyPatch,
                                           tmp_path: Path) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import cardsmith.openspiel as cso
    game = pyspiel.load_game("cardsmith", {"file": "kuhn-poker", "players": 2})  # $CARDSMITH_BACKEND=python here
    assert game.cardsmith.backend == "python"
    assert game.get_parameters() == {"file": "kuhn-poker", "players": 2, "options": ""}  # the default, unnamed
    game = cso.load("kuhn-poker", 2, backend="python")
    assert game.get_parameters() == {"file": "kuhn-poker", "players": 2, "options": "", "backend": "python"}
    assert pyspiel.load_game(str(game)).get_parameters() == game.get_parameters()  # its string keeps it
    with pytest.raises(GameError, match="^backend must be 'python', 'native' or 'auto', not 'fast'$"):
        cso.load("kuhn-poker", 2, backend="fast")
    monkeypatch.delenv(BACKEND_ENV)
    own = tmp_path / "kuhn.yaml"  # a path of this test's own: the adapter keeps the games it loaded
    own.write_text(resolve("kuhn-poker").read_text())
    with pytest.warns(NativeFallback) as caught:
        game = pyspiel.load_game("cardsmith", {"file": str(own), "players": 2})
    assert game.cardsmith.backend == "python"
    assert [str(w.message) for w in caught] == ["Kuhn poker runs on the Python backend: no C++ compiler "
                                                "(cardsmith-no-such-compiler) on this machine"]


def test_the_pettingzoo_environment_takes_a_backend(no_compiler: None, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("pettingzoo")
    from cardsmith.pettingzoo import env
    assert env("kuhn-poker").game.backend == "python"  # $CARDSMITH_BACKEND=python here
    monkeypatch.delenv(BACKEND_ENV)
    with pytest.warns(NativeFallback, match="^Kuhn poker runs on the Python backend: no C\\+\\+ compiler"):
        assert env("kuhn-poker").game.backend == "python"  # auto, falling back
    assert env("kuhn-poker", backend="python").game.backend_note is None
    with pytest.raises(NativeUnavailable):
        env("kuhn-poker", backend="native")


# ---------------------------------------------------------------- on the native backend (builds: slow)
@needs_build
@pytest.mark.slow
def test_auto_by_default_runs_natively_where_it_can(no_env: None, capsys: pytest.CaptureFixture[str]) -> None:
    """bench by default: the native loop beside the Python backend's (its first line says it is available)."""
    code, out, err = cli(["bench", "go-fish", "--seconds", "0.2", "--rounds", "1"], capsys)
    assert (code, err) == (0, "")
    assert out.startswith("native backend: available here (g++ ")
    assert "round 1, native loop" in out
    code, py_out, _ = cli(["run", "go-fish", "--seed", "4", "--backend", "python"], capsys)
    assert cli(["run", "go-fish", "--seed", "4"], capsys) == (0, py_out, "")


@needs_build
@pytest.mark.slow
@pytest.mark.parametrize(("game", "players", "bots", "score"), [
    ("go-fish", 2, "random", True), ("go-fish", 2, "random", False), ("hearts", 4, "random", False),
    ("kuhn-poker", 2, "greedy, random", False), ("kuhn-poker", 2, "ismcts(iterations=40), random", True)])
def test_a_seeded_simulation_is_the_same_on_both_backends(game: str, players: int, bots: str, score: bool,
                                                          tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The native backend deals a seed's matches as the Python backend does, so switching changes no figure:
    the same rows and summary (with --no-score the matches are played on native states, not on Python ones, and
    so are those of a bot that searches resampled worlds, replayed in Python for their report lines)."""
    files = {}
    for backend in ("python", "native"):
        out = tmp_path / backend
        args = ["simulate", game, "--players", str(players), "--games", "12", "--seed", "9", "--bots", bots,
                "--workers", "2", "--no-progress", "--plain", "--out", str(out), "--backend", backend]
        code, text, err = cli([*args, *([] if score else ["--no-score"])], capsys)
        assert code == 0, err
        files[backend] = (text.replace(str(out), "OUT"), (out / "matches.csv").read_text(),
                          (out / "summary.json").read_text())
    assert files["native"] == files["python"]


@needs_build
@pytest.mark.slow
@pytest.mark.rl
def test_openspiel_on_the_native_backend() -> None:
    """OpenSpiel's own test of a game, its ISMCTS and its CFR, on the native backend: CFR's average policy on
    Kuhn poker is the Python backend's to the last digit."""
    pyspiel = pytest.importorskip("pyspiel")
    import cardsmith.openspiel as cso
    from open_spiel.python.algorithms import cfr, expected_game_score

    for name, n in (("go-fish", 3), ("leduc-poker", 2)):
        game = cso.load(name, n, backend="native")
        assert game.cardsmith.backend == "native"
        pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)

    import random

    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts
    game = cso.load("schwimmen", 2, backend="native")  # ISMCTS: its worlds resampled through the twin
    rng, np_rng = random.Random(4), np.random.RandomState(4)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np_rng), uct_c=2.0,
                           max_simulations=5, random_state=np_rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            action = bot.step(state) if state.current_player() == 0 else rng.choice(state.legal_actions())
            assert action in state.legal_actions()
            state.apply_action(action)
    assert len(state.returns()) == 2

    def value(backend: str) -> float:
        game = cso.load("kuhn-poker", 2, backend=backend)
        assert game.cardsmith.backend == backend
        solver = cfr.CFRSolver(game)
        for _ in range(20):
            solver.evaluate_and_update_policy()
        return float(expected_game_score.policy_value(game.new_initial_state(), [solver.average_policy()] * 2)[0])
    assert value("native") == value("python")


@needs_build
@pytest.mark.slow
@pytest.mark.rl
@pytest.mark.parametrize(("game", "players"), [("kuhn-poker", 2), ("go-fish", 3)])
def test_pettingzoo_on_the_native_backend(game: str, players: int) -> None:
    pytest.importorskip("pettingzoo")
    from cardsmith.pettingzoo import env
    from pettingzoo.test import api_test, seed_test
    e = env(game, players, render_mode="ansi", backend="native")
    assert e.game.backend == "native"
    api_test(e, num_cycles=100, verbose_progress=False)
    seed_test(lambda: env(game, players, backend="native"), num_cycles=100)


@needs_build
@pytest.mark.slow
def test_a_build_says_why_the_command_waits_on_a_terminal(no_env: None, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """A game's first native run compiles it: on a terminal the command says so first, once; the next run finds
    it built and says nothing. Off a terminal (every other test) nothing is said."""
    import cardsmith.cli.common as common
    # A game of its own: nothing of the session's cache is it. Its name alone is not enough (the native library
    # is named by the C++ it compiles to, which the name does not change: another test's Kuhn poker would be
    # found built); a variable of its own makes the C++ its own.
    own = tmp_path / "kuhn.yaml"
    own.write_text(resolve("kuhn-poker").read_text().replace("game: Kuhn poker", "game: Kuhn poker, built here")
                   .replace("\nvariables:\n", "\nvariables:\n  built_here: {type: number}\n", 1))
    code, py_out, _ = cli(["run", str(own), "--seed", "5", "--backend", "python"], capsys)
    monkeypatch.setattr(common, "terminal", lambda: True)
    code, out, err = cli(["run", str(own), "--seed", "5"], capsys)
    assert (code, out) == (0, py_out)
    assert err == "cardsmith: building Kuhn poker, built here for the native backend (once: the next runs find it " \
                  "built)\n"
    assert cli(["run", str(own), "--seed", "5"], capsys) == (0, py_out, "")
