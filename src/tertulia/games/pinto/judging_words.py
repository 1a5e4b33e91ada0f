"""Is this a real word of the language? The judge's test before it calls a slip a typo.

"house" is one letter from "horse", but both are words: a player who wrote "house" meant a
house. So a near miss is a typo only when it is not itself a word of the language, and a
letter a language counts as its own (Spanish ñ, Polish ą ć ę ł ń ó ś ź ż) is folded away
only when that does not turn one real word into another (es "moño" / "mono", "año" /
"ano", pl "łaska" / "laska").

A real word is one that both of two maintained sources know:

- wordfreq's "large" frequency list (en, es, pt, pl; the data ships inside the package, so
  it works offline) says it is in use: Zipf frequency ≥ ``IN_USE`` (about once in 30 million
  words). Frequency lists also hold frequent misspellings and words typed without accents
  ("arbol", "samochod"), so frequency alone cannot tell a word from a slip;
- simplemma's dictionary (already our lemmatizer) knows the form, with a lemma that is not a
  name (Polish "reka" is listed under the surname "Rek", "prasol" under "Prasol").

For comparing folded text (typos, plural endings) a word's folded form also counts when the
word is frequent (Zipf ≥ ``FREQUENT``) even if simplemma lacks it; folding then merges it
with its accented spelling anyway.

Loaded once per language (``load``, from the game's ``warm_up`` in a thread: about a second
for Polish). Kept as sorted 64-bit hashes rather than sets of strings: about 1 MB per
language instead of tens, and a lookup is a binary search.
"""

from __future__ import annotations

import bisect
from array import array
from functools import cache, lru_cache
from itertools import chain, filterfalse

from simplemma.strategies import DictionaryLookupStrategy

from ...text.normalize import fold

IN_USE = 1.5  # Zipf: 10^1.5 per billion words
FREQUENT = 3.0  # Zipf: once in a million words; no misspelling we met is this common
_WORDFREQ_LANG = {"en": "en", "pt-BR": "pt", "es": "es", "pl": "pl"}
# wordfreq's packed lists store words in buckets of one centibel: bucket i holds words whose
# frequency is 10^(-i/100), that is Zipf 9 - i/100.
_BUCKETS_PER_ZIPF = 100


class Lexicon:
    """The words of one language in use, as written and folded, as sorted hashes."""

    def __init__(self, language: str, exact: array, folded: array, frequent: array) -> None:
        self.language = language
        self._exact = exact  # wordfreq words in use, as written
        self._folded = folded  # the same, folded
        self._frequent = frequent  # folded words at least FREQUENT

    def is_word(self, word: str) -> bool:
        """``word`` as written (lower case, accents kept) is a real word: in use and in
        simplemma's dictionary as a common word."""
        return _member(self._exact, word) and _known(word, _WORDFREQ_LANG[self.language])

    def is_word_or_spelling(self, word: str) -> bool:
        """``word`` is a real word, or folds to a frequent one ("arbol": árbol)."""
        return self.is_word(word) or _member(self._frequent, fold(word))

    def in_use_folded(self, folded: str) -> bool:
        """Some word in use folds to ``folded`` (to check a form a rule derived)."""
        return _member(self._folded, folded)


def _member(table: array, text: str) -> bool:
    value = hash(text)
    at = bisect.bisect_left(table, value)
    return at < len(table) and table[at] == value


# simplemma's dictionary alone, shared with its lemmatizer (no second copy in memory), without
# the guessing rules lemmatize() tries on unknown words (slow, and a guess is no evidence).
_DICTIONARY = DictionaryLookupStrategy()


@lru_cache(maxsize=1 << 16)  # bounded: the words come from players
def _known(word: str, code: str) -> bool:
    """simplemma's dictionary lists ``word`` as a form of a common word (not of a name)."""
    found = _DICTIONARY.get_lemma(word, code)
    return found is not None and found[:1] == found[:1].lower()


def _table(values: set[int]) -> array:
    return array("q", sorted(values))


@cache
def load(language: str) -> Lexicon:
    """The lexicon of a match language (``en``, ``pt-BR``, ``es``, ``pl``)."""
    from wordfreq import available_languages, read_cBpack  # 0.3 s to import: only here

    buckets = read_cBpack(available_languages("large")[_WORDFREQ_LANG[language]])
    in_use = round((9 - IN_USE) * _BUCKETS_PER_ZIPF)
    frequent = round((9 - FREQUENT) * _BUCKETS_PER_ZIPF)
    # Built with map() and set operations, not a Python loop per word: this runs in the
    # room's warm-up thread, and a long pure-Python loop would hold the interpreter lock
    # against the server's event loop for seconds. wordfreq's words are lower case already,
    # so only accented ones need folding. Python's str hash is the same within a process,
    # which is all a table needs; two words sharing a 64-bit hash is too unlikely to plan for.
    used = list(chain.from_iterable(buckets[: in_use + 1]))
    common_words = list(chain.from_iterable(buckets[: frequent + 1]))
    exact = set(map(hash, used))
    folded = exact | set(map(hash, map(fold, filterfalse(str.isascii, used))))
    common = set(map(hash, common_words))
    common |= set(map(hash, map(fold, filterfalse(str.isascii, common_words))))
    return Lexicon(language, _table(exact), _table(folded), _table(common))
