"""Seeded randomness that lives inside a game's state, so a replay draws the same numbers."""

from __future__ import annotations

from typing import Any

import msgspec

_MASK64 = (1 << 64) - 1


class Rng(msgspec.Struct):
    """SplitMix64: a tiny, fast generator whose whole state is one integer.

    It lives inside a game's state, so the state can be copied, stored and compared, and a
    replay draws exactly the same numbers. Not for cryptography.
    """

    state: int

    @classmethod
    def from_seed(cls, seed: int) -> Rng:
        return cls(seed & _MASK64)

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (rejection sampling, so no modulo bias)."""
        if n <= 0:
            raise ValueError(f"expected n > 0, got {n}")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self.next64()
            if value < limit:
                return value % n

    def shuffle(self, items: list[Any]) -> None:
        """Fisher–Yates, in place: ``j = below(i + 1)`` for each i from the last down.

        ``below`` and ``next64`` are written out here (the same numbers, in the same order):
        a Pitacor round's draw shuffles the whole board, 480 calls, and a restart replays
        every round of a room's log."""
        state = self.state
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = (1 << 64) - ((1 << 64) % n)
            while True:
                state = (state + 0x9E3779B97F4A7C15) & _MASK64
                z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
                z ^= z >> 31
                if z < limit:
                    break
            j = z % n
            items[i], items[j] = items[j], items[i]
        self.state = state

    def choice(self, items: list[Any]) -> Any:
        return items[self.below(len(items))]
