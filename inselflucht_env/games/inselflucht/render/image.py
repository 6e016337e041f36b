"""Picture of a state (Gymnasium ``render_mode="rgb_array"``), drawn with Pillow.

Only public information is used (R9): a hidden place is a card back, the same for every
hidden card, and the undrawn flood decks are never read. The picture has a fixed size,
``HEIGHT x WIDTH x 3`` uint8, and depends on nothing but the public state, so two deals
that differ only in hidden cards give the same array.

Left: the 5 x 5 island on the water, column numbers on top and row numbers on the left.
A dry place is a white card standing upright, a flooded one the same card turned sideways
and tinted blue, a hidden one a red card back, a sea place water with waves. Kings have a
gold frame and a crown; a lifted treasure puts a gold star on its king. The helicopter is a
grey-green card with a helipad. Figures are coloured discs with their number; the active
figure has a white ring, a figure that decides while another is active a yellow one.
Right: turn, actions, the water meter, the flood cards of this pass, treasures, salvage per
figure, the pending decision and the outcome.

Suits are drawn as shapes (no special font needed) and every sprite is rendered once at
three times the size, scaled down for smooth edges, and cached.
"""

from __future__ import annotations

from functools import cache, lru_cache

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from inselflucht_env.games.inselflucht.rules.board import N_PLACES, SIZE, column_row
from inselflucht_env.games.inselflucht.rules.cards import HELICOPTER, code, is_king, suit_of
from inselflucht_env.games.inselflucht.rules.engine import FLOODED, HIDDEN, SEA, Escape, Give, State
from inselflucht_env.games.inselflucht.rules.public import floods_to_go

WIDTH, HEIGHT = 720, 480
SHAPE = (HEIGHT, WIDTH, 3)

CELL = 90  # grid pitch
GRID_X, GRID_Y = 26, 26  # top-left corner of the grid
CARD_W, CARD_H = 58, 80  # an upright card; a flooded card is CARD_H x CARD_W
FIG_R = 10  # figure disc radius
PANEL_X = GRID_X + SIZE * CELL + 14
PANEL_W = WIDTH - PANEL_X - 8
SS = 3  # supersampling of sprites

# colours
OCEAN = (26, 66, 112)
SEA_FILL = (40, 98, 158)
WAVE = (110, 165, 215)
LABEL = (220, 230, 240)
PANEL_BG = (236, 232, 220)
PANEL_INK = (35, 35, 45)
FADED = (150, 150, 150)
RED_INK = (200, 25, 35)
BLACK_INK = (20, 20, 28)
CARD_FACE = (252, 251, 246)
CARD_EDGE = (60, 60, 70)
FLOOD_FACE = (176, 205, 238)
FLOOD_EDGE = (25, 70, 145)
BACK_FILL = (135, 28, 42)
BACK_LINE = (196, 92, 100)
GOLD = (222, 172, 30)
KING_FACE = (255, 244, 205)
HELI_FACE = (220, 232, 220)
WIN_FILL = (40, 150, 70)
LOSS_FILL = (190, 35, 40)
PENDING_FILL = (120, 60, 150)
FIGURE_FILL = ((240, 135, 20), (50, 175, 70), (145, 70, 205), (225, 60, 160))
OUTCOME_TEXT = {
    "win": ("WON", "the team took off"),
    "L1": ("LOST  L1", "an unlifted king sank"),
    "L2": ("LOST  L2", "the helicopter sank"),
    "L3": ("LOST  L3", "a figure drowned"),
    "L4": ("LOST  L4", "cut off"),
    "L5": ("LOST  L5", "too few cards left"),
    "L6": ("LOST  L6", "the water rose too high"),
    "illegal": ("ENDED", "illegal action"),
}


# ---------------------------------------------------------------------- fonts
@cache
def _font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    """Pillow's built-in font; scalable where Pillow has FreeType (Pillow >= 10.1)."""
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # older Pillow: the fixed bitmap font
        return ImageFont.load_default()


def _text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill,
    anchor: str = "la",
    stroke: int = 0,
    stroke_fill=None,
) -> None:
    draw.text(
        xy,
        text,
        font=_font(size),
        fill=fill,
        anchor=anchor,
        stroke_width=stroke,
        stroke_fill=stroke_fill,
    )


