"""The fuzzers of tests/test_fuzz.py against the native backend too (issue 33).

    python -m pytest tests/test_native_fuzz.py                 # CI: a few examples per test, derandomized
    HYPOTHESIS_PROFILE=fuzz-deep NATIVE_FUZZ_EXAMPLES=300 python -m pytest tests/test_native_fuzz.py

The same generators make the rule files (bundled files broken structurally and textually; well-typed
expressions and statements, and random ones from the grammar, in every place of a small game). Each that
compiles is loaded at its fewest players on both backends (the same file, within the fuzzers' limits), and
either the native backend refuses it in one line for a reason it may give (`test_native_attacks.ALLOWED`: a
construct it does not cover, a build past its limits), or both play the same random matches in lockstep, chance
drawn by the test: the player to act, every legal set and chance-outcome list, every player's observation and its
string, the returns, and every error word for word (a rule error is the Python backend's own on both).

Two differences are documented (docs/design/native.md): a move the Python backend finishes may pass the budget
natively, where the Python backend charged less (a memo hit costs it nothing), or a bound of the native runtime's
values (a list holds 64 values, or the pack's cards: `seen += stock` at every turn passes it). Such a match
stops there, noted (`KNOWN`); anything else that differs is a bug.

Each example that compiles is one native build (about 1-2 s of g++), so CI keeps to NATIVE_FUZZ_EXAMPLES (4)
examples per test; the deep run takes the fuzz-deep profile's random examples, as many as it says."""

from __future__ import annotations

import copy
import os
import random
import shutil
from pathlib import Path
from typing import Any

import cardsmith
import pytest
import yaml
from cardsmith.dsl.pipeline import compile_file
from cardsmith.engine.budget import over
from cardsmith.engine.errors import GameError
from cardsmith.native import build
from cardsmith.native.backend import NativeUnavailable
from conftest import GAMES_DIR
from hypothesis import given, settings
from hypothesis import strategies as st
from test_fuzz import (
    EXPRESSION_PLACES,
    FUZZ_LIMITS,
    FUZZ_SETTINGS,
    GAME_DATA,
    GAME_NAMES,
    GAME_TEXTS,
    SEEDS,
    STATEMENTS,
    USER_ERRORS,
    fuzz_game,
    mutate_structure,
    mutate_text,
    note,
    typed_rule_file,
)
from test_native_attacks import ALLOWED

needs_build = pytest.mark.skipif(build.missing() is not None, reason=f"{build.missing()}")
pytestmark = [needs_build, pytest.mark.slow, pytest.mark.fuzz]

EXAMPLES = int(os.environ.get("NATIVE_FUZZ_EXAMPLES", "4"))
NATIVE_SETTINGS = settings(FUZZ_SETTINGS, max_examples=EXAMPLES)
MATCHES = 3  # per example, in lockstep
MAX_NODES = 400  # per match: a fuzzed game may never end
# The documented differences (docs/design/native.md): a move the Python backend finishes, stopped natively by the
# budget (a memo hit costs the Python backend nothing) or by a bound of the native runtime's values (a list holds
# 64 values or the pack's cards, a list of lists 256 lists; a walk keeps to the stack).
KNOWN = [str(over(FUZZ_LIMITS.steps)).split(" (")[0]] + [
    f"({words}); please report it" for words in ("list too long", "list of lists too long", "range too long",
                                                 "a value too large for a list of lists",
                                                 "packings() of more than 400 groups",
                                                 "rule code nests too deep for the native stack")]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where each example's rule file is written, beside copies of the bundled games (`extends:` finds them)."""
    out = tmp_path_factory.mktemp("native-fuzz")
    for p in GAMES_DIR.glob("*.yaml"):
        shutil.copy(p, out / p.name)
    return out


def outcome(f: Any) -> tuple[str, Any]:
    try:
        return "ok", f()
    except GameError as e:
        return "error", str(e)


class Stop(Exception):
    """A documented difference: the match stops there."""


def same(what: str, a: tuple[str, Any], b: tuple[str, Any]) -> bool:
    """Both sides' outcome of `what`, equal; False when both failed (the match ends there)."""
    if a != b and a[0] == "ok" and b[0] == "error" and any(k in b[1] for k in KNOWN):
        note(f"{what}: stopped natively where the Python backend went on: {b[1][:300]}")
        raise Stop
    assert a == b, f"{what}: the Python backend: {str(a)[:1500]}\nthe native backend: {str(b)[:1500]}"
    return a[0] == "ok"


