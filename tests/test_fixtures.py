"""The shared test fixtures (conftest.py): game_with writes the rule files that several modules build on."""

from __future__ import annotations

from cardsmith.dsl.pipeline import compile_text
from conftest import BASE_GAME, game_with


def test_game_with_nothing_is_the_base_game_and_it_compiles() -> None:
    assert game_with() == BASE_GAME.read_text(encoding="utf-8")
    r = compile_text(game_with(), "base.yaml")
    assert r.ok and not r.diagnostics, [d.message for d in r.diagnostics]


def test_game_with_replaces_adds_in_order_and_leaves_out() -> None:
    text = game_with(game="Mini", define="twice(x): x * 2\n", players=None)
    lines = text.splitlines()
    assert lines[0] == "game: Mini" and "players:" not in text
    # define: goes between zones: and actions:, as the docs order the sections, its block indented.
    assert lines.index("define:") == lines.index("actions:") - 2 and lines[lines.index("define:") + 1] == \
        "  twice(x): x * 2"
    assert lines.index("zones:") < lines.index("define:")
    r = compile_text(game_with(game="Mini", define="twice(x): x * 2\n"), "mini.yaml")
    assert r.ok, [d.message for d in r.diagnostics]
