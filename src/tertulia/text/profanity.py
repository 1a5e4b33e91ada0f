"""Decide whether player text is profane, for public rooms: clues, nicknames, titles.

The word lists are glin-profanity's bundled dictionaries (English, Portuguese, Spanish,
Polish), read as data; we do not use its matching engine, which looks for substrings and
so refuses "class" for "ass". We match whole words only, after folding case and accents,
plus phrases of several words. The raw lists also hold ordinary words ("aranha" spider,
"burro" donkey, "martillo" hammer, "jajko" egg); ``data/profanity-allow.<lang>.txt`` removes
them, each with the reason.

The lists load on first use (a few milliseconds), then stay in memory.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from functools import cache
from importlib.resources import files

from tertulia.text.normalize import fold

LANGUAGES = ("en", "pt", "es", "pl")

_DICTIONARY_FILES = {
    "en": "english.json",
    "pt": "portuguese.json",
    "es": "spanish.json",
    "pl": "polish.json",
}

# A plural on a listed word is still the word ("putas", "bitches"); only for listed words of
# three letters or more, so that two-letter entries ("cu") do not catch "cus".
_PLURAL_ENDINGS = ("es", "s")
_MIN_PLURAL_BASE = 3

# Words are split at anything that is not a letter or digit, so punctuation around a word
# ("shit!", "(fuck)", "cat_shit") hides nothing; each whitespace-separated token is checked
# whole as well, for listed entries that contain punctuation. (Letters spelled apart, as in
# "f.u.c.k", are not caught.)
_WORD_SPLIT = re.compile(r"[\W_]+")


def _allow_list(lang: str) -> set[str]:
    """Our own exceptions for ``lang``: folded words or phrases, one a line."""
    path = files("tertulia.text") / "data" / f"profanity-allow.{lang}.txt"
    allowed: set[str] = set()
    for raw in path.read_text(encoding="utf-8").splitlines():
        entry = raw.split("#", 1)[0].strip()
        if entry:
            allowed.add(" ".join(fold(entry).split()))
    return allowed


@cache
def banned(lang: str) -> frozenset[str]:
    """Folded banned words and phrases of ``lang`` (phrases have single spaces)."""
    if lang not in _DICTIONARY_FILES:
        raise ValueError(f"expected one of {LANGUAGES}, got {lang!r}")
    source = files("glin_profanity") / "data" / "dictionaries" / _DICTIONARY_FILES[lang]
    words = json.loads(source.read_text(encoding="utf-8"))["words"]
    listed = {" ".join(fold(word).split()) for word in words}
    return frozenset(listed - _allow_list(lang))


def _word_is_listed(word: str, lists: list[frozenset[str]]) -> bool:
    candidates = [word]
    for ending in _PLURAL_ENDINGS:
        base = word.removesuffix(ending)
        if base != word and len(base) >= _MIN_PLURAL_BASE:
            candidates.append(base)
    return any(candidate in listed for candidate in candidates for listed in lists)


def is_profane(text: str, languages: Iterable[str] = LANGUAGES) -> bool:
    """Return True if ``text`` holds a profane word or phrase in any of ``languages``.

    ``text`` may be one word, a hyphenated word (each part and the whole are checked) or
    several words (every run of consecutive words is checked against the listed phrases).
    These lists grow between versions, so only new text is judged: a room rebuilt from its
    log does not ask again (``rooms.model.fold``'s ``replaying``).
    """
    lists = [banned(lang) for lang in languages]
    folded = fold(text)
    words = [word for word in _WORD_SPLIT.split(folded) if word]
    for word in [*folded.split(), *words]:
        if _word_is_listed(word, lists):
            return True
    longest = max(_longest_phrase(lang) for lang in languages)
    for start in range(len(words)):
        for end in range(start + 2, min(start + longest, len(words)) + 1):
            if any(" ".join(words[start:end]) in listed for listed in lists):
                return True
    return False


@cache
def _longest_phrase(lang: str) -> int:
    """How many words the longest listed phrase of ``lang`` has (a chat line is checked
    run by run, and no longer run can match)."""
    return max(len(entry.split()) for entry in banned(lang))
