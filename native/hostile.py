"""Compile time of large rule files under design (a): lower, emit, and g++ the rules with the engine but
without the binding (the per-game part of the design chosen in docs/design/native.md), at -O1 and -O2; and
the front end both backends share (load, check, Python codegen: `compile_file`), for reference.

    python native/hostile.py FILE.yaml PLAYERS [GAME]...
"""

from __future__ import annotations

import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from cardsmith.dsl.pipeline import compile_file  # noqa: E402
from cardsmith.engine.game import Game  # noqa: E402
from cardsmith.native.build import HERE as HEADERS  # noqa: E402
from cardsmith.native.emit_cpp import emit  # noqa: E402
from cardsmith.native.lower import lower  # noqa: E402

ENTRY = """
extern "C" long long cs_playouts(long long games, unsigned long long seed, double* sums) {
  static cs::Game<Rules> g;
  return cs::random_playouts(&g.eng, games, seed, sums);
}
"""


def split_source(text: str) -> str:
    """The generated rules and engine alone: no Python binding (built once at install in the chosen design)."""
    lines = [ln for ln in text.splitlines() if not ln.startswith("PYBIND11_MODULE")]
    return "\n".join(lines).replace('#include "bind.h"', '#include "engine.h"') + ENTRY


def _children() -> float:
    """CPU time of this process's finished children: a compile on a loaded machine, without the waiting."""
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def gxx(src: str, opt: str) -> float:
    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "rules.cc"
        p.write_text(src)
        t = _children()
        subprocess.run(["g++", opt, "-std=c++17", "-shared", "-fPIC", f"-I{HEADERS}", str(p),
                        "-o", str(Path(d) / "r.so")],
                       check=True)
        return _children() - t


def measure(path: str, players: int) -> str:
    t0 = time.process_time()
    r = compile_file(path, optimize=False)
    assert r.game is not None
    t_py = time.process_time() - t0  # the front end both backends share: load, check, Python codegen
    t0 = time.process_time()
    prog = lower(Game(r.game, players, {}))
    text = split_source(emit(prog, "m"))
    t_emit = time.process_time() - t0
    o1, o2 = gxx(text, "-O1"), gxx(text, "-O2")
    return (f"{Path(path).name}: {Path(path).stat().st_size:,} bytes of rules, {len(text):,} of C++; CPU s: front "
            f"end {t_py:.2f}, lower+emit {t_emit:.2f}, g++ -O1 {o1:.2f}, -O2 {o2:.2f}")


if __name__ == "__main__":
    args = sys.argv[1:]
    for i in range(0, len(args), 2):
        print(measure(args[i], int(args[i + 1])), flush=True)
