"""Building the native backend: the binding once (`loader`), then one library per game (`game_library`),
each cached by the hash of what it is built from, in the user's cache folder.

The binding (`loader.cc`, pybind11) is game-independent and holds the costly headers; a game's library is
the generated rules with the runtime's templates and a table of C functions (`abi.h`), ~1 s of the
compiler. Both are named by a hash of their source and flags, so a cached one is never stale."""

from __future__ import annotations

import hashlib
import importlib.util
import os
import subprocess
import sysconfig
from pathlib import Path
from typing import Any

from ..dsl.pipeline import compile_file
from ..engine.bundled import resolve
from ..engine.game import Game
from .emit_cpp import emit
from .lower import Program, lower

HERE = Path(__file__).resolve().parent
FLAGS = ["-O2", "-std=c++17", "-shared", "-fPIC", "-fvisibility=hidden"]
HEADERS = ("abi.h", "runtime.h", "lists.h")  # what a game's library and the binding are built from


def cache_dir() -> Path:
    """Where built libraries are kept: $CARDSMITH_NATIVE_CACHE, else the user's cache folder."""
    env = os.environ.get("CARDSMITH_NATIVE_CACHE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "cardsmith" / "native"


def plain_game(name: str, players: int, options: dict[str, Any] | None = None) -> Game:
    """A bundled game or rule file compiled without the optimizer (its inlined bodies are Python-only)."""
    r = compile_file(resolve(name), optimize=False)
    assert r.game is not None, r.diagnostics
    return Game(r.game, players, dict(options or {}))


def program(name: str, players: int, options: dict[str, Any] | None = None) -> Program:
    return lower(plain_game(name, players, options))


def _digest(*parts: str) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(p.encode())
        h.update(b"\0")
    return h.hexdigest()[:16]


def _import(name: str, path: Path) -> Any:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def loader(force: bool = False) -> Any:
    """The binding, built once (keyed by its sources, the flags and the Python it is for)."""
    import pybind11
    sources = "".join((HERE / f).read_text() for f in ("loader.cc", *HEADERS))
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    out = cache_dir() / f"cs_loader_{_digest(sources, ' '.join(FLAGS), suffix)}"
    so = out.with_suffix(suffix)
    if force or not so.exists():
        so.parent.mkdir(parents=True, exist_ok=True)
        inc = [f"-I{pybind11.get_include()}", f"-I{sysconfig.get_paths()['include']}", f"-I{HERE}"]
        tmp = so.with_name(so.name + f".{os.getpid()}.tmp")
        subprocess.run(["g++", *FLAGS, *inc, str(HERE / "loader.cc"), "-o", str(tmp)], check=True)
        os.replace(tmp, so)  # whole or not at all, for another process building the same
    # The module's name is the one PYBIND11_MODULE gives it, whatever its file is called.
    return _import("cs_loader", so)


def library_source(prog: Program) -> str:
    """A game library's C++: the rules and the runtime, with the C ABI and no binding."""
    text = emit(prog, "m")
    lines = [ln for ln in text.splitlines() if not ln.startswith("PYBIND11_MODULE")]
    return "\n".join(lines).replace('#include "bind.h"', '#include "abi.h"') + "\nCS_EXPORT(Rules)\n"


def game_library(prog: Program, force: bool = False) -> tuple[Path, bool]:
    """The game's library (compiled unless cached) and whether it was compiled now."""
    text = library_source(prog)
    headers = "".join((HERE / f).read_text() for f in HEADERS)
    so = cache_dir() / f"cs_game_{_digest(text, headers, ' '.join(FLAGS))}.so"
    if not force and so.exists():
        return so, False
    so.parent.mkdir(parents=True, exist_ok=True)
    src = so.with_suffix(".cc")
    src.write_text(text)
    tmp = so.with_name(so.name + f".{os.getpid()}.tmp")
    subprocess.run(["g++", *FLAGS, f"-I{HERE}", str(src), "-o", str(tmp)], check=True)
    os.replace(tmp, so)
    return so, True


def native_game(name: str, players: int, options: dict[str, Any] | None = None) -> Any:
    """The native game of a bundled game or rule file (the binding's `Game`)."""
    so, _ = game_library(program(name, players, options))
    return loader().Game(str(so))
