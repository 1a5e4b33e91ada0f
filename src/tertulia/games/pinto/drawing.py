"""Drawings as vectors: what a valid drawing is, and its size caps.

A drawing is a list of strokes on a 1000 × 1000 canvas, so it renders the same on every
screen whatever its size. A stroke has a pen colour from the palette (or the eraser), a pen
size from a few fixed widths, and its points as a flat list ``[x0, y0, x1, y1, …]``.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from ..base import RuleError

CANVAS = 1000
PALETTE = (
    "#1d1d1f",
    "#e03131",
    "#f08c00",
    "#fcc419",
    "#2f9e44",
    "#1971c2",
    "#7048e8",
    "#e64980",
    "#8d5524",
    "#ffffff",
)
ERASER = "eraser"
SIZES = (2, 5, 10, 20, 40)
MAX_STROKES = 600
MAX_POINTS = 30_000  # coordinates pairs over the whole drawing
MAX_FRAME_BYTES = 512 * 1024  # a drawing travels in one message; the room allows this much

Coordinate = Annotated[int, msgspec.Meta(ge=0, le=CANVAS)]


class Stroke(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    colour: str
    size: int
    points: list[Coordinate]


def check_drawing(strokes: list[Stroke]) -> None:
    """Refuse a malformed or oversized drawing (``drawing.*`` codes)."""
    if not strokes:
        raise RuleError("drawing.empty", "Draw something first.")
    if len(strokes) > MAX_STROKES:
        raise RuleError("drawing.too_large", "That drawing has too many strokes.", max=MAX_STROKES)
    total = 0
    for stroke in strokes:
        if stroke.colour not in PALETTE and stroke.colour != ERASER:
            raise RuleError("drawing.malformed", "Unknown pen colour.", colour=stroke.colour)
        if stroke.size not in SIZES:
            raise RuleError("drawing.malformed", "Unknown pen size.", size=stroke.size)
        if len(stroke.points) < 2 or len(stroke.points) % 2:
            raise RuleError("drawing.malformed", "A stroke needs x, y pairs.")
        total += len(stroke.points) // 2
    if total > MAX_POINTS:
        raise RuleError("drawing.too_large", "That drawing has too many points.", max=MAX_POINTS)
    if all(stroke.colour == ERASER for stroke in strokes):
        raise RuleError("drawing.empty", "Draw something first.")
