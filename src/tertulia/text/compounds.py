"""Read a word written as several listed words run together: "twentyfive", "bluegreen".

A game that refuses a word also has to refuse it glued to another of its kind, or "twenty
five" is refused and "twentyfive" is not. Only whole listed words count as pieces, with
optional joining letters between them (es "treinta y cinco" → "treintaycinco"), and nothing
may be left over: so "tennis" (ten + nis) or "redhead" (red + head) are not compounds of
number or colour words, and the lists stay the only judge of what a piece is.
"""

from __future__ import annotations

from collections.abc import Iterable

MIN_PIECE = 3  # shorter pieces are too easily the letters of an ordinary word
MAX_LETTERS = 40  # longer words are never such compounds; keeps the search small


class Pieces:
    """The words a compound may be made of (in ``normalize.fold`` form), and the letters
    that may join two of them. Built once; ``split`` runs on every word a player types, so
    a word that cannot start with a piece is turned away after one look-up."""

    def __init__(self, words: Iterable[str], joiners: Iterable[str] = ()) -> None:
        self.words = frozenset(w for w in words if len(w) >= MIN_PIECE)
        self.joiners = frozenset(joiners)
        self.longest = max(map(len, self.words), default=0)
        self._starts = frozenset(w[:MIN_PIECE] for w in self.words)

    def split(self, folded: str) -> tuple[str, ...] | None:
        """The pieces ``folded`` is made of, two or more, longest first where there is a
        choice; None if it is not made of them. A joiner between two pieces is left out."""
        if len(folded) > MAX_LETTERS or folded[:MIN_PIECE] not in self._starts:
            return None
        memo: dict[int, tuple[str, ...] | None] = {}

        def rest_from(start: int) -> tuple[str, ...] | None:
            if start not in memo:
                memo[start] = self._first_reading(folded, start, rest_from)
            return memo[start]

        parts = rest_from(0)
        return parts if parts is not None and len(parts) >= 2 else None

    def _first_reading(self, folded: str, start: int, rest_from) -> tuple[str, ...] | None:
        if folded[start : start + MIN_PIECE] not in self._starts:
            return None
        for end in range(min(len(folded), start + self.longest), start + MIN_PIECE - 1, -1):
            piece = folded[start:end]
            if piece not in self.words:
                continue
            if end == len(folded):
                return (piece,)
            after = rest_from(end)
            for size in (1, 2, 3):
                if after is not None:
                    break
                if folded[end : end + size] in self.joiners:
                    after = rest_from(end + size)
            if after is not None:
                return (piece, *after)
        return None
