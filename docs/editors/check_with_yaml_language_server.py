"""Ask the real yaml-language-server what an editor would show for cardsmith's files.

    python docs/editors/check_with_yaml_language_server.py [--server PATH]

It starts the language server over stdio, sets it up as docs/editors.md tells an editor to (the
`yaml.schemas` settings below, YAML 1.1), opens files as an editor would, and checks what it says:

- every bundled rule file (games/*.yaml), docs/examples/*.yaml and tests/scenarios/*.yaml: no diagnostic;
- a bundled game with one misspelt key: one diagnostic, on the line and column where `cardsmith validate`
  reports it (S001), and the same for a scenario file and for a file that names the schema in its first
  line (the modeline) instead of being mapped by the settings;
- completion on an empty line of a zone offers the zone keys not yet written, at the top the sections
  not yet written, and after `visible: ` the words everyone, owner, nobody; hover on a key gives its
  description.

The files are opened with the text the script gives them and are never written. The server is found
as --server, else $YAML_LANGUAGE_SERVER, else `yaml-language-server` on the PATH or beside the running
Python (`npm install -g --prefix .venv yaml-language-server` puts it in .venv/bin). Exit status 0 if
every check holds, 1 if one does not, 2 if there is no server. tests/test_schema_editor.py runs the
same checks.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

ROOT = Path(__file__).resolve().parents[2]
# The editor settings docs/editors.md gives, as the language server receives them.
SETTINGS: dict[str, Any] = {
    "yaml": {
        "schemas": {
            "./docs/schema/rules.schema.json": ["games/*.yaml", "tests/games/*.yaml", "docs/examples/*.yaml",
                                                "!*.scenarios.yaml"],
            "./docs/schema/scenarios.schema.json": ["tests/scenarios/*.yaml", "*.scenarios.yaml"],
        },
        "yamlVersion": "1.1",  # the YAML cardsmith reads: `zero_sum: yes` is true
        "validate": True, "hover": True, "completion": True,
        # Nothing from the network: only the schemas above.
        "schemaStore": {"enable": False}, "kubernetesCRDStore": {"enable": False},
    },
    "http": {}, "[yaml]": {}, "editor": {"tabSize": 2},
}
WAIT = 30.0  # seconds for one answer of the server
QUIET = 0.6  # seconds without new diagnostics for a file before its diagnostics are taken as final


def find_server(given: str | None = None) -> list[str] | None:
    """The command that starts yaml-language-server, or None if it is not installed."""
    for cand in (given, os.environ.get("YAML_LANGUAGE_SERVER"), shutil.which("yaml-language-server"),
                 str(Path(sys.prefix) / "bin" / "yaml-language-server")):
        if cand and Path(cand).is_file() and shutil.which("node"):
            return [cand, "--stdio"]
    return None


def uri(path: Path) -> str:
    return path.resolve().as_uri()


class Server:
    """A yaml-language-server process, spoken to over stdio with the Language Server Protocol."""

    def __init__(self, command: list[str], root: Path = ROOT, settings: dict[str, Any] = SETTINGS):
        self.settings = settings
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, cwd=root)
        self.lock = threading.Condition()
        self.answers: dict[int, Any] = {}
        self.diagnostics: dict[str, tuple[float, list[dict[str, Any]]]] = {}
        self.configured = 0  # configuration requests answered
        self.next_id = 0
        self.version = 0  # of every text opened: the server caches a document by its uri and version
        threading.Thread(target=self._read, daemon=True).start()
        self.request("initialize", {
            "processId": os.getpid(), "rootUri": uri(root),
            "workspaceFolders": [{"uri": uri(root), "name": "cardsmith"}],
            "capabilities": {
                "workspace": {"configuration": True, "didChangeConfiguration": {"dynamicRegistration": True}},
                "textDocument": {"publishDiagnostics": {}, "hover": {"contentFormat": ["plaintext", "markdown"]},
                                 "completion": {"completionItem": {"snippetSupport": False}}},
            }})
        self.notify("initialized", {})
        self.notify("workspace/didChangeConfiguration", {"settings": settings})
        self._wait(lambda: self.configured > 0, "the server to read the settings")

    # ------------------------------------------------------------ the protocol
    def _send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = 0
            while (line := out.readline()) not in (b"\r\n", b""):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            if not line:
                return
            self._receive(json.loads(out.read(length)))

    def _receive(self, msg: dict[str, Any]) -> None:
        method = msg.get("method")
        if method is not None and "id" in msg:  # the server asks the client
            if method == "workspace/configuration":
                items = msg["params"]["items"]
                self._send({"id": msg["id"], "result": [self.settings.get(i.get("section", ""), {}) for i in items]})
                with self.lock:
                    self.configured += 1
                    self.lock.notify_all()
            else:  # registrations, progress tokens: accepted
                self._send({"id": msg["id"], "result": None})
        elif method == "textDocument/publishDiagnostics":
            with self.lock:
                self.diagnostics[msg["params"]["uri"]] = (time.monotonic(), msg["params"]["diagnostics"])
                self.lock.notify_all()
        elif "id" in msg:
            with self.lock:
                self.answers[msg["id"]] = msg.get("result", msg.get("error"))
                self.lock.notify_all()

    def _wait(self, ready: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + WAIT
        with self.lock:
            while not ready():
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    raise RuntimeError(f"yaml-language-server did not answer in {WAIT:.0f} s: waiting for {what}")
                self.lock.wait(0.1)

    def request(self, method: str, params: dict[str, Any]) -> Any:
        self.next_id += 1
        n = self.next_id
        self._send({"id": n, "method": method, "params": params})
        self._wait(lambda: n in self.answers, method)
        return self.answers.pop(n)

    def notify(self, method: str, params: dict[str, Any]) -> None:
        self._send({"method": method, "params": params})

    def close(self) -> None:
        try:
            self.request("shutdown", {})
            self.notify("exit", {})
            self.proc.wait(timeout=5)
        except (RuntimeError, OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()

    # ------------------------------------------------------------ what an editor asks
    def open(self, files: dict[Path, str]) -> dict[Path, list[dict[str, Any]]]:
        """Open files with these texts (never read from or written to disk): the diagnostics the server gives
        each."""
        uris = {uri(path): path for path in files}
        with self.lock:
            for u in uris:
                self.diagnostics.pop(u, None)
        for u, path in uris.items():
            self.version += 1
            self.notify("textDocument/didOpen", {"textDocument": {"uri": u, "languageId": "yaml",
                                                                  "version": self.version, "text": files[path]}})
        self._wait(lambda: all(u in self.diagnostics for u in uris), "the diagnostics of every file opened")
        # The server may validate again (when a schema has loaded): the last of a quiet spell counts.
        self._wait(lambda: time.monotonic() - max(self.diagnostics[u][0] for u in uris) > QUIET, "quiet")
        with self.lock:
            found = {path: self.diagnostics[u][1] for u, path in uris.items()}
        for u in uris:  # the server then clears their diagnostics: taken first
            self.notify("textDocument/didClose", {"textDocument": {"uri": u}})
        return found

    def at(self, method: str, path: Path, text: str, line: int, col: int) -> Any:
        """A request at a place (both from 1, as cardsmith reports places) of a file opened with `text`."""
        u = uri(path)
        self.version += 1
        self.notify("textDocument/didOpen", {"textDocument": {"uri": u, "languageId": "yaml", "version": self.version,
                                                              "text": text}})
        try:
            return self.request(method, {"textDocument": {"uri": u},
                                         "position": {"line": line - 1, "character": col - 1}})
        finally:
            self.notify("textDocument/didClose", {"textDocument": {"uri": u}})

    def completion(self, path: Path, text: str, line: int, col: int) -> list[str]:
        result = self.at("textDocument/completion", path, text, line, col)
        items = result.get("items", []) if isinstance(result, dict) else result or []
        return [i["label"] for i in items]

    def hover(self, path: Path, text: str, line: int, col: int) -> str:
        result = self.at("textDocument/hover", path, text, line, col)
        contents = (result or {}).get("contents", "")
        return str(contents.get("value", "") if isinstance(contents, dict) else contents)


def place(d: dict[str, Any]) -> tuple[int, int]:
    """Where a diagnostic starts, as line and column from 1."""
    start = d["range"]["start"]
    return start["line"] + 1, start["character"] + 1


def shown(path: Path) -> str:
    p = Path(unquote(urlparse(uri(path)).path))
    return str(p.relative_to(ROOT)) if p.is_relative_to(ROOT) else str(p)


# ---------------------------------------------------------------- the checks
def bundled_files() -> list[Path]:
    return sorted(p for pattern in ("games/*.yaml", "docs/examples/*.yaml", "tests/scenarios/*.yaml")
                  for p in ROOT.glob(pattern))


def broken(text: str, old: str, new: str, key: str) -> tuple[str, int, int]:
    """`text` with its first `old` replaced by `new`, which writes `key`: the new text, and the line and column
    where `key` is written."""
    at = text.index(old)
    line = text.count("\n", 0, at) + 1
    col = at - (text.rfind("\n", 0, at) + 1) + 1 + new.index(key)
    return text.replace(old, new, 1), line, col


def validate_says(name: str, text: str) -> list[tuple[int, int, str]]:
    """Where `cardsmith validate` reports unknown keys (S001) in a rule file's text."""
    from cardsmith.dsl.pipeline import compile_text

    return [(d.span.line, d.span.col, d.message) for d in compile_text(text, name).diagnostics if d.code == "S001"]


