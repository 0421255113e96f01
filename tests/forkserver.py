"""A fork server for the tests (a "zygote"): `python -m cardsmith ARGS` without paying Python's start-up.

Many tests run the command line in a fresh interpreter, under limits (the attack files, the bad command
lines): a bare `python -m cardsmith` takes about 0.3 s to import what it needs, far more than most of those
commands take once imported. `run_cli` runs the same command in a separate process that skips that: each
test process (pytest-xdist worker) starts, on first use, one helper process (the zygote) that imports
cardsmith's command line once, then for each command `os.fork()`s a child that does what the fresh
interpreter did, in the same isolation, because it is a separate process too:

* its stdin, stdout and stderr are pipes (or /dev/null) the test process made and passed over a Unix
  socket, its working directory and environment (os.environ replaced) are the request's, RLIMIT_AS is set
  in it, it is killed (SIGKILL) when the timeout runs out, and the test process gets its exit status as
  `subprocess.run` gives it (negative for a signal);
* it runs `runpy._run_module_as_main(module)`, what `python -m cardsmith` runs, with sys.argv,
  sys.orig_argv and sys.path[0] as `-m` sets them, so argument parsing, error printing and exit codes are
  the real ones; an uncaught exception is printed by sys.excepthook from the same frame on as in a fresh
  interpreter, and the child then leaves the way an interpreter does (threads joined, atexit handlers,
  standard streams flushed, exit status 120 if stdout cannot be flushed).

What a forked child shares with the zygote: the modules it imported (their caches, the parser's tables)
and what the interpreter read as it started. So a request whose environment differs from the zygote's in
what the interpreter reads when it starts (PYTHON* variables but PYTHONDONTWRITEBYTECODE, which the child
applies; the locale's LANG, LC_ALL, LC_CTYPE; TZ) runs in a fresh interpreter instead, and the child
re-seeds `random` and forgets tempfile's folder, which a fresh process would pick anew. The seed of str
hashes cannot be re-drawn: it is random for each zygote (each test process and run), not for each command,
so set orders vary across runs rather than commands. Everything cardsmith reads from the environment
(CARDSMITH_NATIVE_CACHE, XDG_*, HOME) it reads when used, not when imported, so the request's environment
applies. The zygote's objects are frozen out of the garbage collector's sight (gc.freeze), so that the
children share their memory pages instead of copying them as the collector touches them (they are the
imported modules' own, which a fresh interpreter also keeps to its end). The zygote is spawned with
subprocess (fork and exec) and has no threads when it forks (it refuses to serve if it has any); the pytest
worker itself is never forked.

If the zygote cannot start or dies, or CARDSMITH_TESTS_ZYGOTE=0 is set, every command runs in a fresh
interpreter (`fresh_cli`, what the tests did before), so the tests never fail because of this helper.
This module imports only the standard library: the zygote imports it before cardsmith.
"""

from __future__ import annotations

import atexit
import errno
import gc
import json
import os
import resource
import select
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from importlib import import_module
from io import StringIO
from pathlib import Path
from typing import Any

SWITCH = "CARDSMITH_TESTS_ZYGOTE"  # "0": every command in a fresh interpreter
# What the zygote imports before it forks: the command line and the modules of the commands the tests run
# this way (not serve or simulate: their web and plotting libraries are not needed and could start threads).
PRELOAD = ("cardsmith.cli.main", "cardsmith.cli.validate", "cardsmith.cli.run", "cardsmith.cli.scenarios",
           "cardsmith.cli.play", "cardsmith.cli.replay", "cardsmith.cli.explain", "cardsmith.cli.listing",
           "cardsmith.cli.bots", "cardsmith.cli.bench", "cardsmith.cli.emit", "cardsmith.cli.new",
           "cardsmith.cli.schema", "cardsmith.dsl.lint", "cardsmith.dsl.pipeline", "cardsmith.engine.game")
