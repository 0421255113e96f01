"""The attack files of tests/attacks/ on the native backend too (issue 33: every red-team family against both
backends).

Each file `validate` accepts is run with `cardsmith run --seed 1` on the Python backend, then with
`--backend native` and `--backend auto`, each under tests/test_attacks.py's isolation and limits (a process of
its own forked from the tests' zygote, an empty working directory, a 5 s timeout, 1 GiB of address space, stdin
closed, a secret in the environment): no traceback, no file created, neither the secret nor /etc/passwd printed.
The right outcome natively:
- where the native backend runs the file: exactly the Python backend's output and exit status (a seed deals
  the same match on both backends, and a refusal is the Python backend's own error);
- where it does not: `--backend native` says so in one line (status 1, nothing on stdout), and `auto` says
  in one line that it runs on the Python backend, then prints exactly the Python run's output.
The reasons allowed are a construct the lowering does not cover (named) and the build's own limits; a failure of
the native backend of any other kind (a compiler error, an exception of the lowering) is a bug.

A game's library is built here first, under the default build limits (about 1-2 s of the compiler each), so
that the commands only load it within their 5 s: g++ runs with TMPDIR an empty folder, and must leave nothing
there nor anything of its own beside the library in the cache folder (the test session's: conftest.py).

The builds cost most of the time, so CI runs a fixed sample (`SAMPLE`: each family and outcome, and every file
the native backend refuses, which builds nothing); `NATIVE_ATTACKS=all` runs every file (tests/README.md has
the times). The attack scenarios' rule file (10**8 action ids) is played natively too; the scenarios
themselves start from a fixed deal, which only the Python backend takes."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from cardsmith.dsl.limits import DEFAULT_LIMITS
from cardsmith.dsl.pipeline import compile_file
from cardsmith.engine.game import Game
from cardsmith.native import build
from cardsmith.native.build import BuildError
from cardsmith.native.lower import Unsupported, lower
from conftest import ROOT
from test_attacks import ATTACKS, Attack, Result, cardsmith, check_common, read_attack

needs_build = pytest.mark.skipif(build.missing() is not None, reason=f"{build.missing()}")
pytestmark = [needs_build, pytest.mark.slow]

# Files the native backend builds and runs: each family, and rule errors, budgets and texts among them.
BUILT = ["budget_packings_search", "budget_params_three_ranges", "budget_procedure_fan_out", "budget_sort_by",
         "budget_range_three_deep", "runtime_exponential_calls", "runtime_list_doubling", "any_text_format_loop",
         "deep_nesting_beside_calls", "bounds_zone_read_negative", "bounds_var_write", "bounds_move_card_big",
         "bounds_winners_too_big", "trace_current_too_big", "terminal_escapes_in_texts", "shadow_internal_names"]
# Files it refuses by name (nothing is built): cheap, so all of them.
REFUSED = ["any_list_doubling", "any_list_repeat", "budget_equal_lists", "budget_for_append", "budget_for_remove",
           "budget_group_by", "budget_remove_lists", "exponential_signatures", "memory_deal_loop_big_pack",
           "memory_list_variable_grows", "memory_memo_growing_keys", "trace_deep_nested_compare",
           "trace_deep_nested_log", "trace_deep_nested_report", "trace_deep_nested_summary"]
SAMPLE = BUILT + REFUSED
EVERY = os.environ.get("NATIVE_ATTACKS") == "all"
FILES = sorted(ATTACKS.glob("*.yaml")) if EVERY else [ATTACKS / f"{name}.yaml" for name in SAMPLE]

# Why the native backend may not run a file (backend.py `_reason`): anything else is a bug of its own.
ALLOWED = re.compile(r"it does not cover .+ yet|the build of its library (passed its (time|memory) limit of .+|"
                     r"failed: a function of the rules needs more than [\d,]+ KB of stack)|"
                     r"the generated source of its library \([\d,]+ bytes\) passes its limit of [\d,]+ bytes")


def prebuild(path: Path, tmp: Path, monkeypatch: pytest.MonkeyPatch) -> str | None:
    """Build the binding and the library `run` will load (the same source: the file at its fewest players, the
    default limits), or say why the native backend will not: None when built."""
    compiled = compile_file(path, DEFAULT_LIMITS, optimize=False)
    assert compiled.game is not None
    tmpdir = tmp / "compiler-tmp"
    tmpdir.mkdir()
    monkeypatch.setenv("TMPDIR", str(tmpdir))
    try:
        build.loader()  # the binding, built once for the session: the commands only load it
        build.game_library(lower(Game(compiled.game, compiled.game.spec.min_players, {})))
        why = None
    except Unsupported as e:
        why = f"it does not cover {e} yet"
    except BuildError as e:
        why = str(e)
    finally:
        monkeypatch.undo()
    assert sorted(p.name for p in tmpdir.iterdir()) == [], "the compiler left files in TMPDIR"
    mine = [p.name for p in build.cache_dir().iterdir() if f".{os.getpid()}." in p.name]
    assert mine == [], f"the build left files in the cache: {mine}"
    return why


def run(path: Path, cwd: Path, backend: str | None) -> Result:
    return cardsmith(["run", str(path), "--seed", "1", *(["--backend", backend] if backend else [])], cwd)


def check_natively(a: Attack, cwd: Path, why: str | None) -> None:
    py = run(a.path, cwd, None)
    check_common(a, py, cwd, "run")
    native, auto = run(a.path, cwd, "native"), run(a.path, cwd, "auto")
    for backend, r in (("native", native), ("auto", auto)):
        check_common(a, r, cwd, f"run --backend {backend}")
    if why is None:
        for backend, r in (("native", native), ("auto", auto)):
            assert (r.code, r.out, r.err) == (py.code, py.out, py.err), \
                f"{a.path.name}: --backend {backend} is not the Python backend's run:\n{r.text[-3000:]}\n" \
                f"--- the Python backend's:\n{py.text[-3000:]}"
        return
    assert ALLOWED.fullmatch(why), f"{a.path.name}: the native backend failed on it: {why}"
    name = compiled_name(a.path)
    assert (native.code, native.out) == (1, ""), native.text[-3000:]
    assert native.err == f"cardsmith: error: {name} cannot run on the native backend: {why}\n"
    assert (auto.code, auto.out) == (py.code, py.out), auto.text[-3000:]
    assert auto.err == f"cardsmith: {name} runs on the Python backend: {why}\n{py.err}"


def compiled_name(path: Path) -> str:
    r = compile_file(path)
    assert r.game is not None
    return r.game.spec.name


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_attack_natively(path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    a = read_attack(path)
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    v = cardsmith(["validate", str(path)], cwd)
    if v.code != 0:
        assert path.stem not in SAMPLE, f"{path.name}: a file of the sample is refused by validate:\n{v.text}"
        return  # nothing runs
    why = prebuild(path, tmp_path, monkeypatch)
    if path.stem in SAMPLE:
        assert (why is None) == (path.stem in BUILT), \
            f"{path.name}: {'refused natively: ' + why if why else 'runs natively'}: move it in the sample's lists"
    check_natively(a, cwd, why)


def test_the_sample_is_each_family_and_outcome() -> None:
    families = {name.split("_")[0] for name in BUILT}
    assert {"budget", "runtime", "any", "deep", "bounds", "trace"} <= families
    assert {read_attack(ATTACKS / f"{n}.yaml").expect for n in BUILT} == {"no-crash", "rule-error", "valid"}
    assert all((ATTACKS / f"{n}.yaml").exists() for n in SAMPLE)


def test_the_scenarios_rule_file_natively(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """tests/attacks_scenarios/rules/big_actions.yaml: two parameters over range(0, 10000), 10**8 action ids, of
    which `when` keeps ten. The native legal query walked all 10**8 pairs (a list holds 64 numbers: "range
    too long"); now it walks the ranges one number at a time and tests each part of `when` in the loop of the
    last parameter it reads, as the Python backend does, and plays its match."""
    path = ROOT / "tests" / "attacks_scenarios" / "rules" / "big_actions.yaml"
    a = Attack(path, "10**8 action ids", "valid", ["(2 actions, 1 deal)"])
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    assert prebuild(path, tmp_path, monkeypatch) is None
    check_natively(a, cwd, None)
    assert run(path, cwd, "native").out.endswith("(2 actions, 1 deal)\n")