def lockstep(py: Any, nat: Any, seed: int) -> None:
    rng = random.Random(seed)
    n = py.num_players()
    for m in range(MATCHES):
        a, b = py.new_initial_state(), nat.new_initial_state()
        try:
            for node in range(MAX_NODES):
                at = f"match {m} node {node}"
                assert a.is_terminal() == b.is_terminal(), f"{at}: the match is over on one backend only"
                if a.is_terminal():
                    same(f"{at}: returns", outcome(a.returns), outcome(b.returns))
                    break
                for p in range(n):
                    same(f"{at}: P{p}'s observation", outcome(lambda s=a, p=p: (s.observation(p),
                                                                                s.observation_string(p))),
                         outcome(lambda s=b, p=p: (s.observation(p), s.observation_string(p))))
                chance = a.is_chance_node()
                assert chance == b.is_chance_node(), f"{at}: a chance node on one backend only"
                if chance:
                    la = outcome(lambda s=a: [o for o, _ in s.chance_outcomes()])
                    lb = outcome(lambda s=b: [o for o, _ in s.chance_outcomes()])
                else:
                    assert a.current_player() == b.current_player(), f"{at}: the player to act differs"
                    la, lb = outcome(a.legal_actions), outcome(b.legal_actions)
                if not same(f"{at}: {'chance outcomes' if chance else 'legal actions'}", la, lb) or not la[1]:
                    break
                x = la[1][rng.randrange(len(la[1]))]
                if not same(f"{at}: apply {x}", outcome(lambda s=a, x=x: s.apply_action(x)),
                            outcome(lambda s=b, x=x: s.apply_action(x))):
                    break
        except Stop:
            continue


def check_natively(text: str, seed: int, folder: Path) -> None:
    """The native property: refused for a reason it may give, or the same matches as the Python backend."""
    note(f"rule file text:\n{text}")
    path = folder / "fuzz.yaml"
    path.write_text(text, encoding="utf-8")
    loaded = compile_file(path, FUZZ_LIMITS)
    if not loaded.ok or loaded.game is None:
        return
    n = loaded.game.spec.min_players
    try:
        py = cardsmith.load(path, players=n, limits=FUZZ_LIMITS)
    except USER_ERRORS:
        return
    try:
        nat = cardsmith.load(path, players=n, limits=FUZZ_LIMITS, backend="native")
    except NativeUnavailable as e:
        note(f"refused natively: {e.reason}")
        assert ALLOWED.fullmatch(e.reason), f"the native backend failed on it: {e.reason}"
        return
    except USER_ERRORS as e:  # a rule error setting the game up: the Python backend's too
        pytest.fail(f"the native load failed where the Python backend's did not: {e}")
    lockstep(py, nat, seed)


# ---------------------------------------------------------------- the mutation fuzzer
@NATIVE_SETTINGS
@given(data=st.data(), seed=SEEDS)
def test_structure_mutations_natively(folder: Path, data: st.DataObject, seed: int) -> None:
    name = data.draw(st.sampled_from(GAME_NAMES), label="file")
    tree = copy.deepcopy(GAME_DATA[name])
    for _ in range(data.draw(st.sampled_from([1, 1, 2]), label="mutations")):
        tree = mutate_structure(data.draw, tree, name)
    check_natively(yaml.safe_dump(tree, sort_keys=False, allow_unicode=True, width=100), seed, folder)


@NATIVE_SETTINGS
@given(data=st.data(), seed=SEEDS)
def test_text_mutations_natively(folder: Path, data: st.DataObject, seed: int) -> None:
    name = data.draw(st.sampled_from(GAME_NAMES), label="file")
    text = GAME_TEXTS[name]
    for _ in range(data.draw(st.sampled_from([1, 1, 2]), label="mutations")):
        text = mutate_text(data.draw, text, name)
    check_natively(text, seed, folder)


# ---------------------------------------------------------------- the expression fuzzer
@NATIVE_SETTINGS
@given(data=st.data(), seed=SEEDS)
def test_typed_expressions_natively(folder: Path, data: st.DataObject, seed: int) -> None:
    check_natively(typed_rule_file(data, EXPRESSION_PLACES), seed, folder)


@NATIVE_SETTINGS
@given(data=st.data(), seed=SEEDS)
def test_typed_statements_natively(folder: Path, data: st.DataObject, seed: int) -> None:
    check_natively(typed_rule_file(data, ["step"]), seed, folder)


@NATIVE_SETTINGS
@given(data=st.data(), seed=SEEDS)
def test_grammar_statements_natively(folder: Path, data: st.DataObject, seed: int) -> None:
    check_natively(fuzz_game(data.draw, "step", data.draw(STATEMENTS, label="statement")), seed, folder)


def test_the_fuzz_game_plays_the_same_natively(folder: Path) -> None:
    """The frame the fuzzed texts are put into: built natively and played in lockstep as it is."""
    path = folder / "frame.yaml"
    path.write_text(fuzz_game(), encoding="utf-8")
    py = cardsmith.load(path, players=2, limits=FUZZ_LIMITS)
    lockstep(py, cardsmith.load(path, players=2, limits=FUZZ_LIMITS, backend="native"), 1)
