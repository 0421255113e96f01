"""The editors' schema in the real yaml-language-server, set up as docs/editors.md says.

docs/editors/check_with_yaml_language_server.py starts the server over stdio and checks what an editor
would show: no diagnostic in any bundled file, one at the right place for a misspelt key (mapped by the
settings, by the modeline, in a scenario file), completion of a zone's keys and of the sections, hover
text. This runs those checks. The server is a Node.js program: skipped where it is not installed
(`npm install -g --prefix .venv yaml-language-server@1.25.0`, docs/editors.md).
"""

from __future__ import annotations

import copy
import importlib.util
import sys
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest
from conftest import ROOT

pytestmark = [pytest.mark.editor]

SCRIPT = ROOT / "docs" / "editors" / "check_with_yaml_language_server.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_with_yaml_language_server", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


check = _script()
COMMAND = check.find_server()
needs_server = pytest.mark.skipif(COMMAND is None, reason="yaml-language-server (and node) not installed")


@pytest.fixture(scope="module")
def server() -> Iterator[Any]:
    s = check.Server(COMMAND)
    yield s
    s.close()


@needs_server
def test_the_language_server_agrees(server: Any) -> None:
    problems = check.checks(server, say=lambda line: None)
    assert not problems, "\n".join(problems)


@needs_server
def test_yaml_1_1_is_the_setting_that_reads_yes_as_true() -> None:
    """Without `yaml.yamlVersion: "1.1"` the server reads `zero_sum: yes` as the text "yes" (YAML 1.2), which
    cardsmith (and YAML 1.1) read as true: the setting docs/editors.md gives is needed."""
    settings = copy.deepcopy(check.SETTINGS)
    del settings["yaml"]["yamlVersion"]
    s = check.Server(COMMAND, settings=settings)
    try:
        kuhn = ROOT / "games" / "kuhn-poker.yaml"
        text = kuhn.read_text(encoding="utf-8")
        diags = s.open({kuhn: text})[kuhn]
    finally:
        s.close()
    line = text[: text.index("zero_sum: yes")].count("\n") + 1
    assert [(check.place(d)[0], d["message"]) for d in diags] == [(line, 'Incorrect type. Expected "boolean".')]


def test_the_script_says_when_there_is_no_server(capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(check, "find_server", lambda given=None: None)
    assert check.main([]) == 2
    assert "npm install" in capsys.readouterr().err
