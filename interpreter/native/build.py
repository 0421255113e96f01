"""Building the native backend: the binding once (`loader`), then one library per game (`game_library`),
each cached by the hash of what it is built from, in the user's cache folder.

The binding (`loader.cc`, pybind11) is game-independent and holds the costly headers; a game's library is
the generated rules with the runtime's templates and a table of C functions (`abi.h`), ~1 s of the
compiler. Both are named by a hash of their source and flags, so a cached one is never stale.

Rule files are untrusted, and so is the C++ made from them: every compile runs within `BuildLimits` (time,
memory through setrlimit in the child, and the size of the generated source), and a build past one is a
`BuildError` saying which, never a hung or swapping machine. A build writes a temporary file and renames it
into place, so two processes building the same library at once both end with a whole one."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import importlib.util
import os
import shutil
import subprocess
import sysconfig
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from ..dsl.limits import DEFAULT_LIMITS, Limits
from ..dsl.pipeline import compile_file
from ..engine.bundled import resolve
from ..engine.game import Game
from .emit_cpp import emit
from .lower import Program, lower

HERE = Path(__file__).resolve().parent
# -ffp-contract=off: no fused multiply-add, so that float arithmetic rounds as Python's does (the native ISMCTS's
# UCB values and returns are the Python bot's to the bit, mc_search.h).
FLAGS = ["-O2", "-std=c++17", "-shared", "-fPIC", "-fvisibility=hidden", "-ffp-contract=off"]
# No function of a game's library may take a stack frame over FRAME_LIMIT bytes (the compiler refuses it): rule
# code checks the stack left at its calls, loops and lets (runtime.h `Budget::deep`), and what runs between two
# checks must fit in the room it keeps, STACK_RESERVE. The largest frame
# among the bundled rule files is 135 KB (docs/design/native.md).
FRAME_LIMIT = 256 * 1024
GAME_FLAGS = [*FLAGS, f"-Werror=frame-larger-than={FRAME_LIMIT}"]
COMPILER = "g++"
MB = 1 << 20


class BuildError(Exception):
    """The native backend cannot be had here: no compiler, no pybind11, a build past its limits or failing.
    The message is one line, said after "native backend unavailable: " (backend.py)."""


@dataclass(frozen=True)
class BuildLimits:
    """What one compile may take. `seconds`: wall time of a game's library (about 1 s of CPU idle, several on
    a loaded machine); `binding_seconds`: the binding's, built once (10-30 s, pybind11's headers);
    `memory`: the compiler's address space in bytes; `source`: the generated C++ of one game, in bytes."""
    seconds: float = 120.0
    binding_seconds: float = 600.0
    memory: int = 4096 * MB
    source: int = 8 * MB


DEFAULT_BUILD_LIMITS = BuildLimits()
# What a game's library and the binding are built from (their hash names the builds).
HEADERS = ("abi.h", "position.h", "view.h", "engine.h", "runtime.h", "lists.h", "pyrandom.h", "std.h")
# The binding's own: the native resampler, game-independent, compiled once into the binding.
LOADER_HEADERS = ("pymt.h", "rs_info.h", "rs_match.h", "rs_search.h", "rs_descent.h",
                  "rs_deals.h", "rs_resample.h", "rs_bind.h", "mc_search.h", "mc_bind.h")
STD = "std.h"  # the standard headers, first in every game's library, precompiled once (`_precompiled`)