# ---------------------------------------------------------------------- shapes
def _suit_shape(draw: ImageDraw.ImageDraw, suit: int, cx: float, cy: float, s: float, fill) -> None:
    """A suit symbol of half-height ``s`` centred on (cx, cy): clubs, diamonds, hearts, spades."""
    if suit == 1:  # diamond
        draw.polygon(
            [(cx, cy - s), (cx + 0.72 * s, cy), (cx, cy + s), (cx - 0.72 * s, cy)], fill=fill
        )
    elif suit == 2:  # heart
        r = 0.52 * s
        for dx in (-0.48 * s, 0.48 * s):
            draw.ellipse([cx + dx - r, cy - 0.4 * s - r, cx + dx + r, cy - 0.4 * s + r], fill=fill)
        draw.polygon(
            [(cx - 0.98 * s, cy - 0.25 * s), (cx + 0.98 * s, cy - 0.25 * s), (cx, cy + s)],
            fill=fill,
        )
    elif suit == 3:  # spade
        r = 0.5 * s
        for dx in (-0.46 * s, 0.46 * s):
            draw.ellipse(
                [cx + dx - r, cy + 0.12 * s - r, cx + dx + r, cy + 0.12 * s + r], fill=fill
            )
        draw.polygon(
            [(cx - 0.94 * s, cy + 0.28 * s), (cx + 0.94 * s, cy + 0.28 * s), (cx, cy - s)],
            fill=fill,
        )
        draw.polygon(
            [(cx, cy + 0.15 * s), (cx - 0.32 * s, cy + s), (cx + 0.32 * s, cy + s)], fill=fill
        )
    else:  # club
        r = 0.36 * s
        for dx, dy in ((0, -0.5 * s), (-0.45 * s, 0.08 * s), (0.45 * s, 0.08 * s)):
            draw.ellipse([cx + dx - r, cy + dy - r, cx + dx + r, cy + dy + r], fill=fill)
        draw.ellipse([cx - 0.25 * s, cy - 0.3 * s, cx + 0.25 * s, cy + 0.2 * s], fill=fill)
        draw.polygon(
            [(cx, cy - 0.1 * s), (cx - 0.32 * s, cy + s), (cx + 0.32 * s, cy + s)], fill=fill
        )


def _star(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill, outline) -> None:
    pts = []
    for k in range(10):
        rad = r if k % 2 == 0 else 0.45 * r
        ang = -np.pi / 2 + k * np.pi / 5
        pts.append((cx + rad * np.cos(ang), cy + rad * np.sin(ang)))
    draw.polygon(pts, fill=fill, outline=outline, width=max(1, int(r / 6)))


def _crown(draw: ImageDraw.ImageDraw, cx: float, top: float, w: float, h: float, fill) -> None:
    x0, x1, y1 = cx - w / 2, cx + w / 2, top + h
    draw.polygon(
        [
            (x0, y1),
            (x0, top + 0.3 * h),
            (cx - w / 4, top + 0.6 * h),
            (cx, top),
            (cx + w / 4, top + 0.6 * h),
            (x1, top + 0.3 * h),
            (x1, y1),
        ],
        fill=fill,
    )


def _waves(
    draw: ImageDraw.ImageDraw,
    x0: float,
    y0: float,
    x1: float,
    y1: float,
    colour,
    rows: int,
    width: int,
) -> None:
    """Rows of little wave arcs filling a box."""
    step_y = (y1 - y0) / (rows + 1)
    for k in range(rows):
        y = y0 + step_y * (k + 1)
        shift = (k % 2) * 9 * SS
        x = x0 + 4 * SS - shift
        while x < x1 - 14 * SS:
            if x >= x0 + 2 * SS:
                draw.arc(
                    [x, y - 4 * SS, x + 12 * SS, y + 4 * SS], 200, 340, fill=colour, width=width
                )
            x += 18 * SS


