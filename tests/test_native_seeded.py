"""A seed gives the same match on both backends: the native runtime draws seeded chance exactly as the Python
backend does (interpreter/native/pyrandom.h against engine/chance.py and engine/seeds.py).

The generator itself is compiled into a small probe library (ctypes) and checked against CPython's
`random.Random`; then the native games play seeded matches in lockstep with `cardsmith.load`'s, the same random
actions given to both. Skipped where the machine has no C++ compiler or no pybind11."""

from __future__ import annotations

import ctypes
import random
import shutil
import subprocess
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import cardsmith
import pytest
from cardsmith.engine import chance
from cardsmith.engine.bounds import Declared
from cardsmith.engine.seeds import WIDE, fresh

pytest.importorskip("pybind11")
if shutil.which("g++") is None:
    pytest.skip("no C++ compiler", allow_module_level=True)

HEADERS = Path(cardsmith.__file__).resolve().parent / "native"

# The probe: the generator's draws by a little program of ops (op 1..32: getrandbits(op), 64 or 128: that
# many bits as words, 0: random() as its double's bits, -n: randrange(n)), and the chance of one shuffle
# (op > 0: that many cards) or pick (op < 0: from -op values) on a seed passed in and out.
PROBE = r"""
#include <cstring>
#include "pyrandom.h"
using namespace cs;
static PySeed seed_of(const uint32_t* w, int n, int wide) {
  PySeed s{};
  std::memcpy(s.w, w, 4 * n);
  s.n = (uint8_t)n;
  s.wide = wide != 0;
  return s;
}
extern "C" {
int cs_draws(const uint32_t* w, int n, const long long* ops, int nops, uint32_t* out) {
  PyRandom r(seed_of(w, n, 0));
  int k = 0;
  for (int i = 0; i < nops; i++) {
    long long op = ops[i];
    if (op == 0) { double d = r.random(); std::memcpy(out + k, &d, 8); k += 2; }
    else if (op == 64 || op == 128) { r.getrandbits_words(out + k, (int)op / 32); k += (int)op / 32; }
    else if (op > 0) out[k++] = r.getrandbits((int)op);
    else out[k++] = r.below((uint32_t)-op);
  }
  return k;
}
int cs_chance(uint32_t* w, int* n, int wide, int op, int* cards) {
  PySeed s = seed_of(w, *n, wide);
  int r = -1;
  if (op < 0) {
    r = py_pick(s, -op);
  } else {
    int16_t a[64];
    for (int i = 0; i < op; i++) a[i] = (int16_t)cards[i];
    py_shuffle<64>(s, a, op);
    for (int i = 0; i < op; i++) cards[i] = a[i];
  }
  std::memcpy(w, s.w, sizeof s.w);
  *n = s.n;
  return r;
}
}
"""


@pytest.fixture(scope="module")
def probe(tmp_path_factory: pytest.TempPathFactory) -> Any:
    d = tmp_path_factory.mktemp("pyrandom")
    (d / "probe.cc").write_text(PROBE)
    so = d / "probe.so"
    subprocess.run(["g++", "-O2", "-std=c++17", "-shared", "-fPIC", f"-I{HEADERS}", str(d / "probe.cc"), "-o",
                    str(so)], check=True)
    return ctypes.CDLL(str(so))