# Read by the interpreter as it starts (stream encodings, buffering, hash seed, sys.path, time zone): a
# request that sets them otherwise than the zygote's environment needs a fresh interpreter.
STARTUP_KEYS = ("LANG", "LC_ALL", "LC_CTYPE", "TZ")
APPLIED_KEYS = ("PYTHONDONTWRITEBYTECODE",)  # read at start-up too, but the child sets it from the request
MAX_MESSAGE = 1 << 20  # a request (arguments and environment) is one datagram
START_TIMEOUT = 120.0  # the zygote's imports, on a loaded machine
GRACE = 10.0  # beyond a command's timeout, how long to wait for the zygote to report the kill
BOOT = "import sys; sys.path[0] = sys.argv[1]; import forkserver; sys.exit(forkserver.serve(int(sys.argv[2])))"


# ================================================================ the test process's side
def command(args: Sequence[str], module: str = "cardsmith") -> list[str]:
    """The command line a fresh interpreter runs (also what TimeoutExpired and CompletedProcess show)."""
    return [sys.executable, "-m", module, *args]


def fresh_cli(args: Sequence[str], *, cwd: str | os.PathLike[str], env: Mapping[str, str] | None = None,
              input: bytes | None = None, timeout: float | None = None, rlimit_as: int | None = None,
              module: str = "cardsmith") -> subprocess.CompletedProcess[bytes]:
    """`python -m cardsmith ARGS` in a fresh interpreter: `subprocess.run` with the output captured, stdin
    from /dev/null unless `input` is given, RLIMIT_AS set before the interpreter starts. (`module`: another
    module run with -m, for this helper's own tests.)"""
    limit = None if rlimit_as is None else _limiter(rlimit_as)
    given = None if env is None else dict(env)
    if input is None:
        return subprocess.run(command(args, module), cwd=cwd, env=given, stdin=subprocess.DEVNULL,
                              capture_output=True, timeout=timeout, preexec_fn=limit)
    return subprocess.run(command(args, module), cwd=cwd, env=given, input=input, capture_output=True,
                          timeout=timeout, preexec_fn=limit)


def run_cli(args: Sequence[str], *, cwd: str | os.PathLike[str], env: Mapping[str, str] | None = None,
            input: bytes | None = None, timeout: float | None = None, rlimit_as: int | None = None,
            module: str = "cardsmith") -> subprocess.CompletedProcess[bytes]:
    """What `fresh_cli` does, with the same result (or subprocess.TimeoutExpired with the output so far),
    in a child forked from this process's zygote; in a fresh interpreter if the zygote cannot do it."""
    want = dict(os.environ if env is None else env)
    zygote = _zygote()
    if zygote is None or not zygote.fits(want):
        return fresh_cli(args, cwd=cwd, env=want, input=input, timeout=timeout, rlimit_as=rlimit_as, module=module)
    where = os.path.abspath(cwd)
    if not os.path.isdir(where):  # subprocess.run raises it in the caller too
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), where)
    try:
        return zygote.run(module, list(args), where, want, input, timeout, rlimit_as)
    except _Lost:  # the zygote died (then every later command runs fresh too), or the request was too large
        return fresh_cli(args, cwd=cwd, env=want, input=input, timeout=timeout, rlimit_as=rlimit_as, module=module)


def status() -> str:
    """Whether this process's commands run in forked children, and if not, why (for the tests and -s)."""
    with _LOCK:
        zygote = _STATE["zygote"]
        return "forked from a zygote" if zygote is not None and not zygote.broken else str(_STATE["why"])


class _Lost(Exception):
    """The zygote died or broke the protocol."""


