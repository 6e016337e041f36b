"""The readable JSON layout of replay files: objects indented, short lists on one line,
long lists (the actions) ten items a line."""

from __future__ import annotations

import json
from typing import Any

PER_LINE = 10


def dumps(obj: Any, level: int = 0) -> str:
    """``obj`` as JSON text in that layout (``level``: the indentation depth to start at)."""
    pad = "  " * (level + 1)
    if isinstance(obj, dict):
        if not obj:
            return "{}"
        items = [f"{pad}{json.dumps(str(k))}: {dumps(v, level + 1)}" for k, v in obj.items()]
        return "{\n" + ",\n".join(items) + "\n" + "  " * level + "}"
    if isinstance(obj, list) and obj:
        if any(isinstance(v, (dict, list)) for v in obj):
            return (
                "[\n"
                + ",\n".join(pad + dumps(v, level + 1) for v in obj)
                + "\n"
                + "  " * level
                + "]"
            )
        if len(obj) <= PER_LINE:
            return "[" + ", ".join(json.dumps(v, ensure_ascii=False) for v in obj) + "]"
        lines = [
            ", ".join(json.dumps(v, ensure_ascii=False) for v in obj[k : k + PER_LINE])
            for k in range(0, len(obj), PER_LINE)
        ]
        return "[\n" + pad + (",\n" + pad).join(lines) + "\n" + "  " * level + "]"
    return json.dumps(obj, ensure_ascii=False)
