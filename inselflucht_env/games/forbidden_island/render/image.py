"""Picture of a Forbidden Island state (Gymnasium ``render_mode="rgb_array"``), drawn with
Pillow as the Inselflucht picture is.

Only public information is used (FR2.4): the draw decks show their sizes, and of the flood
deck the tiles of its known top group (FR5.2), never an order. The picture has a fixed
size, ``HEIGHT x WIDTH x 3`` uint8, so two states with the same public facts give the same
array.

Left: the island's 24 slots on the 6 x 6 grid (FR1.1), each tile with its short name and
slot number. A dry tile is sand, a flooded one blue with waves, a sunk slot is open sea
with a dashed outline (FR1.4). A treasure tile carries its treasure's emblem (FR1.2), gold
ringed once captured; Fools' Landing a helipad (FR1.3); a tile in the flood deck's known top
group an orange corner. Pawns are discs in their role's colour with their seat number; the
active player has an orange ring, a player deciding on another's turn a magenta one.
Right: turn and phase, actions left, the water level bar with its flood cards per level and
the skull (FR2.3), the treasures, each seat's hand, the decks, the pending sub-decision and
the outcome.
"""

from __future__ import annotations

from functools import cache, lru_cache

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from inselflucht_env.games.forbidden_island.render.text import SHORT_NAMES, role_title
from inselflucht_env.games.forbidden_island.rules.board import (
    FOOLS_LANDING,
    GRID,
    N_SLOTS,
    SLOT_CELL,
    tile_treasure,
    treasure_tiles,
)
from inselflucht_env.games.forbidden_island.rules.cards import HAND_KINDS
from inselflucht_env.games.forbidden_island.rules.config import (
    ACTIONS_PER_TURN,
    FLOODS_AT_LEVEL,
    SKULL,
)
from inselflucht_env.games.forbidden_island.rules.engine import (
    ACTIONS,
    FLOODED,
    SUNK,
    WINDOW,
    Discard,
    Engineer,
    Guide,
    Lift,
    Sandbag,
    State,
    Swim,
    Window,
)
from inselflucht_env.games.forbidden_island.rules.public import known_flood_top

WIDTH, HEIGHT = 720, 480
SHAPE = (HEIGHT, WIDTH, 3)

CELL = 72  # grid pitch
GRID_X, GRID_Y = 18, 24  # top-left corner of the grid
TILE = 66  # a tile's side
PAWN_R = 7
PANEL_X = GRID_X + GRID * CELL + 12
PANEL_W = WIDTH - PANEL_X - 8
SS = 3  # supersampling of sprites

Colour = tuple[int, int, int]

OCEAN: Colour = (26, 66, 112)
SEA_FILL: Colour = (36, 90, 148)
WAVE: Colour = (100, 155, 210)
DRY_FACE: Colour = (226, 201, 146)
DRY_EDGE: Colour = (125, 98, 58)
FLOOD_FACE: Colour = (128, 176, 226)
FLOOD_EDGE: Colour = (22, 66, 140)
INK: Colour = (35, 35, 45)
FADED: Colour = (150, 150, 150)
PANEL_BG: Colour = (236, 232, 220)
RULE: Colour = (190, 185, 170)
GOLD: Colour = (222, 172, 30)
KNOWN: Colour = (240, 130, 20)
HELIPAD: Colour = (40, 90, 55)
ACTIVE_RING: Colour = (255, 140, 0)
DECIDER_RING: Colour = (225, 50, 200)
WIN_FILL: Colour = (40, 150, 70)
LOSS_FILL: Colour = (190, 35, 40)
PENDING_FILL: Colour = (110, 60, 150)
LEVEL_FILL: Colour = (30, 90, 175)
SKULL_FILL: Colour = (60, 60, 60)

# FR1.2: earth, wind, fire, ocean.
TREASURE_FILL: tuple[Colour, ...] = ((128, 92, 160), (70, 160, 130), (220, 70, 35), (35, 120, 210))
# config.ROLE_NAMES: diver, engineer, explorer, messenger, navigator, pilot.
ROLE_FILL: tuple[Colour, ...] = (
    (30, 30, 34),
    (205, 40, 40),
    (40, 155, 70),
    (238, 238, 238),
    (240, 200, 30),
    (50, 105, 215),
)
# Hand kinds (cards.HAND_KINDS): the treasures, Helicopter Lift, Sandbags.
CARD_FILL: tuple[Colour, ...] = (*TREASURE_FILL, (150, 170, 150), (196, 160, 100))
CARD_LETTER = ("E", "W", "F", "O", "H", "S")