class _Zygote:
    """The test process's end: the zygote's process, its socket, and one command at a time."""

    def __init__(self, proc: subprocess.Popen[bytes], sock: socket.socket, folder: str, env: dict[str, str]):
        self.proc, self.sock, self.folder = proc, sock, folder
        self.startup = _startup_part(env)
        self.coerced: dict[str, str] = {}  # what the interpreter added to its environment as it started
        self.lock = threading.Lock()
        self.broken = False

    def fits(self, env: Mapping[str, str]) -> bool:
        return not self.broken and _startup_part(env) == self.startup

    def run(self, module: str, args: list[str], cwd: str, env: dict[str, str], input: bytes | None,
            timeout: float | None, rlimit_as: int | None) -> subprocess.CompletedProcess[bytes]:
        env = {**env, **{k: v for k, v in self.coerced.items() if k not in env}}
        request = json.dumps({"module": module, "args": args, "cwd": cwd, "env": env, "timeout": timeout,
                              "rlimit_as": rlimit_as}).encode()
        if len(request) > MAX_MESSAGE // 2:  # more than the socket takes in one datagram
            raise _Lost("the request is too large")
        with self.lock:
            if self.broken:
                raise _Lost("the zygote was lost")
            try:
                return self._run(command(args, module), request, input, timeout)
            except subprocess.TimeoutExpired:
                raise
            except BaseException as e:  # the protocol is out of step: no later command may use it
                self.broken = True
                log = self.log
                self.close()
                with _LOCK:
                    _STATE["why"] = f"the zygote was lost: {e!r}{log}"
                if isinstance(e, (_Lost, OSError, ValueError)):
                    raise _Lost from e
                raise

    def _run(self, cmd: list[str], request: bytes, input: bytes | None,
             timeout: float | None) -> subprocess.CompletedProcess[bytes]:
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        if input is None:
            in_r, in_w = os.open(os.devnull, os.O_RDONLY), -1
        else:
            in_r, in_w = os.pipe()
        talk = _Exchange(self.sock, in_w, input or b"", out_r, err_r)
        start = time.monotonic()
        try:
            try:
                socket.send_fds(self.sock, [request], [in_r, out_w, err_w])
            finally:
                for fd in (in_r, out_w, err_w):  # the child's ends: the zygote has its own copies now
                    os.close(fd)
            reply = self._reply(START_TIMEOUT, "the zygote did not fork")
            if "pid" not in reply:
                raise _Lost(reply.get("error", reply))
            done = talk.until(None if timeout is None else start + timeout)
            if done is None:  # the deadline came first: the zygote kills the child at its own deadline
                done = self._reply(GRACE, "the zygote did not report a killed command")
            talk.drain()
        finally:
            talk.close()
        out, err = talk.out.data(), talk.err.data()
        if done.get("timed_out") or not (talk.out.closed and talk.err.closed):
            raise subprocess.TimeoutExpired(cmd, timeout or 0.0, output=out, stderr=err)
        return subprocess.CompletedProcess(cmd, int(done["status"]), out, err)

    def _reply(self, wait: float | None, late: str = "") -> dict[str, Any]:
        """The zygote's next message; _Lost if none comes within `wait` seconds (saying `late`)."""
        self.sock.settimeout(wait)
        try:
            msg, _fds, flags, _ = socket.recv_fds(self.sock, MAX_MESSAGE, 0)
        except TimeoutError as e:
            raise _Lost(late) from e
        finally:
            self.sock.settimeout(None)
        if not msg or flags & socket.MSG_TRUNC:
            raise _Lost("the zygote closed its socket")
        reply: dict[str, Any] = json.loads(msg)
        return reply

    @property
    def log(self) -> str:
        """The end of what the zygote wrote on its stderr (nothing unless it failed), for messages."""
        try:
            with open(os.path.join(self.folder, "log"), "rb") as f:
                f.seek(max(0, os.fstat(f.fileno()).st_size - 1000))
                text = f.read().decode("utf-8", "replace").strip()
        except OSError:
            return ""
        return f"; its stderr ends: {text}" if text else ""

    def close(self) -> None:
        self.sock.close()  # the zygote reads the end of its socket and leaves
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


