"""Seeded randomness that lives inside a game's state, so a replay draws the same numbers."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import msgspec
import numpy as np

_MASK64 = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB


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

        A Pitacor round's draw shuffles the whole board (479 draws) and a restart replays
        every round of a room's log, so the draws are made all at once: SplitMix64's k-th
        next state is the state plus k times its constant, so every output can be computed
        from the state alone, with numpy's wrapping 64-bit arithmetic — the same numbers
        ``below`` would give, in the same order (a property test checks it). ``below``
        rejects a draw past the largest multiple of n (about once in 10^16 draws here); if
        any draw would be rejected, the shuffle is made one draw at a time instead."""
        size = len(items)
        if size < 2:
            return
        draws = _outputs(self.state, size - 1)
        sizes, highest = _sizes_and_highest(size)
        if bool((draws > highest).any()):
            self._shuffle_one_by_one(items)
            return
        picks = (draws % sizes).tolist()
        for i, j in zip(range(size - 1, 0, -1), picks, strict=True):
            items[i], items[j] = items[j], items[i]
        self.state = (self.state + (size - 1) * _GAMMA) & _MASK64

    def _shuffle_one_by_one(self, items: list[Any]) -> None:
        """``shuffle`` with ``below`` and ``next64`` written out, rejections and all."""
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


def _outputs(state: int, count: int) -> np.ndarray:
    """The next ``count`` outputs of SplitMix64 from ``state`` (``next64``, all at once)."""
    z = np.uint64(state) + np.arange(1, count + 1, dtype=np.uint64) * np.uint64(_GAMMA)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(_MIX1)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(_MIX2)
    return z ^ (z >> np.uint64(31))


@lru_cache(maxsize=64)
def _sizes_and_highest(size: int) -> tuple[np.ndarray, np.ndarray]:
    """For a shuffle of ``size`` items, each draw's n (``i + 1``, from the last item down) and
    the highest draw ``below(n)`` keeps (its ``limit`` less one: a limit may be 2^64)."""
    sizes = list(range(size, 1, -1))
    highest = [(1 << 64) - ((1 << 64) % n) - 1 for n in sizes]
    return np.array(sizes, dtype=np.uint64), np.array(highest, dtype=np.uint64)
