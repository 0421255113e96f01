"""The tests' fork server (tests/forkserver.py): a command forked from the zygote behaves as the same
command in a fresh interpreter.

A small probe module, run with `-m` both ways (`fresh_cli` and `run_cli` with `module=`), reports what a
command can see of its process (arguments, sys.path, working directory, environment, standard streams,
signals, limits) and ends in each way a command can (an exit status, a SystemExit with text, a traceback,
a KeyboardInterrupt, a timeout): both ways must give the same status, stdout and stderr, byte for byte.
Then a few real `cardsmith` commands the same way (slow: the fresh interpreters).
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import forkserver
import pytest
from conftest import GAMES_DIR, ROOT
from forkserver import fresh_cli, run_cli

PROBE = '''\
import atexit, json, os, random, resource, signal, sys, threading, time
what = sys.argv[1]
if what == "state":
    main = sys.modules["__main__"]
    print(json.dumps({
        "argv": sys.argv, "orig_argv": sys.orig_argv, "path": sys.path, "cwd": os.getcwd(),
        "environ": dict(os.environ), "no_bytecode": sys.dont_write_bytecode, "name": __name__,
        "file": __file__, "spec": main.__spec__.name, "globals": sorted(globals()),
        "streams": [(s.encoding, s.errors, s.line_buffering, s.write_through, s.isatty(), s.fileno())
                    for s in (sys.stdin, sys.stdout, sys.stderr)],
        "signals": [str(signal.getsignal(n)) for n in (signal.SIGINT, signal.SIGPIPE, signal.SIGCHLD,
                                                         signal.SIGTERM, signal.SIGXFSZ)],
        "limit": resource.getrlimit(resource.RLIMIT_AS), "threads": threading.active_count(),
        "group": os.getpgrp() == os.getpgid(os.getppid()) or os.getpgrp(), "fds": sorted(os.listdir("/proc/self/fd")),
    }, sort_keys=True))
elif what == "exit":
    sys.exit(None if sys.argv[2] == "none" else int(sys.argv[2]) if sys.argv[2].lstrip("-").isdigit() else sys.argv[2])
elif what == "raise":
    print("before")
    raise ValueError("boom")
elif what == "interrupt":
    raise KeyboardInterrupt
elif what == "sleep":
    print(os.getpid(), flush=True)
    time.sleep(60)
elif what == "memory":
    print(resource.getrlimit(resource.RLIMIT_AS))
    try:
        block = bytearray(1536 << 20)
    except MemoryError:
        print("MemoryError")
elif what == "echo":
    data = sys.stdin.buffer.read()
    sys.stdout.buffer.write(data)
    print(len(data), file=sys.stderr)
elif what == "ending":
    threading.Thread(target=lambda: (time.sleep(0.2), print("thread"))).start()
    atexit.register(print, "atexit")
    sys.stdout.write("no newline")
elif what == "random":
    print(random.random())
elif what == "parent":
    print(os.getppid())
elif what == "file":
    open("made.txt", "w").write("x")
'''


# Where the zygote is switched off or cannot work, run_cli is fresh_cli and there is nothing to compare. Where
# it should work, these tests fail if it does not start (`both` asserts it).
pytestmark = pytest.mark.skipif(forkserver.unsupported() is not None, reason=str(forkserver.unsupported()))


@pytest.fixture
def probe(tmp_path: Path) -> Path:
    (tmp_path / "zyprobe.py").write_text(PROBE, encoding="utf-8")
    return tmp_path


def both(args: list[str], cwd: Path, **kw: object) -> tuple[subprocess.CompletedProcess[bytes], ...]:
    """The probe run fresh and forked (the forked one from the zygote, never a fallback)."""
    assert forkserver.status() in ("forked from a zygote", "not started yet"), forkserver.status()
    fresh = fresh_cli(args, cwd=cwd, module="zyprobe", **kw)  # type: ignore[arg-type]
    forked = run_cli(args, cwd=cwd, module="zyprobe", **kw)  # type: ignore[arg-type]
    assert forkserver.status() == "forked from a zygote"
    return fresh, forked


def parent(probe: Path, env: dict[str, str] | None = None) -> int:
    """The process id of the probe's parent: this process for a fresh interpreter, else the zygote."""
    return int(run_cli(["parent"], cwd=probe, module="zyprobe", env=env).stdout)