OUTCOME_TEXT = {
    "win": ("WON", "the team flew off (FR9.1)"),
    "L1": ("LOST  L1", "a treasure's tiles sank (FR10.1)"),
    "L2": ("LOST  L2", "Fools' Landing sank (FR10.2)"),
    "L3": ("LOST  L3", "a pawn could not swim (FR10.3)"),
    "L4": ("LOST  L4", "the water hit the skull (FR10.4)"),
    "illegal": ("ENDED", "an illegal action"),
}


# ---------------------------------------------------------------------- drawing helpers
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
    fill: Colour,
    anchor: str = "la",
) -> None:
    draw.text(xy, text, font=_font(size), fill=fill, anchor=anchor)


def _down(img: Image.Image) -> Image.Image:
    return img.resize((img.width // SS, img.height // SS), Image.Resampling.LANCZOS)


def _paste(img: Image.Image, sprite: Image.Image, cx: float, cy: float) -> None:
    x, y = int(round(cx - sprite.width / 2)), int(round(cy - sprite.height / 2))
    img.paste(sprite, (x, y), sprite if sprite.mode == "RGBA" else None)


def _waves(
    draw: ImageDraw.ImageDraw, x0: float, y0: float, x1: float, y1: float, colour: Colour, rows: int
) -> None:
    """Rows of little wave arcs filling a box (supersampled coordinates)."""
    step_y = (y1 - y0) / (rows + 1)
    for k in range(rows):
        y = y0 + step_y * (k + 1)
        x = x0 + 4 * SS - (k % 2) * 8 * SS
        while x < x1 - 12 * SS:
            if x >= x0 + 2 * SS:
                draw.arc([x, y - 3 * SS, x + 10 * SS, y + 3 * SS], 200, 340, fill=colour, width=SS)
            x += 15 * SS


def _emblem_shape(
    draw: ImageDraw.ImageDraw, treasure: int, cx: float, cy: float, s: float, fill: Colour
) -> None:
    """A treasure's emblem of half-size ``s``: the Earth Stone a pyramid, the Statue of the
    Wind a figure, the Crystal of Fire a crystal, the Ocean's Chalice a cup."""
    if treasure == 0:
        draw.polygon([(cx, cy - s), (cx + s, cy + 0.8 * s), (cx - s, cy + 0.8 * s)], fill=fill)
    elif treasure == 1:
        r = 0.38 * s
        draw.ellipse([cx - r, cy - s, cx + r, cy - s + 2 * r], fill=fill)
        draw.polygon(
            [(cx - 0.25 * s, cy - 0.2 * s), (cx + 0.25 * s, cy - 0.2 * s), (cx + 0.7 * s, cy + s)]
            + [(cx - 0.7 * s, cy + s)],
            fill=fill,
        )
    elif treasure == 2:
        draw.polygon(
            [
                (cx, cy - s),
                (cx + 0.6 * s, cy - 0.2 * s),
                (cx, cy + s),
                (cx - 0.6 * s, cy - 0.2 * s),
            ],
            fill=fill,
        )
    else:
        draw.pieslice([cx - 0.8 * s, cy - 1.1 * s, cx + 0.8 * s, cy + 0.3 * s], 0, 180, fill=fill)
        draw.rectangle([cx - 0.12 * s, cy, cx + 0.12 * s, cy + 0.75 * s], fill=fill)
        draw.rectangle([cx - 0.5 * s, cy + 0.7 * s, cx + 0.5 * s, cy + s], fill=fill)


# ---------------------------------------------------------------------- sprites
@cache
def _emblem(treasure: int, size: int, captured: bool, faded: bool) -> Image.Image:
    """A treasure emblem on a round badge, gold ringed once captured."""
    W = size * SS
    img = Image.new("RGBA", (W, W), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    ring = GOLD if captured else (255, 255, 255)
    d.ellipse([0, 0, W - 1, W - 1], fill=ring)
    m = (3 if captured else 1) * SS
    d.ellipse([m, m, W - 1 - m, W - 1 - m], fill=(250, 248, 240))
    fill = TREASURE_FILL[treasure]
    if faded:
        r, g, b = fill
        fill = ((r + 430) // 3, (g + 430) // 3, (b + 430) // 3)
    _emblem_shape(d, treasure, W / 2, W / 2, W * 0.3, fill)
    return _down(img)


@cache
def _tile_sprite(tile: int, flooded: bool) -> Image.Image:
    """A tile, dry or flooded, with its short name (FR1.4)."""
    W = TILE * SS
    img = Image.new("RGBA", (W, W), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    face, edge = (FLOOD_FACE, FLOOD_EDGE) if flooded else (DRY_FACE, DRY_EDGE)
    d.rounded_rectangle([0, 0, W - 1, W - 1], radius=6 * SS, fill=face, outline=edge, width=2 * SS)
    if flooded:
        _waves(d, 0, W * 0.25, W, W * 0.62, FLOOD_EDGE, 2)
    _text(d, (W / 2, 4 * SS), SHORT_NAMES[tile], 9 * SS, INK, anchor="ma")
    if tile == FOOLS_LANDING:  # FR1.3: the helicopter pad
        cx, cy, r = W / 2, W * 0.46, 11 * SS
        d.ellipse([cx - r, cy - r, cx + r, cy + r], outline=HELIPAD, width=2 * SS)
        _text(d, (cx, cy), "H", 14 * SS, HELIPAD, anchor="mm")
    return _down(img)


@cache
def _sea_sprite() -> Image.Image:
    """A sunk slot: open sea with a dashed outline of where the tile was (FR8.2)."""
    W = TILE * SS
    img = Image.new("RGBA", (W, W), (*SEA_FILL, 255))
    d = ImageDraw.Draw(img)
    _waves(d, 0, 0, W, W, WAVE, 4)
    dash = 6 * SS
    for k in range(0, W, 2 * dash):
        for box in (
            [k, 0, k + dash, SS],
            [k, W - 1 - SS, k + dash, W - 1],
            [0, k, SS, k + dash],
            [W - 1 - SS, k, W - 1, k + dash],
        ):
            d.rectangle(box, fill=WAVE)
    return _down(img)


@cache
def _pawn_sprite(role: int, seat: int, ring: str) -> Image.Image:
    """A pawn in its role's colour with its seat number; ``ring``: "", "active", "decider"."""
    r, pad = PAWN_R * SS, 3 * SS
    D = 2 * (r + pad)
    img = Image.new("RGBA", (D, D), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    c = D / 2
    if ring:
        colour = ACTIVE_RING if ring == "active" else DECIDER_RING
        d.ellipse([0, 0, D - 1, D - 1], fill=colour)
    fill = ROLE_FILL[role]
    d.ellipse([c - r, c - r, c + r, c + r], fill=fill, outline=(15, 15, 15), width=SS)
    light = sum(fill) > 450
    _text(d, (c, c), str(seat), 11 * SS, (20, 20, 20) if light else (255, 255, 255), anchor="mm")
    return _down(img)


@cache
def _card_sprite(kind: int, count: int) -> Image.Image:
    """A small hand card of ``kind`` with its letter and, above one, the count."""
    w, h = 20, 28
    W, H = w * SS, h * SS
    img = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle(
        [0, 0, W - 1, H - 1], radius=3 * SS, fill=CARD_FILL[kind], outline=INK, width=SS
    )
    _text(d, (W / 2, 10 * SS), CARD_LETTER[kind], 12 * SS, (255, 255, 255), anchor="mm")
    if count > 1:
        _text(d, (W / 2, 22 * SS), f"x{count}", 9 * SS, (255, 255, 255), anchor="mm")
    return _down(img)


@lru_cache(maxsize=1)
def _base() -> Image.Image:
    """Everything that never changes: the ocean and the panel's background."""
    img = Image.new("RGB", (WIDTH, HEIGHT), OCEAN)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle([PANEL_X, 8, PANEL_X + PANEL_W, HEIGHT - 8], radius=8, fill=PANEL_BG)
    _text(d, (PANEL_X + 10, 14), "FORBIDDEN ISLAND", 18, (20, 60, 110))
    return img


# ---------------------------------------------------------------------- the picture
def render_rgb(state: State) -> np.ndarray:
    """The public state as a ``HEIGHT x WIDTH x 3`` uint8 array (see the module doc)."""
    img = _base().copy()
    d = ImageDraw.Draw(img)
    _draw_board(img, d, state)
    _draw_panel(img, d, state)
    return np.asarray(img, dtype=np.uint8).copy()


def _slot_centre(slot: int) -> tuple[float, float]:
    r, c = SLOT_CELL[slot]
    return GRID_X + c * CELL + CELL / 2, GRID_Y + r * CELL + CELL / 2


def _draw_board(img: Image.Image, d: ImageDraw.ImageDraw, state: State) -> None:
    over = state.outcome is not None
    known = set(known_flood_top(state))
    half = TILE / 2
    for slot in range(N_SLOTS):
        cx, cy = _slot_centre(slot)
        tile, st = state.tile[slot], state.status[slot]
        if st == SUNK:
            _paste(img, _sea_sprite(), cx, cy)
            _text(d, (cx - half + 4, cy + half - 4), str(slot), 9, (200, 220, 240), anchor="ld")
            continue
        _paste(img, _tile_sprite(tile, st == FLOODED), cx, cy)
        _text(d, (cx - half + 4, cy + half - 4), str(slot), 9, INK, anchor="ld")
        t = tile_treasure(tile)
        if t >= 0:  # FR1.2
            _paste(img, _emblem(t, 24, state.captured[t], False), cx, cy - 6)
        if tile in known:  # FR5.2: its flood card lies in the known top group
            d.polygon(
                [(cx + half - 14, cy + half - 2), (cx + half - 2, cy + half - 2)]
                + [(cx + half - 2, cy + half - 14)],
                fill=KNOWN,
            )
    top = state.pending[-1] if state.pending and not over else None
    if isinstance(top, Swim):  # the sinking slot (FR7.1)
        cx, cy = _slot_centre(state.pos[top.player])
        d.rectangle([cx - half, cy - half, cx + half, cy + half], outline=(255, 225, 40), width=3)
    decider = state.decider if not over else -1
    for slot in sorted(set(state.pos)):
        here = [p for p, q in enumerate(state.pos) if q == slot]
        cx, cy = _slot_centre(slot)
        step = 2 * PAWN_R + 2
        x0 = cx - step * (len(here) - 1) / 2
        for k, p in enumerate(here):
            ring = "active" if p == state.active and not over else ""
            ring = "decider" if p == decider and p != state.active else ring
            _paste(img, _pawn_sprite(state.roles[p], p, ring), x0 + k * step, cy + half - 16)
    if over:
        fill = WIN_FILL if state.outcome == "win" else LOSS_FILL
        x1, y1 = GRID_X + GRID * CELL, GRID_Y + GRID * CELL
        d.rectangle([GRID_X - 3, GRID_Y - 3, x1 + 3, y1 + 3], outline=fill, width=4)


def _pending_lines(state: State) -> tuple[str, str]:
    top = state.pending[-1]
    who = f"{state.decider}: {role_title(state, state.decider)}"
    if isinstance(top, Guide):
        return f"{who} guides", f"seat {top.target} up to 2 steps (FR3.5)"
    if isinstance(top, Lift):
        group = ",".join(str(q) for q in range(state.players) if top.group >> q & 1)
        return f"{who} lifts {group}", "add a pawn or fly (FR6.1)"
    if isinstance(top, Sandbag):
        return f"{who}: Sandbags", "pick a flooded tile (FR6.2)"
    if isinstance(top, Engineer):
        return f"{who}", "second shore-up? (FR3.2)"
    if isinstance(top, Discard):
        return f"{who} discards", f"holds {state.hand_size(top.player)}, limit 5 (FR5.3)"
    if isinstance(top, Window):
        return f"{who} may play", "Lift or Sandbags (FR6.3)"
    return f"{who} swims", f"from slot {state.pos[top.player]} (FR7)"


def _draw_panel(img: Image.Image, d: ImageDraw.ImageDraw, state: State) -> None:
    x0, x1 = PANEL_X + 10, PANEL_X + PANEL_W - 10
    over = state.outcome is not None

    # turn, phase and actions (FR4)
    y = 40
    _text(d, (x0, y), f"Turn {state.turn}", 14, INK)
    if over:
        phase = "game over"
    elif state.phase == ACTIONS:
        phase = "actions"
    elif state.phase == WINDOW:
        phase = "special cards"
    else:
        phase = f"flood: {state.floods_left} to draw"
    _text(d, (x1, y + 1), phase, 12, INK, anchor="ra")
    y += 20
    _text(d, (x0, y + 1), "Actions", 12, INK)
    for k in range(ACTIONS_PER_TURN):
        px = x0 + 58 + k * 18
        on = not over and state.phase == ACTIONS and k < state.actions_left
        d.ellipse([px, y + 1, px + 12, y + 13], fill=LEVEL_FILL if on else None, outline=INK)
    if not over:
        p = state.active
        _paste(img, _pawn_sprite(state.roles[p], p, "active"), x1 - 10, y + 7)

    # water level (FR2.3): levels 1-9 with their flood cards, then the skull
    y += 24
    d.line([(x0, y - 5), (x1, y - 5)], fill=RULE)
    _text(d, (x0, y), "Water level", 13, INK)
    _text(d, (x1, y - 3), str(state.level), 20, LEVEL_FILL, anchor="ra")
    y += 20
    bw = (x1 - x0) // SKULL
    for v in range(1, SKULL + 1):
        bx = x0 + (v - 1) * bw
        box = [bx, y, bx + bw - 3, y + 20]
        label = str(FLOODS_AT_LEVEL[v]) if v < SKULL else "X"
        if v == SKULL:
            fill, ink = (SKULL_FILL if state.level < SKULL else LOSS_FILL), (255, 255, 255)
        elif v <= state.level:
            fill, ink = LEVEL_FILL, (255, 255, 255)
        else:
            fill, ink = (255, 255, 255), INK
        d.rectangle(box, fill=fill, outline=INK, width=2 if v == state.level else 1)
        _text(d, (bx + (bw - 3) / 2, y + 10), label, 11, ink, anchor="mm")
    y += 23
    _text(d, (x0, y), "flood cards a turn per level; X: the skull", 9, FADED)

    # treasures (FR4.5), with the tiles still standing for the open ones (FR10.1)
    y += 16
    d.line([(x0, y - 5), (x1, y - 5)], fill=RULE)
    _text(d, (x0, y), "Treasures", 13, INK)
    y += 18
    tw = (x1 - x0) // 4
    for t in range(4):
        tx = x0 + t * tw
        got = state.captured[t]
        _paste(img, _emblem(t, 24, got, not got), tx + 13, y + 12)
        if got:
            _text(d, (tx + 28, y + 6), "got", 11, (30, 120, 50))
        else:
            left = sum(state.status[state.slot_of[x]] != SUNK for x in treasure_tiles(t))
            _text(d, (tx + 28, y + 6), f"{left}/2", 11, LOSS_FILL if left < 2 else INK)
    y += 28
    _text(d, (x0, y), "gold ring: captured; n/2: tiles left", 9, FADED)

    # hands (open, FR2.4)
    y += 16
    d.line([(x0, y - 5), (x1, y - 5)], fill=RULE)
    _text(d, (x0, y), "Hands", 13, INK)
    y += 18
    decider = state.decider if not over else -1
    for p in range(state.players):
        ring = "active" if p == state.active and not over else ""
        ring = "decider" if p == decider and p != state.active else ring
        _paste(img, _pawn_sprite(state.roles[p], p, ring), x0 + 9, y + 14)
        _text(d, (x0 + 22, y + 9), role_title(state, p), 10, INK)
        cx = x0 + 80
        for k in range(HAND_KINDS):
            n = state.hands[p][k]
            if n:
                _paste(img, _card_sprite(k, n), cx + 10, y + 14)
                cx += 22
        if not state.hand_size(p):
            _text(d, (cx, y + 8), "-", 12, FADED)
        y += 32

    # decks: sizes only, and the known top group's size (FR2.4, FR5.2)
    y += 2
    d.line([(x0, y - 5), (x1, y - 5)], fill=RULE)
    _text(d, (x0, y), f"Treasure deck {len(state.treasure_deck)}", 11, INK)
    _text(d, (x1, y), f"discard {len(state.treasure_discard)}", 11, INK, anchor="ra")
    y += 15
    flood = f"Flood deck {len(state.flood_deck)}"
    if state.flood_known:
        flood += f" (top {state.flood_known} known)"
    _text(d, (x0, y), flood, 11, INK)
    _text(d, (x1, y), f"discard {len(state.flood_discard)}", 11, INK, anchor="ra")

    # pending decision or outcome at the bottom
    yb = HEIGHT - 52
    if over:
        title, sub = OUTCOME_TEXT.get(str(state.outcome), ("ENDED", str(state.outcome)))
        fill = WIN_FILL if state.outcome == "win" else LOSS_FILL
    elif state.pending:
        title, sub = _pending_lines(state)
        fill = PENDING_FILL
    else:
        return
    d.rounded_rectangle([x0 - 4, yb, x1 + 4, yb + 38], radius=6, fill=fill)
    _text(d, ((x0 + x1) / 2, yb + 12), title, 14, (255, 255, 255), anchor="mm")
    _text(d, ((x0 + x1) / 2, yb + 29), sub, 11, (255, 255, 255), anchor="mm")
