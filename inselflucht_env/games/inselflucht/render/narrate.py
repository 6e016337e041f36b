"""Narration: what a decision changed, in the words a player would use.

Both terminal play (``play.py``) and watching a policy (``enjoy.py``) print, after each
decision, the public changes it caused: reveals, floods, sinkings, salvage, moves and the
rising water. They come from two ``public.describe`` dicts, so nothing hidden is told (R9).
"""

from __future__ import annotations

from typing import Any

from inselflucht_env.games.inselflucht.rules.cards import parse, symbol


def public_events(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """Public changes between two ``describe`` dicts, as short lines (floods, reveals...)."""
    out = []
    salvaged_now = {c for hand in after["salvage"] for c in hand}
    salvaged_before = {c for hand in before["salvage"] for c in hand}
    for r, (row_b, row_a) in enumerate(zip(before["places"], after["places"]), start=1):
        for c, (pb, pa) in enumerate(zip(row_b, row_a), start=1):
            if pb["state"] == pa["state"]:
                continue
            code = pa["card"] or pb["card"]
            card = symbol(parse(code)) + " " if code else ""
            where = f"({c},{r})"
            sb, sa = pb["state"], pa["state"]
            if sa == "sea":
                if code and code in salvaged_now - salvaged_before:
                    text = f"{card}at {where} salvaged"
                else:
                    text = f"{card}at {where} sank" if code else f"{where} sank"
            elif sb == "hidden" and sa == "dry":
                text = f"{card}revealed at {where}"
            elif sb == "hidden" and sa == "flooded":
                text = f"{card}revealed at {where} by the flood, flooded"
            elif sa == "flooded":
                text = f"{card}at {where} flooded"
            elif sb == "flooded" and sa == "dry":
                text = f"{card}at {where} shored up"
            else:
                text = f"{card}at {where}: {sb} -> {sa}"
            out.append(text)
    for f, (pb, pa) in enumerate(zip(before["figures"], after["figures"])):
        if pb != pa:
            out.append(f"figure {f} moves to ({pa[0]},{pa[1]})")
    if after["water_level"] != before["water_level"] or len(after["meter"]) != len(before["meter"]):
        out.append(f"the water rises: level {after['water_level']}")
    return out
