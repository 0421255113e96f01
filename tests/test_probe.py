"""A scenario's probe (`compile_probe`) checks its expression with a fresh checker made from the compiled
game's symbols: one probe's diagnostics never land in another's list, the same wrong text is refused each
time it is probed, and the game's symbols do not change."""

from __future__ import annotations

from cardsmith.dsl.compiler import compile_probe
from cardsmith.dsl.diagnostics import Diagnostic, Span
from cardsmith.dsl.pipeline import compile_text
from conftest import ROOT


def _game():  # type: ignore[no-untyped-def]
    r = compile_text((ROOT / "games" / "hearts.yaml").read_text(encoding="utf-8"), "hearts.yaml")
    assert r.ok and r.game is not None
    return r.game


def _at(ln: int, col: int) -> Span:
    return Span("probe", ln, col)


def test_probes_keep_their_own_diagnostics() -> None:
    game = _game()
    first: list[Diagnostic] = []
    second: list[Diagnostic] = []
    assert compile_probe(game, "len(1)", _at, first) is None
    assert compile_probe(game, "len(hand[0])", _at, second) is not None
    assert second == []
    assert [d.code for d in first] == ["C029"]


def test_the_same_wrong_probe_is_refused_each_time() -> None:
    game = _game()
    for _ in range(2):
        diags: list[Diagnostic] = []
        assert compile_probe(game, "nothing_here + 1", _at, diags) is None
        assert [d.code for d in diags] == ["C019"], [d.message for d in diags]


def test_a_probe_leaves_the_symbols_as_they_were() -> None:
    game = _game()
    assert game.symbols is not None
    before = {k: list(v) for k, v in game.symbols.signatures.items()}
    cache = dict(game.symbols.func_cache)
    f = next(f for f in game.spec.functions if f.params)
    compile_probe(game, f"{f.name}(" + ", ".join(["[]"] * len(f.params)) + ")", _at, [])
    assert {k: list(v) for k, v in game.symbols.signatures.items()} == before
    assert dict(game.symbols.func_cache) == cache