class _Stream:
    """One pipe read to its end, without blocking."""

    def __init__(self, fd: int):
        self.fd, self.chunks, self.closed = fd, list[bytes](), False
        os.set_blocking(fd, False)

    def read(self) -> bool:
        """Read one chunk; False if there was none to read now."""
        try:
            chunk = os.read(self.fd, 1 << 16)
        except BlockingIOError:
            return False
        if chunk:
            self.chunks.append(chunk)
        else:
            self.closed = True
        return bool(chunk)

    def data(self) -> bytes:
        return b"".join(self.chunks)


class _Exchange:
    """A running command: its input written, its output read, and the zygote's report of its end awaited,
    all at once (as subprocess's communicate does), until all are done or the deadline passes."""

    def __init__(self, sock: socket.socket, in_w: int, input: bytes, out_r: int, err_r: int):
        self.sock, self.in_w, self.input = sock, in_w, memoryview(input)  # in_w: -1 for /dev/null
        self.out, self.err = _Stream(out_r), _Stream(err_r)

    def until(self, deadline: float | None) -> dict[str, Any] | None:
        """The zygote's report of the child's end once the output is read to its end, or None if the
        deadline comes first."""
        done: dict[str, Any] | None = None
        with selectors.DefaultSelector() as sel:
            sel.register(self.out.fd, selectors.EVENT_READ, self.out)
            sel.register(self.err.fd, selectors.EVENT_READ, self.err)
            sel.register(self.sock, selectors.EVENT_READ, None)
            if self.input:
                os.set_blocking(self.in_w, False)
                sel.register(self.in_w, selectors.EVENT_WRITE, "in")
            else:
                self._close_input()
            while len(sel.get_map()):
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    return None
                for key, _ in sel.select(left):
                    if key.data == "in":
                        if not self._write():
                            sel.unregister(self.in_w)
                            self._close_input()
                    elif key.data is None:
                        done = self._done()
                        sel.unregister(self.sock)
                    else:
                        key.data.read()
                        if key.data.closed:
                            sel.unregister(key.data.fd)
        return done

    def drain(self) -> None:
        """Read what the pipes hold now (a killed child's last output), without waiting for more."""
        for stream in (self.out, self.err):
            while not stream.closed and stream.read():
                pass

    def close(self) -> None:
        self._close_input()
        for stream in (self.out, self.err):
            os.close(stream.fd)

    def _write(self) -> bool:
        """Write what the pipe takes; False once all is written or the child closed its end."""
        try:
            n = os.write(self.in_w, self.input[:select.PIPE_BUF])
        except BlockingIOError:
            return True
        except BrokenPipeError:
            return False
        self.input = self.input[n:]
        return bool(self.input)

    def _close_input(self) -> None:
        if self.in_w >= 0:
            os.close(self.in_w)
            self.in_w = -1

    def _done(self) -> dict[str, Any]:
        msg, _fds, _flags, _ = socket.recv_fds(self.sock, MAX_MESSAGE, 0)
        if not msg:
            raise _Lost("the zygote closed its socket during a command")
        done: dict[str, Any] = json.loads(msg)
        return done


_LOCK = threading.Lock()
_STATE: dict[str, Any] = {"zygote": None, "started": False, "why": "not started yet"}


def _zygote() -> _Zygote | None:
    """This process's zygote, started on first use; None if it cannot run here (then `status` says why)."""
    with _LOCK:
        if not _STATE["started"]:
            _STATE["started"] = True
            _STATE["zygote"], _STATE["why"] = _start()
        zygote: _Zygote | None = _STATE["zygote"]
        return None if zygote is None or zygote.broken else zygote


def unsupported() -> str | None:
    """Why this process cannot use a zygote (switched off, or the platform lacks what it needs), or None."""
    if os.environ.get(SWITCH) == "0":
        return f"{SWITCH}=0"
    if not (hasattr(os, "fork") and hasattr(socket, "send_fds") and hasattr(os, "pidfd_open")):
        return "this platform has no fork, send_fds or pidfd_open"
    return None