def _down(img: Image.Image) -> Image.Image:
    return img.resize((img.width // SS, img.height // SS), Image.Resampling.LANCZOS)


# ---------------------------------------------------------------------- sprites
def _ink(card: int):
    return RED_INK if suit_of(card) in (1, 2) else BLACK_INK


@cache
def _card_sprite(card: int, flooded: bool, lifted: bool) -> Image.Image:
    """RGBA sprite of a face-up card: upright when dry, sideways and blue when flooded."""
    w, h = (CARD_H, CARD_W) if flooded else (CARD_W, CARD_H)
    W, H = w * SS, h * SS
    img = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    king = is_king(card)
    if flooded:
        face, edge, ew = FLOOD_FACE, FLOOD_EDGE, 2 * SS
    elif king:
        face, edge, ew = KING_FACE, GOLD, 3 * SS
    elif card == HELICOPTER:
        face, edge, ew = HELI_FACE, (70, 110, 80), 2 * SS
    else:
        face, edge, ew = CARD_FACE, CARD_EDGE, 1 * SS
    d.rounded_rectangle([0, 0, W - 1, H - 1], radius=6 * SS, fill=face, outline=edge, width=ew)
    if flooded and king:  # keep the gold frame visible inside the blue edge
        d.rounded_rectangle(
            [ew + SS, ew + SS, W - 1 - ew - SS, H - 1 - ew - SS],
            radius=5 * SS,
            outline=GOLD,
            width=2 * SS,
        )
    if flooded:
        _waves(d, 0, H * 0.66, W, H - 2 * SS, FLOOD_EDGE, 2, SS + 1)
    cx = W / 2
    cy = H * (0.42 if flooded else 0.54)
    if card == HELICOPTER:
        r = min(W, H) * 0.3
        d.ellipse([cx - r, cy - r, cx + r, cy + r], outline=(40, 80, 50), width=3 * SS)
        bw, bh = r * 0.18, r * 1.1  # the H of the helipad
        d.rectangle(
            [cx - r * 0.5 - bw / 2, cy - bh / 2, cx - r * 0.5 + bw / 2, cy + bh / 2],
            fill=(40, 80, 50),
        )
        d.rectangle(
            [cx + r * 0.5 - bw / 2, cy - bh / 2, cx + r * 0.5 + bw / 2, cy + bh / 2],
            fill=(40, 80, 50),
        )
        d.rectangle([cx - r * 0.5, cy - bw / 2, cx + r * 0.5, cy + bw / 2], fill=(40, 80, 50))
        _text(d, (5 * SS, 3 * SS), "JK", 13 * SS, (40, 80, 50))
        return _down(img)
    ink = _ink(card)
    suit = suit_of(card)
    rank = code(card)[:-1]  # "K" or 6-10: the code without its suit letter
    _text(d, (5 * SS, 3 * SS), rank, 14 * SS, ink)
    _suit_shape(d, suit, 5 * SS + 5 * SS, 25 * SS, 5 * SS, ink)
    if king:
        big = min(W, H) * 0.19
        crown = big * 0.75
        _crown(d, cx, cy + big * 0.2 - big - crown - 2 * SS, big * 1.7, crown, GOLD)
        _suit_shape(d, suit, cx, cy + big * 0.2, big, ink)
    else:
        _suit_shape(d, suit, cx, cy, min(W, H) * (0.22 if flooded else 0.24), ink)
    if lifted:
        _star(d, W - 11 * SS, 11 * SS, 9 * SS, GOLD, (120, 80, 0))
    return _down(img)


@cache
def _back_sprite() -> Image.Image:
    """The card back shown for every hidden place (the same for all: no information)."""
    W, H = CARD_W * SS, CARD_H * SS
    img = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle(
        [0, 0, W - 1, H - 1], radius=6 * SS, fill=(250, 248, 240), outline=CARD_EDGE, width=SS
    )
    m = 4 * SS
    inner = Image.new("RGBA", (W - 2 * m, H - 2 * m), BACK_FILL)
    di = ImageDraw.Draw(inner)
    step = 9 * SS
    for k in range(-H, W + H, step):
        di.line([(k, 0), (k + H, H)], fill=BACK_LINE, width=SS)
        di.line([(k, 0), (k - H, H)], fill=BACK_LINE, width=SS)
    mask = Image.new("L", inner.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle(
        [0, 0, inner.width - 1, inner.height - 1], radius=4 * SS, fill=255
    )
    img.paste(inner, (m, m), mask)
    cx, cy = W / 2, H / 2
    d.ellipse([cx - 9 * SS, cy - 9 * SS, cx + 9 * SS, cy + 9 * SS], fill=(250, 248, 240))
    _text(d, (cx, cy), "?", 15 * SS, BACK_FILL, anchor="mm")
    return _down(img)


@cache
def _sea_tile() -> Image.Image:
    W = H = (CELL - 4) * SS
    img = Image.new("RGB", (W, H), SEA_FILL)
    _waves(ImageDraw.Draw(img), 0, 0, W, H, WAVE, 5, SS + 1)
    return _down(img)


@cache
def _figure_sprite(f: int, ring: str) -> Image.Image:
    """A figure disc with its number; ``ring``: "" plain, "active" white, "decider" yellow."""
    r = FIG_R * SS
    pad = 3 * SS
    D = 2 * (r + pad)
    img = Image.new("RGBA", (D, D), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    c = D / 2
    if ring:
        colour = (255, 255, 255) if ring == "active" else (255, 225, 40)
        d.ellipse([c - r - pad, c - r - pad, c + r + pad, c + r + pad], fill=colour)
    d.ellipse([c - r, c - r, c + r, c + r], fill=FIGURE_FILL[f % 4], outline=(20, 20, 20), width=SS)
    _text(
        d,
        (c, c + SS),
        str(f),
        14 * SS,
        (255, 255, 255),
        anchor="mm",
        stroke=SS,
        stroke_fill=(20, 20, 20),
    )
    return _down(img)


@cache
def _mini_card(card: int) -> Image.Image:
    """A small card for the salvage and treasure rows: rank and suit."""
    w, h = 18, 24
    W, H = w * SS, h * SS
    img = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle(
        [0, 0, W - 1, H - 1], radius=3 * SS, fill=CARD_FACE, outline=CARD_EDGE, width=SS
    )
    ink = _ink(card)
    rank = code(card)[:-1]  # "K" or 6-10: the code without its suit letter
    _text(d, (W / 2, 7 * SS), rank, 10 * SS, ink, anchor="mm")
    _suit_shape(d, suit_of(card), W / 2, 17 * SS, 4.5 * SS, ink)
    return _down(img)


@cache
def _suit_icon(suit: int, size: int) -> Image.Image:
    W = H = size * SS
    img = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    _suit_shape(
        ImageDraw.Draw(img), suit, W / 2, H / 2, W * 0.45, RED_INK if suit in (1, 2) else BLACK_INK
    )
    return _down(img)


@lru_cache(maxsize=1)
def _base() -> Image.Image:
    """Everything that never changes: water, grid labels, the panel's background."""
    img = Image.new("RGB", (WIDTH, HEIGHT), OCEAN)
    d = ImageDraw.Draw(img)
    for k in range(SIZE):
        x = GRID_X + k * CELL + CELL // 2
        _text(d, (x, GRID_Y - 12), str(k + 1), 14, LABEL, anchor="mm")
        y = GRID_Y + k * CELL + CELL // 2
        _text(d, (GRID_X - 13, y), str(k + 1), 14, LABEL, anchor="mm")
    for k in range(SIZE + 1):
        d.line(
            [(GRID_X + k * CELL, GRID_Y), (GRID_X + k * CELL, GRID_Y + SIZE * CELL)],
            fill=(40, 86, 136),
        )
        d.line(
            [(GRID_X, GRID_Y + k * CELL), (GRID_X + SIZE * CELL, GRID_Y + k * CELL)],
            fill=(40, 86, 136),
        )
    d.rounded_rectangle([PANEL_X, 8, PANEL_X + PANEL_W, HEIGHT - 8], radius=8, fill=PANEL_BG)
    _text(d, (PANEL_X + 10, 14), "INSELFLUCHT", 18, (20, 60, 110))
    return img


def _paste(img: Image.Image, sprite: Image.Image, cx: float, cy: float) -> None:
    x, y = int(round(cx - sprite.width / 2)), int(round(cy - sprite.height / 2))
    if sprite.mode == "RGBA":
        img.paste(sprite, (x, y), sprite)
    else:
        img.paste(sprite, (x, y))


# ---------------------------------------------------------------------- the picture
def render_rgb(state: State) -> np.ndarray:
    """The public state as an ``HEIGHT x WIDTH x 3`` uint8 array (see the module doc)."""
    img = _base().copy()
    d = ImageDraw.Draw(img)
    _draw_board(img, d, state)
    _draw_panel(img, d, state)
    return np.asarray(img, dtype=np.uint8).copy()


def _cell_centre(p: int) -> tuple[float, float]:
    c, r = column_row(p)
    return GRID_X + (c - 1) * CELL + CELL / 2, GRID_Y + (r - 1) * CELL + CELL / 2


def _draw_board(img: Image.Image, d: ImageDraw.ImageDraw, state: State) -> None:
    over = state.outcome is not None
    for p in range(N_PLACES):
        cx, cy = _cell_centre(p)
        st = state.status[p]
        if st == SEA:
            _paste(img, _sea_tile(), cx, cy)
        elif st == HIDDEN:
            _paste(img, _back_sprite(), cx, cy - 3)
        else:
            card = state.card[p]
            lifted = is_king(card) and state.lifted[suit_of(card)]
            sprite = _card_sprite(card, st == FLOODED, lifted)
            _paste(img, sprite, cx, cy - (8 if st == FLOODED else 3))
    pend = state.pending
    if isinstance(pend, Escape) and not over:  # the sinking place
        cx, cy = _cell_centre(pend.place)
        h = CELL / 2 - 3
        d.rectangle([cx - h, cy - h, cx + h, cy + h], outline=(255, 225, 40), width=3)
    decider = state.decider if not over else -1
    for p in set(state.pos):
        here = [f for f, q in enumerate(state.pos) if q == p]
        cx, cy = _cell_centre(p)
        step = 2 * FIG_R + 2
        x0 = cx - step * (len(here) - 1) / 2
        for k, f in enumerate(here):
            ring = "active" if f == state.active and not over else "decider" if f == decider else ""
            _paste(img, _figure_sprite(f, ring), x0 + k * step, cy + CELL / 2 - FIG_R - 5)
    if over:
        fill = WIN_FILL if state.outcome == "win" else LOSS_FILL
        x1, y1 = GRID_X + SIZE * CELL, GRID_Y + SIZE * CELL
        d.rectangle([GRID_X - 3, GRID_Y - 3, x1 + 3, y1 + 3], outline=fill, width=4)


def _draw_panel(img: Image.Image, d: ImageDraw.ImageDraw, state: State) -> None:
    x0 = PANEL_X + 10
    x1 = PANEL_X + PANEL_W - 10
    over = state.outcome is not None
    ink, faded = PANEL_INK, FADED

    # turn and actions
    y = 40
    _text(d, (x0, y), f"Turn {state.turn}", 15, ink)
    if over:
        status = "game over"
    elif isinstance(state.pending, Escape):
        status = f"figure {state.decider} escapes"
    elif state.in_flood:
        status = f"flood: {state.floods_left} to draw"
    else:
        status = f"figure {state.active} acts"
    _text(d, (x1, y), status, 13, ink, anchor="ra")
    y += 22
    _text(d, (x0, y + 2), "Actions", 12, ink)
    for k in range(4):
        px = x0 + 62 + k * 20
        on = k < state.actions_left and not over and not state.in_flood
        d.ellipse(
            [px, y + 1, px + 13, y + 14], fill=(30, 120, 200) if on else None, outline=ink, width=1
        )
    if not over:
        _paste(img, _figure_sprite(state.active, "active"), x1 - 12, y + 8)

    # water meter: the cards already gone, the top (the level) and those still to come
    y += 26
    d.line([(x0, y - 5), (x1, y - 5)], fill=(190, 185, 170))
    _text(d, (x0, y), "Water level", 13, ink)
    _text(d, (x1, y - 4), str(state.water_level), 22, (25, 80, 160), anchor="ra")
    y += 20
    full = list(state.config.meter)
    gone = len(full) - len(state.meter)
    bw = min(20, (x1 - x0) // max(1, len(full)))
    for k, v in enumerate(full):
        bx = x0 + k * bw
        box = [bx, y, bx + bw - 3, y + 22]
        if k < gone:
            d.rectangle(box, fill=(215, 210, 200), outline=faded)
            _text(d, (bx + (bw - 3) / 2, y + 11), str(v), 12, faded, anchor="mm")
            d.line([(box[0], box[3]), (box[2], box[1])], fill=faded)
        elif k == gone:
            d.rectangle(box, fill=(25, 80, 160), outline=(10, 40, 90), width=2)
            _text(d, (bx + (bw - 3) / 2, y + 11), str(v), 12, (255, 255, 255), anchor="mm")
        else:
            d.rectangle(box, fill=(255, 255, 255), outline=ink)
            _text(d, (bx + (bw - 3) / 2, y + 11), str(v), 12, ink, anchor="mm")
    y += 27
    left = floods_to_go(state)
    _text(d, (x0, y), f"floods until the island drowns: {left}", 11, ink)

    # flood cards of this pass: drawn ones dark with their order, the rest still due
    y += 20
    d.line([(x0, y - 5), (x1, y - 5)], fill=(190, 185, 170))
    _text(d, (x0, y), "Flood cards this pass", 13, ink)
    y += 18
    for label, drawn in (("col", state.col_discard), ("row", state.row_discard)):
        _text(d, (x0, y + 3), label, 12, ink)
        for v in range(1, 6):
            bx = x0 + 30 + (v - 1) * 22
            box = [bx, y, bx + 18, y + 18]
            if v in drawn:
                d.rectangle(box, fill=(60, 60, 75))
                _text(d, (bx + 9, y + 9), str(v), 12, (255, 255, 255), anchor="mm")
                _text(d, (bx + 17, y + 1), str(drawn.index(v) + 1), 8, (255, 210, 80), anchor="ra")
            else:
                d.rectangle(box, fill=(255, 255, 255), outline=ink)
                _text(d, (bx + 9, y + 9), str(v), 12, ink, anchor="mm")
        y += 22
    _text(d, (x0 + 146, y - 38), "dark:", 10, faded)
    _text(d, (x0 + 146, y - 26), "drawn", 10, faded)

    # treasures
    y += 6
    d.line([(x0, y - 5), (x1, y - 5)], fill=(190, 185, 170))
    _text(d, (x0, y), "Treasures", 13, ink)
    y += 18
    n = state.config.cards_per_treasure
    tw = (x1 - x0) // 4
    for s in range(4):
        tx = x0 + s * tw
        _paste(img, _suit_icon(s, 16), tx + 8, y + 9)
        if state.lifted[s]:
            sprite = Image.new("RGBA", (20 * SS, 20 * SS), (0, 0, 0, 0))
            _star(ImageDraw.Draw(sprite), 10 * SS, 10 * SS, 9 * SS, GOLD, (120, 80, 0))
            _paste(img, _down(sprite), tx + 28, y + 9)
        else:
            short = state.remaining[s] < n
            _text(d, (tx + 19, y + 3), f"{state.remaining[s]}", 12, RED_INK if short else ink)
            if short:
                _text(d, (tx + 28, y + 4), "short", 9, RED_INK)
    y += 20
    _text(d, (x0, y), "star: lifted; number: cards of the suit left", 9, faded)

    # salvage per figure
    y += 16
    d.line([(x0, y - 5), (x1, y - 5)], fill=(190, 185, 170))
    _text(d, (x0, y), "Salvage", 13, ink)
    y += 18
    n_fig = len(state.pos)
    per_row = (x1 - x0 - 26) // 19
    rows = 2 if n_fig <= 2 else 1
    for f in range(n_fig):
        ring = "active" if f == state.active and not over else ""
        _paste(img, _figure_sprite(f, ring), x0 + 10, y + 12)
        hand = state.salvage[f]
        cap = per_row * rows
        shown = hand if len(hand) <= cap else hand[: cap - 1]
        for k, c in enumerate(shown):
            rx, ry = k % per_row, k // per_row
            _paste(img, _mini_card(c), x0 + 26 + rx * 19 + 9, y + 12 + ry * 26)
        if len(shown) < len(hand):
            k = len(shown)
            _text(
                d,
                (x0 + 26 + (k % per_row) * 19 + 9, y + 12 + (k // per_row) * 26),
                f"+{len(hand) - len(shown)}",
                11,
                ink,
                anchor="mm",
            )
        if not hand:
            _text(d, (x0 + 28, y + 6), "-", 12, faded)
        y += 26 * rows + 2

    # pending decision and outcome at the bottom
    yb = HEIGHT - 52
    pend = state.pending
    if over:
        title, sub = OUTCOME_TEXT.get(str(state.outcome), ("ENDED", str(state.outcome)))
        fill = WIN_FILL if state.outcome == "win" else LOSS_FILL
        d.rounded_rectangle([x0 - 4, yb, x1 + 4, yb + 38], radius=6, fill=fill)
        _text(d, ((x0 + x1) / 2, yb + 12), title, 16, (255, 255, 255), anchor="mm")
        _text(d, ((x0 + x1) / 2, yb + 29), sub, 11, (255, 255, 255), anchor="mm")
    elif pend is not None:
        if isinstance(pend, Escape):
            c, r = column_row(pend.place)
            title, sub = f"figure {pend.figure}: escape!", f"swim from column {c}, row {r}"
        elif isinstance(pend, Give):
            title = f"figure {pend.figure} gives to {pend.receiver}"
            sub = f"{pend.given} card(s) given so far"
        else:
            title = f"figure {pend.figure} lifts a treasure"
            sub = f"short suit: {pend.chosen} of {n + 1} cards chosen"
        d.rounded_rectangle([x0 - 4, yb, x1 + 4, yb + 38], radius=6, fill=PENDING_FILL)
        _text(d, ((x0 + x1) / 2, yb + 12), title, 14, (255, 255, 255), anchor="mm")
        _text(d, ((x0 + x1) / 2, yb + 29), sub, 11, (255, 255, 255), anchor="mm")
