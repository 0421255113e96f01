"""docs/table.md shows the table of every bundled game: a screenshot per game (docs/table/shoot.py takes
them), each linked from the page."""

from __future__ import annotations

from conftest import GAME_FILES, ROOT


def test_every_bundled_game_has_its_table_screenshot_linked() -> None:
    page = (ROOT / "docs" / "table.md").read_text(encoding="utf-8")
    for path in GAME_FILES:
        shot = ROOT / "docs" / "table" / f"{path.stem}.png"
        png = shot.is_file() and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert png, f"take it with: python docs/table/shoot.py {path.stem}"
        assert f"(table/{path.stem}.png)" in page, path.stem