def _start() -> tuple[_Zygote | None, str]:
    why = unsupported()
    if why is not None:
        return None, why
    folder = tempfile.mkdtemp(prefix="cardsmith-zygote-")
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    env = dict(os.environ)
    try:
        os.mkdir(os.path.join(folder, "cwd"))
        with open(os.path.join(folder, "log"), "wb") as stderr:
            proc = subprocess.Popen([sys.executable, "-c", BOOT, str(Path(__file__).parent), str(theirs.fileno())],
                                    cwd=os.path.join(folder, "cwd"), env=env, stdin=subprocess.DEVNULL,
                                    stdout=subprocess.DEVNULL, stderr=stderr, pass_fds=[theirs.fileno()])
    except OSError as e:
        ours.close()
        shutil.rmtree(folder, ignore_errors=True)
        return None, f"the zygote could not be started: {e!r}"
    finally:
        theirs.close()
    zygote = _Zygote(proc, ours, folder, env)
    try:
        ready = zygote._reply(START_TIMEOUT, "the zygote did not say it was ready")
    except (_Lost, OSError, ValueError) as e:
        ready = {"why": f"no answer ({e!r})"}
    if ready.get("ready") is not True:
        said = zygote.log
        zygote.close()
        return None, f"the zygote refused: {ready.get('why', ready)}{said}"
    # PEP 538: in the C locale the interpreter sets LC_CTYPE in its own environment as it starts; a fresh
    # interpreter given the same environment would do the same.
    zygote.coerced = {k: v for k, v in ready["startup_env"].items() if k not in env}
    atexit.register(zygote.close)
    return zygote, "forked from a zygote"


def _startup_part(env: Mapping[str, str]) -> dict[str, str]:
    return {k: v for k, v in env.items()
            if (k.startswith("PYTHON") and k not in APPLIED_KEYS) or k in STARTUP_KEYS}


def _limiter(limit: int) -> Any:
    def set_limit() -> None:  # in the child, before it runs anything
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    return set_limit


# ================================================================ the zygote's side
def serve(fd: int) -> int:
    """The zygote's loop over the socket `fd`: import cardsmith, say whether it can fork, then fork a child
    for each request. Returns the exit status: the zygote's (0) when the test process closes the socket,
    or, in a forked child, the command's, which the interpreter then exits with as `python -m` would."""
    sock = socket.socket(fileno=fd)
    sys.path[0] = os.getcwd()  # as `-m` sets it, until a child sets its own
    why = _preload()
    _send(sock, {"ready": why is None, "why": why, "startup_env": _startup_part(os.environ)})
    if why is not None:
        return 0
    while True:
        msg, fds, flags, _ = socket.recv_fds(sock, MAX_MESSAGE, 3)
        if not msg:  # the test process is gone
            return 0
        request = json.loads(msg)
        if flags & socket.MSG_TRUNC or len(fds) != 3:
            _send(sock, {"error": "a truncated request"})
            return 0
        sys.stdout.flush()
        sys.stderr.flush()
        # Out of the collector's sight, the zygote's objects stay shared with the child instead of being copied
        # page by page when it collects or exits (the collector would touch every one of them).
        gc.freeze()
        pid = os.fork()
        if pid == 0:
            return _child(request, fds, sock)
        for f in fds:
            os.close(f)
        _send(sock, {"pid": pid})
        try:
            code, timed_out = _wait(pid, request["timeout"], sock)
        except _Lost:
            return 0
        _send(sock, {"status": code, "timed_out": timed_out})


def _preload() -> str | None:
    """Import what the commands need; why the zygote must not fork, or None."""
    said = StringIO()
    sys.stderr, real = said, sys.stderr
    try:
        for name in PRELOAD:
            import_module(name)
    except Exception as e:
        return f"importing cardsmith failed: {e!r}"
    finally:
        sys.stderr = real
    if said.getvalue():  # a warning a fresh interpreter would print in every command: not one to hide
        return f"importing cardsmith wrote to stderr: {said.getvalue()[:500]!r}"
    if threading.active_count() > 1:
        return f"{threading.active_count()} threads after the imports: forking is not safe"
    try:
        os.close(os.pidfd_open(os.getpid()))
    except OSError as e:
        return f"no pidfd_open: {e!r}"
    return None