def same(fresh: subprocess.CompletedProcess[bytes], forked: subprocess.CompletedProcess[bytes]) -> None:
    assert (forked.returncode, forked.stdout, forked.stderr) == (fresh.returncode, fresh.stdout, fresh.stderr)
    assert forked.args == fresh.args


def test_what_the_command_sees(probe: Path) -> None:
    env = dict(os.environ, ZYGOTE_TEST="value")
    fresh, forked = both(["state", "a b", "ä\n"], probe, env=env, rlimit_as=1 << 30)
    same(fresh, forked)
    seen = json.loads(forked.stdout)
    assert seen["environ"]["ZYGOTE_TEST"] == "value"
    assert seen["cwd"] == seen["path"][0] == str(probe)
    assert seen["limit"] == [1 << 30, 1 << 30]
    assert seen["fds"] == ["0", "1", "2", "3"]  # the standard streams, and listdir's own


def test_the_environment_is_replaced(probe: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "HOME"} | {"ONLY_HERE": "1"}
    fresh, forked = both(["state"], probe, env=env)
    same(fresh, forked)
    assert "HOME" not in json.loads(forked.stdout)["environ"]


@pytest.mark.parametrize("code", ["0", "3", "300", "-1", "none", "a message"])
def test_exit_statuses(code: str, probe: Path) -> None:
    fresh, forked = both(["exit", code], probe)
    same(fresh, forked)
    assert forked.returncode == {"0": 0, "3": 3, "300": 300 & 0xFF, "-1": 255, "none": 0, "a message": 1}[code]


def test_a_crash_prints_the_same_traceback(probe: Path) -> None:
    fresh, forked = both(["raise"], probe)
    same(fresh, forked)
    assert forked.returncode == 1 and forked.stdout == b"before\n"
    assert forked.stderr.decode().startswith("Traceback (most recent call last):\n  File \"<frozen runpy>\"")
    assert forked.stderr.decode().endswith("ValueError: boom\n")


def test_a_keyboard_interrupt_ends_by_sigint(probe: Path) -> None:
    fresh, forked = both(["interrupt"], probe)
    same(fresh, forked)
    assert forked.returncode == -2


def test_threads_atexit_and_unflushed_output_end_as_in_an_interpreter(probe: Path) -> None:
    fresh, forked = both(["ending"], probe)
    same(fresh, forked)
    assert forked.stdout == b"no newlinethread\natexit\n"


def test_stdin_is_closed_or_given(probe: Path) -> None:
    same(*both(["echo"], probe))
    big = bytes(range(256)) * 8192  # 2 MiB: more than a pipe holds, both ways at once
    fresh, forked = both(["echo"], probe, input=big)
    same(fresh, forked)
    assert forked.stdout == big


def test_the_memory_limit(probe: Path) -> None:
    fresh, forked = both(["memory"], probe, rlimit_as=1 << 30)
    same(fresh, forked)
    assert forked.stdout.decode().splitlines() == ["(1073741824, 1073741824)", "MemoryError"]


def test_the_timeout_kills_the_command(probe: Path) -> None:
    with pytest.raises(subprocess.TimeoutExpired) as e:
        run_cli(["sleep"], cwd=probe, module="zyprobe", timeout=1.0)
    pid = int(e.value.output)  # what it printed before it was killed
    assert e.value.timeout == 1.0 and e.value.cmd == forkserver.command(["sleep"], "zyprobe")
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # killed and reaped by the zygote


def test_each_command_draws_its_own_random_numbers(probe: Path) -> None:
    runs = {run_cli(["random"], cwd=probe, module="zyprobe").stdout for _ in range(3)}
    assert len(runs) == 3