def cache_dir() -> Path:
    """Where built libraries are kept: $CARDSMITH_NATIVE_CACHE, else the user's cache folder."""
    env = os.environ.get("CARDSMITH_NATIVE_CACHE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "cardsmith" / "native"


def missing() -> str | None:
    """Why the native backend cannot be built on this machine (None: a compiler and pybind11 are here)."""
    if shutil.which(COMPILER) is None:
        return f"no C++ compiler ({COMPILER}) on this machine"
    if not _has_pybind11():
        return "pybind11 is not installed (pip install 'cardsmith[native]')"
    return None


def _has_pybind11() -> bool:
    return importlib.util.find_spec("pybind11") is not None


@cache
def _compiler() -> tuple[str, str]:
    """The compiler's version and target ("" each if it cannot say): for `status`, and in the name of the
    precompiled headers, which only the same compiler can read. Asked once per process."""
    try:
        out = subprocess.run([COMPILER, "-dumpfullversion", "-dumpmachine"], capture_output=True, text=True,
                             timeout=30).stdout.split()
    except (OSError, subprocess.TimeoutExpired):
        out = []
    return (out[0] if out else "", out[1] if len(out) > 1 else "")


def status() -> str:
    """One line: whether the native backend can be built here, with what, or why not."""
    why = missing()
    if why is not None:
        return f"native backend: unavailable here: {why}"
    from importlib.metadata import PackageNotFoundError, version
    cc = _compiler()[0]
    try:
        pb = version("pybind11")
    except PackageNotFoundError:
        pb = "?"
    return f"native backend: available here ({COMPILER} {cc or '?'}, pybind11 {pb})"


def plain_game(name: str, players: int, options: dict[str, Any] | None = None,
               limits: Limits = DEFAULT_LIMITS) -> Game:
    """A bundled game or rule file compiled without the optimizer (its inlined bodies are Python-only)."""
    r = compile_file(resolve(name), limits, optimize=False)
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


def _compile(args: list[str], out: Path, seconds: float, memory: int, what: str) -> None:
    """Run the compiler within the limits, writing `out` whole or not at all."""
    tmp = out.with_name(out.name + f".{os.getpid()}.tmp")

    def bounded() -> None:  # in the child, before exec: the compiler and what it runs inherit the cap
        import resource
        # A process may lower its hard limit but never raise it: under a smaller cap already (a sandbox, a
        # command run with `ulimit -v`) that one holds, where asking for more would fail the build unrun.
        hard = resource.getrlimit(resource.RLIMIT_AS)[1]
        cap = memory if hard == resource.RLIM_INFINITY else min(memory, hard)
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    try:
        r = subprocess.run([COMPILER, *args, "-o", str(tmp)], capture_output=True, text=True, timeout=seconds,
                           preexec_fn=bounded)
    except subprocess.TimeoutExpired:
        tmp.unlink(missing_ok=True)
        raise BuildError(f"the build of {what} passed its time limit of {seconds:g} s") from None
    except OSError as e:
        raise BuildError(f"the compiler ({COMPILER}) could not run: {e.strerror or e}") from None
    if r.returncode != 0:
        tmp.unlink(missing_ok=True)
        err = r.stderr
        if "memory exhausted" in err or "out of memory" in err or "std::bad_alloc" in err or r.returncode < 0:
            raise BuildError(f"the build of {what} passed its memory limit of {memory // MB:,} MB")
        if "-Werror=frame-larger-than=" in err:
            raise BuildError(f"the build of {what} failed: a function of the rules needs more than "
                             f"{FRAME_LIMIT // 1024:,} KB of stack")
        first = next((ln for ln in err.splitlines() if "error" in ln), err.strip().splitlines()[-1:] or [""])
        raise BuildError(f"the build of {what} failed: {str(first).strip()[:200]}")
    os.replace(tmp, out)  # whole or not at all, for another process building the same


@contextlib.contextmanager
def _building(out: Path) -> Iterator[None]:
    """Hold the lock of `out` while it is built: a second process wanting the same library (parallel test
    workers, simulate's workers) waits for the first and then finds it built, instead of compiling it too."""
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out.with_name(out.name + ".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def loader(force: bool = False, limits: BuildLimits = DEFAULT_BUILD_LIMITS,
           on_build: Callable[[str], None] | None = None) -> Any:
    """The binding, built once (keyed by its sources, the flags and the Python it is for). `on_build(what)` is
    told before a compile starts (a command says on a terminal why it waits)."""
    sources = "".join((HERE / f).read_text() for f in ("loader.cc", *HEADERS, *LOADER_HEADERS))
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    out = cache_dir() / f"cs_loader_{_digest(sources, ' '.join(FLAGS), suffix)}"
    so = out.with_suffix(suffix)
    if force or not so.exists():
        why = missing()
        if why is not None:
            raise BuildError(why)
        import pybind11
        with _building(so):
            if force or not so.exists():
                if on_build is not None:
                    on_build("the binding")
                inc = [f"-I{pybind11.get_include()}", f"-I{sysconfig.get_paths()['include']}", f"-I{HERE}"]
                _compile([*FLAGS, *inc, str(HERE / "loader.cc")], so, limits.binding_seconds, limits.memory,
                         "the binding")
    # The module's name is the one PYBIND11_MODULE gives it, whatever its file is called.
    return _import("cs_loader", so)


def library_source(prog: Program) -> str:
    """A game library's C++: the rules and the runtime, with the C ABI and no binding. The standard headers
    come first, before the game's own #defines, so that they can be read precompiled."""
    text = emit(prog, "m")
    lines = [ln for ln in text.splitlines() if not ln.startswith("PYBIND11_MODULE")]
    return f'#include "{STD}"\n' + "\n".join(lines).replace('#include "bind.h"', '#include "abi.h"') + \
        "\nCS_EXPORT(Rules)\n"


def _precompiled(limits: BuildLimits) -> list[str]:
    """The compiler flag that finds the standard headers precompiled (a folder holding std.h.gch, built once
    per cache, compiler and flags), or [] where it cannot be built: the compiler then reads std.h as text
    (`-I` the package), to the same code, about 0.3 s slower a game."""
    text = (HERE / STD).read_text()
    folder = cache_dir() / f"cs_std_{_digest(text, ' '.join(FLAGS), *_compiler())}"
    gch = folder / f"{STD}.gch"
    if not gch.exists():
        try:
            with _building(gch):
                if not gch.exists():
                    flags = [f for f in FLAGS if f != "-shared"]
                    _compile([*flags, "-x", "c++-header", str(HERE / STD)], gch, limits.seconds, limits.memory,
                             "the precompiled headers")
        except (BuildError, OSError):
            if not gch.exists():  # nothing half built left behind (a process waiting on the lock keeps its own)
                shutil.rmtree(folder, ignore_errors=True)
            return []
    return [f"-I{folder}"]


def game_library(prog: Program, force: bool = False, limits: BuildLimits = DEFAULT_BUILD_LIMITS,
                 what: str = "the game's library", on_build: Callable[[str], None] | None = None) -> tuple[Path, bool]:
    """The game's library (compiled unless cached) and whether it was compiled now (`on_build(what)` told
    first, as `loader` tells it)."""
    text = library_source(prog)
    size = len(text.encode())
    if size > limits.source:
        raise BuildError(f"the generated source of {what} ({size:,} bytes) passes its limit of "
                         f"{limits.source:,} bytes")
    headers = "".join((HERE / f).read_text() for f in HEADERS)
    so = cache_dir() / f"cs_game_{_digest(text, headers, ' '.join(GAME_FLAGS))}.so"
    if not force and so.exists():
        return so, False
    why = missing()
    if why is not None:
        raise BuildError(why)
    with _building(so):
        if not force and so.exists():  # built by another process while this one waited
            return so, False
        if on_build is not None:
            on_build(what)
        src = so.with_name(so.name + f".{os.getpid()}.cc")
        src.write_text(text)
        try:
            _compile([*GAME_FLAGS, *_precompiled(limits), f"-I{HERE}", str(src)], so, limits.seconds,
                     limits.memory, what)
        finally:
            src.unlink(missing_ok=True)
    return so, True


def native_game(name: str, players: int, options: dict[str, Any] | None = None) -> Any:
    """The native game of a bundled game or rule file (the binding's `Game`)."""
    so, _ = game_library(program(name, players, options))
    return loader().Game(str(so))