def _send(sock: socket.socket, what: dict[str, Any]) -> None:
    sock.send(json.dumps(what).encode())


def _wait(pid: int, timeout: float | None, sock: socket.socket) -> tuple[int, bool]:
    """The child's exit status (as subprocess gives it) and whether it was killed at its deadline. A
    closed socket (the test process is gone) kills it too, and raises _Lost."""
    deadline = None if timeout is None else time.monotonic() + timeout
    pidfd = os.pidfd_open(pid)
    try:
        poll = select.poll()
        poll.register(pidfd, select.POLLIN)
        poll.register(sock, select.POLLIN)
        while True:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                os.kill(pid, signal.SIGKILL)
                return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]), True
            events = poll.poll(None if left is None else max(1, int(left * 1000) + 1))
            if any(f == sock.fileno() for f, _ in events):
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                raise _Lost("the test process is gone")
            if events:
                return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]), False
    finally:
        os.close(pidfd)


def _child(request: dict[str, Any], fds: list[int], sock: socket.socket) -> int:
    """In the forked child: become `python -m cardsmith ARGS` as the request describes, run it, and return
    its exit status."""
    try:
        for target, f in enumerate(fds):
            os.dup2(f, target)
        for f in fds:
            if f > 2:
                os.close(f)
        sock.close()
        if request["rlimit_as"] is not None:
            resource.setrlimit(resource.RLIMIT_AS, (request["rlimit_as"], request["rlimit_as"]))
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
    except BaseException as e:  # before the command started: say so where the test will look
        os.write(2, f"forkserver: the child could not be set up: {e!r}\n".encode())
        os._exit(255)
    _fresh_state(request["module"], request["args"])
    return _run_main(request["module"])


def _fresh_state(module: str, args: list[str]) -> None:
    """What a fresh interpreter would have anew: its arguments, sys.path[0], bytecode writing, the random
    seed, the temporary folder."""
    import random
    main = sys.modules["__main__"]  # the zygote's `-c` module, which runpy runs the command in
    for name in [n for n in vars(main) if not n.startswith("__")]:
        delattr(main, name)
    sys.argv = ["-m", *args]  # runpy puts the module's path first
    sys.orig_argv = command(args, module)
    sys.path[0] = os.getcwd()
    sys.dont_write_bytecode = bool(os.environ.get("PYTHONDONTWRITEBYTECODE"))
    random.seed()
    tempfile.tempdir = None


def _run_main(module: str) -> int:
    """`python -m MODULE` (cardsmith: its package's __main__), and what escapes it turned into an exit
    status as the interpreter does (SystemExit's code, or a traceback and 1)."""
    import runpy
    atexit.register(_die_of_sigint)  # before the command's own handlers, so run after them
    try:
        runpy._run_module_as_main(module)  # type: ignore[attr-defined]
    except SystemExit as e:
        return _exit_status(e.code)
    except BaseException as e:
        # The traceback from runpy's frame on, as a fresh interpreter prints it (this function's frame is
        # the zygote's, not the command's).
        if e.__traceback__ is not None:
            e.__traceback__ = e.__traceback__.tb_next
        sys.excepthook(type(e), e, e.__traceback__)
        _INTERRUPTED[:] = [isinstance(e, KeyboardInterrupt)]
        return 1
    return 0


def _exit_status(code: object) -> int:
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


_INTERRUPTED = [False]


def _die_of_sigint() -> None:
    """After an uncaught KeyboardInterrupt the interpreter dies of SIGINT, as a shell expects."""
    if not _INTERRUPTED[0]:
        return
    sys.stdout.flush()
    sys.stderr.flush()
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGINT)
