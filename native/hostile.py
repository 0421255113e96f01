"""Compile time of large rule files under design (a): lower, emit, and g++ the rules with the engine but
without the binding (the per-game part of the design chosen in docs/design/native.md), at -O1 and -O2; and
the Python backend's `cardsmith.load` of the same file, for reference.

    python native/hostile.py FILE.yaml PLAYERS [GAME]...
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import cardsmith  # noqa: E402
from cardsmith.dsl.pipeline import compile_file  # noqa: E402
from cardsmith.engine.game import Game  # noqa: E402
from emit_cpp import emit  # noqa: E402
from lower import lower  # noqa: E402

ENTRY = """
extern "C" long long cs_playouts(long long games, unsigned long long seed, double* sums) {
  static cs::Game<Rules> g;
  return cs::random_playouts(&g.eng, games, seed, sums);
}
"""


def split_source(text: str) -> str:
    """The generated rules and engine alone: no Python binding (built once at install in the chosen design)."""
    lines = [ln for ln in text.splitlines() if not ln.startswith("PYBIND11_MODULE")]
    return "\n".join(lines).replace('#include "bind.h"', '#include "runtime.h"') + ENTRY


def gxx(src: str, opt: str) -> float:
    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "rules.cc"
        p.write_text(src)
        t = time.perf_counter()
        subprocess.run(["g++", opt, "-std=c++17", "-shared", "-fPIC", f"-I{HERE}", str(p), "-o", str(Path(d) / "r.so")],
                       check=True)
        return time.perf_counter() - t


def measure(path: str, players: int) -> str:
    t0 = time.perf_counter()
    cardsmith.load(path, players=players)
    t_py = time.perf_counter() - t0
    t0 = time.perf_counter()
    r = compile_file(path, optimize=False)
    assert r.game is not None
    prog = lower(Game(r.game, players, {}))
    text = split_source(emit(prog, "m"))
    t_emit = time.perf_counter() - t0
    return (f"{Path(path).name}: {Path(path).stat().st_size:,} bytes of rules, {len(text):,} of C++; python load "
            f"{t_py:.2f} s; lower+emit {t_emit:.2f} s; g++ -O1 {gxx(text, '-O1'):.2f} s, -O2 {gxx(text, '-O2'):.2f} s")


if __name__ == "__main__":
    args = sys.argv[1:]
    for i in range(0, len(args), 2):
        print(measure(args[i], int(args[i + 1])), flush=True)