def words(seed: int) -> list[int]:
    """|seed|'s 32-bit words, least significant first, as CPython keys its generator (0: one zero word)."""
    m = abs(seed)
    return [(m >> (32 * i)) & 0xFFFFFFFF for i in range(max(1, (m.bit_length() + 31) // 32))]


def native_draws(probe: Any, seed: int, ops: list[int]) -> list[Any]:
    w = words(seed)
    out = (ctypes.c_uint32 * (4 * len(ops)))()
    probe.cs_draws((ctypes.c_uint32 * len(w))(*w), len(w), (ctypes.c_longlong * len(ops))(*ops), len(ops), out)
    got: list[Any] = []
    k = 0
    for op in ops:
        if op == 0:
            got.append(ctypes.cast(ctypes.byref(out, 4 * k), ctypes.POINTER(ctypes.c_double))[0])
            k += 2
        elif op in (64, 128):
            got.append(sum(out[k + i] << (32 * i) for i in range(op // 32)))
            k += op // 32
        else:
            got.append(out[k])
            k += 1
    return got


def python_draws(seed: int, ops: list[int]) -> list[Any]:
    r = random.Random(seed)
    return [r.random() if op == 0 else r.getrandbits(op) if op > 0 else r.randrange(-op) for op in ops]


SPECIAL = [0, 1, -1, 2, 7, 2**31 - 1, 2**32 - 1, 2**32, 2**32 + 1, 2**63 - 1, 2**64 - 1, 2**64, -(2**64),
           2**96 + 5, WIDE - 1, WIDE, WIDE + 1, 2**129 - 1, 2**200 + 3, 2**256 - 1]


def seeds(n: int, rng: random.Random) -> list[int]:
    return SPECIAL + [rng.getrandbits(rng.choice([8, 31, 32, 33, 63, 64])) for _ in range(n)] + \
        [fresh() for _ in range(n // 4)]


@pytest.mark.slow
def test_generator_draws_as_cpython(probe: Any) -> None:
    """random(), getrandbits(k) for k in 1..32, 64 and 128, randrange(n) for many n, in long mixed runs
    (past the 624 words of one twist), from narrow, wide, negative and zero seeds."""
    rng = random.Random(33)
    ns = list(range(1, 70)) + [100, 127, 128, 129, 1000, 2**31 - 1, 2**31, 2**31 + 1, 2**32 - 1]
    for seed in seeds(200, rng):
        ops = [0] * 20 + list(range(1, 33)) + [64, 128] + [-n for n in ns]
        ops += [rng.choice([0, 1, 5, 31, 32, 64, 128, -1, -3, -52, -(2**31 + 1)]) for _ in range(700)]
        assert native_draws(probe, seed, ops) == python_draws(seed, ops), seed


@pytest.mark.slow
def test_shuffle_and_pick_chain_as_chance_py(probe: Any) -> None:
    """Each shuffle (keys from random(), a stable sort) and pick (randrange) draws from the seed and passes on
    the next one (64 bits, or the wide bit and 128 bits) exactly as chance.py's `shuffle` and `pick` on a
    seeded state, over chains of draws from many seeds."""
    rng = random.Random(5)
    for seed in seeds(60, rng):
        game = SimpleNamespace(steps=[10**9], step_limit=10**9, declared=Declared())
        s = SimpleNamespace(game=game, rng=seed, trail=(), unfixed=None, stack=None, z=[[]])
        w = (ctypes.c_uint32 * 8)(*words(seed))
        n = ctypes.c_int(len(words(seed)))
        for _ in range(12):
            op = rng.choice([0, 1, 2, 5, 13, 52, 64, -1, -2, -7, -52])
            cards = rng.sample(range(64), op) if op > 0 else []
            buf = (ctypes.c_int * 64)(*cards)
            got = probe.cs_chance(w, ctypes.byref(n), int(s.rng >= WIDE), op, buf)
            if op < 0:
                assert got == chance.pick(s, list(range(-op)))
            else:
                s.z[0] = cards
                chance.shuffle(s, 0)
                assert list(buf[:op]) == s.z[0]
            assert sum(w[i] << (32 * i) for i in range(n.value)) == s.rng, seed


def lockstep(name: str, players: int, seed_list: list[int], options: dict[str, Any] | None = None) -> int:
    """Play each seeded match on both backends with the same random actions: the player to act, the legal
    actions, the seed of the next draw (which a draw's chance decides, so the chance drawn) and the returns
    agree at every step, and clones on both sides play on alike. The number of steps played."""
    from cardsmith.native.build import native_game
    py = cardsmith.load(name, players=players, options=options)
    nat = native_game(name, players, options)
    rng = random.Random(len(seed_list))
    steps = 0
    for seed in seed_list:
        a, b = py.new_initial_state(seed), nat.new_initial_state(seed)
        while True:
            where = f"{name}:{players} seed {seed} step {steps}"
            assert a.rng == b.seed(), where
            assert a.is_terminal() == b.is_terminal(), where
            assert not b.is_chance_node(), where
            if a.is_terminal():
                assert a.returns() == b.returns(), where
                break
            assert a.current_player() == b.current_player(), where
            la = a.legal_actions()
            assert la == b.legal_actions(), where
            x = la[rng.randrange(len(la))]
            if steps % 7 == 0:  # a clone draws on from the same seed
                a, b = a.clone(), b.clone()
            a.apply_action(x)
            b.apply_action(x)
            steps += 1
    return steps


CASES = [("hearts", 4, None), ("go-fish", 2, None), ("go-fish", 4, None), ("go-fish", 3, {"turn_to_asked": True})]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_seeded_matches_are_pythons(name: str, players: int, options: dict[str, Any] | None) -> None:
    """Hundreds of seeded matches, narrow seeds (< 2^63, as people give) and wide ones (seeds.fresh())."""
    rng = random.Random(players)
    narrow = [0, 1, 2**63 - 1] + [rng.getrandbits(63) for _ in range(200)]
    wide = [WIDE, 2**129 - 1] + [fresh() for _ in range(100)]
    assert lockstep(name, players, narrow + wide, options) > 300 * 20


@pytest.mark.slow
def test_seed_of_any_int_size() -> None:
    """A seed is any int the binding can pass as words: negative ones draw as their magnitude (CPython's
    Random does), one of 2^256 or more is refused by name, and a seed that is no int is a TypeError."""
    from cardsmith.native.build import native_game
    assert lockstep("go-fish", 2, [-5, -(2**100), 2**255, -(2**200)]) > 0
    nat = native_game("go-fish", 2)
    with pytest.raises(ValueError, match=r"^the native backend takes seeds below 2\*\*256 in size$"):
        nat.new_initial_state(2**256)
    with pytest.raises(TypeError, match="^a seed is an int$"):
        nat.new_initial_state("7")
    assert nat.new_initial_state().seed() is None