def checks(server: Server, say: Callable[[str], None] = print) -> list[str]:
    """Every check of the module doc; the problems found (none if all hold)."""
    problems: list[str] = []

    def expect(ok: bool, what: str) -> None:
        say(("ok    " if ok else "FAIL  ") + what)
        if not ok:
            problems.append(what)

    opened = server.open({path: path.read_text(encoding="utf-8") for path in bundled_files()})
    for path, diags in opened.items():
        expect(not diags, f"{shown(path)}: {len(diags)} diagnostics"
               + "".join(f"\n        {place(d)}: {d['message']}" for d in diags))

    kuhn = (ROOT / "games" / "kuhn-poker.yaml").read_text(encoding="utf-8")
    text, line, col = broken(kuhn, "hand: {per_player: true, visible: owner}",
                             "hand: {per_player: true, visibel: owner}", "visibel")
    path = ROOT / "games" / "kuhn-poker-misspelt.yaml"  # under games/: the settings map it to the schema
    diags = server.open({path: text})[path]
    ours = validate_says(str(path), text)
    expect(len(diags) == 1 and place(diags[0]) == (line, col) and "visibel" in diags[0]["message"]
           and [(ln, c) for ln, c, _ in ours] == [(line, col)],
           f"{shown(path)}: an unknown key at {line}:{col}: yaml-language-server says "
           f"{[(place(d), d['message']) for d in diags]}; cardsmith validate says {ours}")

    text2 = "# yaml-language-server: $schema=../docs/schema/rules.schema.json\n" + text
    path = ROOT / "sandbox" / "kuhn-poker-modeline.yaml"  # mapped by nothing but its first line
    diags = server.open({path: text2})[path]
    expect(len(diags) == 1 and place(diags[0]) == (line + 1, col),
           f"{shown(path)} (the modeline): an unknown key at {line + 1}:{col}: "
           f"{[(place(d), d['message']) for d in diags]}")

    sc = (ROOT / "tests" / "scenarios" / "kuhn-poker.yaml").read_text(encoding="utf-8")
    text3, sline, scol = broken(sc, "    steps:", "    stepz:", "stepz")
    path = ROOT / "tests" / "scenarios" / "kuhn-poker-misspelt.yaml"
    diags = server.open({path: text3})[path]
    expect(len(diags) == 1 and place(diags[0]) == (sline, scol) and "stepz" in diags[0]["message"],
           f"{shown(path)}: an unknown key at {sline}:{scol}: {[(place(d), d['message']) for d in diags]}")

    # Completion on an empty line of the zone 'shown', written as a block: the zone keys it lacks.
    zone = "  shown: {per_player: true, doc: the cards turned up at a showdown}\n"
    text4 = kuhn.replace(zone, "  shown:\n    per_player: true\n    \n    doc: the cards turned up at a showdown\n")
    zline = text4[: text4.index("    per_player: true\n    \n")].count("\n") + 2
    got = server.completion(ROOT / "games" / "kuhn-poker-typing.yaml", text4, zline, 5)
    expect({"visible", "label", "show"} <= set(got) and "per_player" not in got and "doc" not in got,
           f"completion in a zone (line {zline}): {sorted(got)}")
    # At the top, on an empty line before 'deck:': the sections the file does not have yet.
    text5 = kuhn.replace("\ndeck:\n", "\n\n\ndeck:\n", 1)
    tline = text5[: text5.index("\n\n\ndeck:")].count("\n") + 2
    got = server.completion(ROOT / "games" / "kuhn-poker-typing.yaml", text5, tline, 1)
    expect({"options", "constants", "define", "strategies"} <= set(got) and "deck" not in got,
           f"completion at the top (line {tline}): {sorted(got)}")

    # The value of a zone's `visible`: the words of the language.
    stock = next(line for line in kuhn.splitlines() if line.startswith("  stock: {visible: nobody}"))
    text6 = kuhn.replace(stock, "  stock:\n    visible: ", 1)
    vline = text6[: text6.index("    visible: \n")].count("\n") + 1
    got = server.completion(ROOT / "games" / "kuhn-poker-typing.yaml", text6, vline, 14)
    expect(got == ["everyone", "owner", "nobody"], f"completion of 'visible: ' (line {vline}): {got}")

    hline = kuhn[: kuhn.index("  over_when:")].count("\n") + 1
    got_hover = server.hover(ROOT / "games" / "kuhn-poker.yaml", kuhn, hline, 4)
    expect("true ends the match" in got_hover, f"hover on 'over_when' (line {hline}): {got_hover!r}")
    return problems


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--server", help="the yaml-language-server executable")
    args = ap.parse_args(argv)
    command = find_server(args.server)
    if command is None:
        print("no yaml-language-server (or no node): install it with "
              "'npm install -g --prefix .venv yaml-language-server@1.25.0' (see docs/editors.md)", file=sys.stderr)
        return 2
    server = Server(command)
    try:
        problems = checks(server)
    finally:
        server.close()
    print(f"{len(problems)} of the checks failed" if problems else "every check holds")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
