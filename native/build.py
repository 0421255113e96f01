"""Builds the prototypes. Design (a): `build_a(name, players)` emits C++ for one rule file and compiles it
into an extension module, cached under native/build/ by the hash of the generated source. Design (b):
`build_b()` compiles the one engine, once (what an install would do), and `program_b` emits a game's program."""

from __future__ import annotations

import hashlib
import importlib.util
import subprocess
import sys
import sysconfig
import time
from pathlib import Path
from typing import Any

import pybind11
from cardsmith.native import build as pkg  # the chosen design, shipped in the package

HERE = Path(__file__).resolve().parent
HEADERS = Path(pkg.__file__).resolve().parent  # runtime.h, bind.h, abi.h, loader.cc
# Design (b) runs on the runtime and lowering as they were when it was measured (native/b/): the shipped ones
# have grown past what its program format knows.
B = HERE / "b"
sys.path.insert(0, str(B))
BUILD = HERE / "build"
FLAGS = ["-O2", "-std=c++17", "-shared", "-fPIC", "-fvisibility=hidden"]


def _compile(src: Path, out: Path, headers: Path = HEADERS) -> float:
    inc = [f"-I{pybind11.get_include()}", f"-I{sysconfig.get_paths()['include']}", f"-I{headers}"]
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    t = time.perf_counter()
    subprocess.run(["g++", *FLAGS, *inc, str(src), "-o", str(out.with_suffix(suffix))], check=True)
    return time.perf_counter() - t


def _import(name: str, path: Path) -> Any:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def build_a(name: str, players: int, options: dict[str, Any] | None = None,
            force: bool = False) -> tuple[Any, dict[str, float]]:
    """The module of design (a) for one game, and the times of its stages (s)."""
    from cardsmith.native.build import program
    from cardsmith.native.emit_cpp import emit
    t0 = time.perf_counter()
    prog = program(name, players, options)
    t1 = time.perf_counter()
    text = emit(prog, "MODNAME")
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    mod = f"cs_a_{digest}"
    text = text.replace("MODNAME", mod)
    t2 = time.perf_counter()
    BUILD.mkdir(exist_ok=True)
    so = BUILD / (mod + sysconfig.get_config_var("EXT_SUFFIX"))
    compile_s = 0.0
    if force or not so.exists():
        src = BUILD / f"{mod}.cc"
        src.write_text(text)
        compile_s = _compile(src, BUILD / mod)
    return _import(mod, so).Game(), {"lower": t1 - t0, "emit": t2 - t1, "compile": compile_s}


def build_b(force: bool = False) -> tuple[Any, float]:
    BUILD.mkdir(exist_ok=True)
    so = BUILD / ("cs_engine_b" + sysconfig.get_config_var("EXT_SUFFIX"))
    s = 0.0
    if force or not so.exists():
        s = _compile(HERE / "engine_b.cc", BUILD / "cs_engine_b", B)
    return _import("cs_engine_b", so), s


def game_b(name: str, players: int, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, float]]:
    from emit_prog import emit
    from lower_b import lower

    def program(name: str, players: int, options: dict[str, Any] | None) -> Any:
        return lower(pkg.plain_game(name, players, options))
    mod, _ = build_b()
    t0 = time.perf_counter()
    prog = program(name, players, options)
    t1 = time.perf_counter()
    code = emit(prog)
    t2 = time.perf_counter()
    g = mod.Game(code)
    return g, {"lower": t1 - t0, "emit": t2 - t1, "load": time.perf_counter() - t2}


def build_loader(force: bool = False) -> tuple[Any, float]:
    """The chosen design's binding, built once (the package's `cardsmith.native.build.loader`)."""
    t = time.perf_counter()
    mod = pkg.loader(force)
    return mod, time.perf_counter() - t


def build_split(name: str, players: int, options: dict[str, Any] | None = None,
                force: bool = False) -> tuple[Any, dict[str, float]]:
    """The chosen design: the game's library compiled alone (cached by hash) and loaded by the binding."""
    mod, _ = build_loader()
    t0 = time.perf_counter()
    prog = pkg.program(name, players, options)
    t1 = time.perf_counter()
    so, _ = pkg.game_library(prog, force)
    return mod.Game(str(so)), {"lower+emit": t1 - t0, "compile": time.perf_counter() - t1}


if __name__ == "__main__":
    sys.path.insert(0, str(HERE))
    for n, p in (("hearts", 4), ("go-fish", 2)):
        print(n, build_a(n, p, force=True)[1])
