"""`render_mode="rgb_array"` of the research environments: the table as one seat sees it, as an RGB frame.

The cards are drawn as the web table draws them (`web/static/cards.js` and `style.css`): a 60 x 84 card on
paper with the rank and a pip in the corner and a big pip in the middle (red hearts and diamonds), the suit's
name for a card of another suit, the name for a card with none; a face-down zone as the blue back with its
count. The pips are drawn as shapes, so no font with suit symbols is needed; text uses Pillow's own font.
Pillow (in the `rl` extra) is imported only when a frame is drawn.

Everything drawn comes from `state.observation(seat)`, so a card the seat cannot see is never drawn face up.
A frame's size is fixed for a game at its player count: zones sit in slots of a fixed width, three to a row
(a slot fans its cards closer as it fills), so recorders that want frames of one size get them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

CARD_W, CARD_H = 60, 84
SLOT_W, SLOT_H = 316, 112  # a zone: its label above its cards
COLUMNS = 3
WIDTH = COLUMNS * SLOT_W + 12
HEADER = 30
LINE = 16
# style.css's colours.
FELT, HEADER_BG, PAPER, INK, RED = (31, 94, 59), (34, 34, 51), (255, 253, 247), (34, 34, 34), (198, 40, 40)
BACK, BACK_FRAME, SPECIAL = (44, 79, 143), (155, 179, 223), (255, 244, 214)
FRENCH_RED = {"hearts", "diamonds"}
FRENCH = {"hearts", "diamonds", "spades", "clubs"}


def _cards(g: Any) -> dict[str, tuple[str | None, str]]:
    """Card name -> (suit, rank), from the game's card tables (kept on the game)."""
    kept = g.__dict__.get("_render_cards")
    if kept is None:
        from .dsl import abi
        suit_of, rank_of = g.ns[abi.card_table("suit")], g.ns[abi.card_table("rank")]
        kept = {name: (None if suit_of[c] is None else str(suit_of[c]), str(rank_of[c]))
                for c, name in enumerate(g.card_names)}
        g.__dict__["_render_cards"] = kept
    return kept  # type: ignore[no-any-return]


def _font(size: int) -> Any:
    from PIL import ImageFont
    return ImageFont.load_default(size=size)


def _pip(d: Any, cx: float, cy: float, s: float, suit: str, colour: tuple[int, int, int]) -> None:
    """A suit's symbol as shapes, centred at (cx, cy), about 2s high."""
    def disc(x: float, y: float, r: float) -> None:
        d.ellipse([x - r, y - r, x + r, y + r], fill=colour)
    if suit == "diamonds":
        d.polygon([(cx, cy - s), (cx + 0.72 * s, cy), (cx, cy + s), (cx - 0.72 * s, cy)], fill=colour)
    elif suit == "hearts":
        disc(cx - 0.48 * s, cy - 0.35 * s, 0.52 * s)
        disc(cx + 0.48 * s, cy - 0.35 * s, 0.52 * s)
        d.polygon([(cx - s, cy - 0.2 * s), (cx + s, cy - 0.2 * s), (cx, cy + s)], fill=colour)
    elif suit == "spades":
        d.polygon([(cx, cy - s), (cx - s, cy + 0.2 * s), (cx + s, cy + 0.2 * s)], fill=colour)
        disc(cx - 0.48 * s, cy + 0.25 * s, 0.52 * s)
        disc(cx + 0.48 * s, cy + 0.25 * s, 0.52 * s)
        d.polygon([(cx, cy + 0.2 * s), (cx - 0.4 * s, cy + s), (cx + 0.4 * s, cy + s)], fill=colour)
    else:  # clubs
        disc(cx, cy - 0.45 * s, 0.42 * s)
        disc(cx - 0.48 * s, cy + 0.15 * s, 0.42 * s)
        disc(cx + 0.48 * s, cy + 0.15 * s, 0.42 * s)
        d.polygon([(cx, cy), (cx - 0.4 * s, cy + s), (cx + 0.4 * s, cy + s)], fill=colour)


def _words(text: str, width: int) -> list[str]:
    """Words in lines of about `width` characters (cards.js's `lines`), at most five."""
    out: list[str] = []
    cur = ""
    for w in text.split():
        if cur and len(cur) + 1 + len(w) > width:
            out.append(cur)
            cur = w
        else:
            cur = f"{cur} {w}" if cur else w
    if cur:
        out.append(cur)
    return out[:5]