def test_bytecode_and_files_are_written_where_a_fresh_interpreter_writes_them(probe: Path, tmp_path: Path) -> None:
    for env in ({**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
                {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}):
        made = []
        for run in (fresh_cli, run_cli):
            run(["file"], cwd=probe, module="zyprobe", env=env)
            made.append(sorted(p.name for p in probe.iterdir()))
            for p in probe.iterdir():
                if p.name != "zyprobe.py":
                    subprocess.run(["rm", "-r", str(p)], check=True)
        assert made[0] == made[1]
        assert ("__pycache__" in made[0]) == ("PYTHONDONTWRITEBYTECODE" not in env)


def test_an_interpreter_setting_in_the_environment_runs_fresh(probe: Path) -> None:
    """PYTHONHASHSEED (and every PYTHON* variable the interpreter reads as it starts) cannot be changed in
    a forked child: that command runs in a fresh interpreter, whose parent is this process."""
    seed = "1" if os.environ.get("PYTHONHASHSEED") != "1" else "2"
    out = run_cli(["state"], cwd=probe, module="zyprobe", env={**os.environ, "PYTHONHASHSEED": seed}).stdout
    assert json.loads(out)["environ"]["PYTHONHASHSEED"] == seed
    assert parent(probe, {**os.environ, "PYTHONHASHSEED": seed}) == os.getpid()
    assert parent(probe) != os.getpid()
    assert forkserver.status() == "forked from a zygote"  # the zygote itself is still used for the others


def test_a_lost_zygote_falls_back_to_a_fresh_interpreter(probe: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    zygote, why = forkserver._start()
    assert zygote is not None, why
    monkeypatch.setitem(forkserver._STATE, "zygote", zygote)
    monkeypatch.setitem(forkserver._STATE, "started", True)
    monkeypatch.setitem(forkserver._STATE, "why", why)
    assert run_cli(["exit", "4"], cwd=probe, module="zyprobe").returncode == 4
    assert parent(probe) == zygote.proc.pid
    zygote.proc.kill()
    zygote.proc.wait()
    r = run_cli(["exit", "5"], cwd=probe, module="zyprobe")
    assert r.returncode == 5 and r.stderr == b""
    assert forkserver.status().startswith("the zygote was lost: ")
    assert run_cli(["exit", "6"], cwd=probe, module="zyprobe").returncode == 6
    assert parent(probe) == os.getpid()


def test_a_zygote_that_cannot_start_falls_back_to_a_fresh_interpreter(probe: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(forkserver, "BOOT", "import sys; print('no cardsmith here', file=sys.stderr); sys.exit(3)")
    zygote, why = forkserver._start()
    assert zygote is None
    assert why.startswith("the zygote refused: no answer (") and why.endswith("; its stderr ends: no cardsmith here")
    monkeypatch.setitem(forkserver._STATE, "zygote", None)
    monkeypatch.setitem(forkserver._STATE, "started", True)
    monkeypatch.setitem(forkserver._STATE, "why", why)
    assert parent(probe) == os.getpid()  # a fresh interpreter, started by this process
    assert forkserver.status() == why


def test_switched_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(forkserver.SWITCH, "0")
    assert forkserver._start() == (None, "CARDSMITH_TESTS_ZYGOTE=0")


def test_a_missing_folder_is_refused_as_subprocess_refuses_it(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        fresh_cli(["--version"], cwd=tmp_path / "nowhere")
    with pytest.raises(FileNotFoundError):
        run_cli(["--version"], cwd=tmp_path / "nowhere")


# ---------------------------------------------------------------- the real command, both ways
CLI_CASES = [
    ["--version"],
    ["--help"],
    ["bogus"],
    ["run", "schwimmen", "--seat", "9"],
    ["validate", str(GAMES_DIR / "schwimmen.yaml")],
    ["run", "kuhn-poker", "--seed", "1"],
    ["validate", str(ROOT / "tests" / "attacks" / "billion_laughs.yaml")],
    ["test", str(GAMES_DIR / "schwimmen.scenarios.yaml")],
]


@pytest.mark.slow
@pytest.mark.parametrize("args", CLI_CASES, ids=[" ".join(a[:2]) for a in CLI_CASES])
def test_cardsmith_forked_is_cardsmith_fresh(args: list[str], tmp_path: Path) -> None:
    env = dict(os.environ, COLUMNS="100")
    fresh = fresh_cli(args, cwd=tmp_path, env=env, timeout=60, rlimit_as=1 << 30)
    forked = run_cli(args, cwd=tmp_path, env=env, timeout=60, rlimit_as=1 << 30)
    same(fresh, forked)
    assert forkserver.status() == "forked from a zygote"
    assert list(tmp_path.iterdir()) == []