def _card(d: Any, x: float, y: float, suit: str | None, rank: str, name: str) -> None:
    small, rank_font = _font(10), _font(14)
    box = [x + 1, y + 1, x + CARD_W - 1, y + CARD_H - 1]
    if suit in FRENCH:
        colour = RED if suit in FRENCH_RED else INK
        d.rounded_rectangle(box, radius=6, fill=PAPER, outline=(85, 85, 85))
        d.text((x + 5, y + 4), rank, font=rank_font, fill=colour)
        _pip(d, x + 10, y + 27, 5, suit, colour)
        _pip(d, x + CARD_W / 2, y + 54, 13, suit, colour)
        return
    d.rounded_rectangle(box, radius=6, fill=PAPER if suit else SPECIAL, outline=(85, 85, 85))
    lines = _words(suit, 9) if suit else _words(name, 9)
    if suit:
        d.text((x + 5, y + 4), rank, font=rank_font, fill=INK)
    top = y + (36 if suit else 44 - 6 * (len(lines) - 1) - 6)
    for i, line in enumerate(lines):
        d.text((x + CARD_W / 2, top + 11 * i), line, font=small, fill=INK, anchor="mt")


def _back(d: Any, x: float, y: float, count: int) -> None:
    d.rounded_rectangle([x + 1, y + 1, x + CARD_W - 1, y + CARD_H - 1], radius=6, fill=BACK, outline=(238, 238, 238),
                        width=2)
    d.rounded_rectangle([x + 6, y + 6, x + CARD_W - 6, y + CARD_H - 6], radius=4, outline=BACK_FRAME)
    d.text((x + CARD_W / 2, y + 42), str(count), font=_font(20), fill=(255, 255, 255), anchor="mm")


def frame_size(g: Any) -> tuple[int, int]:
    """(width, height) of every frame of the game: a slot per zone, a line per variable (each seat's and team's)."""
    rows = -(-len(g.zone_specs) // COLUMNS)
    return WIDTH, HEADER + rows * SLOT_H + (len(g.var_specs) + 1) * LINE + 8


def rgb_frame(s: Any, seat: int) -> np.ndarray:
    """The table as `seat` sees it in state s: an (height, width, 3) uint8 array."""
    from PIL import Image, ImageDraw
    g = s.game
    obs = s.observation(seat)
    width, height = frame_size(g)
    img = Image.new("RGB", (width, height), FELT)
    d = ImageDraw.Draw(img)
    d.rectangle([0, 0, width, HEADER - 1], fill=HEADER_BG)
    text_font = _font(13)
    if s.is_terminal():
        winners = " and ".join(g.player_name(q) for q in s.winners) or "nobody"
        head = f"{g.name}: the match is over; winners: {winners}"
    else:
        cur = s.current_player()
        head = (f"{g.name}: {g.player_name(cur)} to act" if cur >= 0 else f"{g.name}: chance")
    head += f"   (as {g.player_name(seat)} sees it; deal {obs['deal']}, phase {obs['phase']})"
    d.text((8, 8), head, font=text_font, fill=(255, 255, 255))
    cards = _cards(g)
    for i, (name, v) in enumerate(list(obs["zones"].items())[:len(g.zone_specs)]):
        x0 = 6 + (i % COLUMNS) * SLOT_W
        y0 = HEADER + (i // COLUMNS) * SLOT_H + 4
        count = len(v) if isinstance(v, list) else int(v or 0)
        d.text((x0 + 2, y0), f"{name} ({count})", font=text_font, fill=(255, 255, 255))
        y = y0 + LINE + 4
        if not isinstance(v, list):
            if count:
                _back(d, x0, y, count)
            else:
                d.rounded_rectangle([x0 + 1, y + 1, x0 + CARD_W - 1, y + CARD_H - 1], radius=6, outline=(60, 120, 85))
            continue
        if not v:
            d.rounded_rectangle([x0 + 1, y + 1, x0 + CARD_W - 1, y + CARD_H - 1], radius=6, outline=(60, 120, 85))
            continue
        step = min(CARD_W + 4, (SLOT_W - 12 - CARD_W) / max(1, len(v) - 1))
        for k, card in enumerate(v):
            suit, rank = cards.get(card, (None, card))
            _card(d, x0 + k * step, y, suit, rank, card)
    y = HEADER + (-(-len(g.zone_specs) // COLUMNS)) * SLOT_H + 4
    for name, value in list(obs["variables"].items())[:len(g.var_specs)]:
        d.text((8, y), f"{name} = {value}", font=text_font, fill=(255, 255, 255))
        y += LINE
    return np.asarray(img, dtype=np.uint8)


__all__ = ["frame_size", "rgb_frame"]
