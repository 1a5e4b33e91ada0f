"""One word in another number or gender: the forms the judge accepts for a title's word.

"those that differ in number (singular/plural), genre ... are valid". A word stands for a
set of dictionary forms (``bases``): itself, its lemma (simplemma), the singular a plural
ending gives when that singular is a word in use (en "leaves" → "leaf", pl "wilki" → "wilk",
"liście" → "liść"), and the masculine of a feminine only where the language pairs them: the
lemmatizer (es "médica" → "médico") or our list of gender pairs (``genders/<lang>.txt``: pt
"gata" → "gato", which simplemma reads as a verb). Endings are never swapped on their own:
pt "bola" is not a female "bolo", es "puerta" is not a female "puerto".

All forms are flattened (``flat``: case and accents gone, but not the letters a language
counts as its own, Spanish ñ and the Polish ą ć ę ł ń ó ś ź ż), so es "moños" is never a
plural of "mono".
"""

from __future__ import annotations

import unicodedata
from functools import cache, lru_cache
from importlib import resources

import simplemma

from ...text.normalize import fold as _fold
from . import judging_words

WORD_CACHE = 1 << 16  # per-word caches are bounded: the words come from players
fold = lru_cache(maxsize=WORD_CACHE)(_fold)
_LEMMA_LANG = {"en": "en", "pt-BR": "pt", "es": "es", "pl": "pl"}
# Letters of a language's alphabet that look like an accented letter of another one.
OWN_LETTERS = {"es": "ñ", "pl": "ąćęłńóśźż", "en": "", "pt-BR": ""}
_HIDE = {
    lang: str.maketrans({c: chr(0xE000 + i) for i, c in enumerate(letters)})
    for lang, letters in OWN_LETTERS.items()
}
_SHOW = {
    lang: str.maketrans({chr(0xE000 + i): c for i, c in enumerate(letters)})
    for lang, letters in OWN_LETTERS.items()
}


@lru_cache(maxsize=WORD_CACHE)
def flat(word: str, language: str) -> str:
    """``fold`` that keeps the language's own letters (es "moño" stays "moño")."""
    if not OWN_LETTERS[language]:
        return fold(word)
    hidden = unicodedata.normalize("NFC", word).casefold().translate(_HIDE[language])
    return fold(hidden).translate(_SHOW[language])


# Plural endings and what the singular ends with instead, on folded text; each candidate
# counts only if it is a word in use (so "wives" → "wife", never "wive").
_SINGULARS: dict[str, tuple[tuple[str, str], ...]] = {
    "en": (
        ("ves", "f"),
        ("ves", "fe"),
        ("ies", "y"),
        ("men", "man"),
        ("es", ""),
        ("s", ""),
    ),
    "es": (("ces", "z"), ("es", ""), ("s", "")),
    "pt-BR": (
        ("oes", "ao"),
        ("aes", "ao"),
        ("aos", "ao"),
        ("ais", "al"),
        ("eis", "el"),
        ("ois", "ol"),
        ("is", "il"),
        ("ns", "m"),
        ("es", ""),
        ("s", ""),
    ),
    # Polish: masculine -y/-i/-e/-owie, feminine -y/-i/-e for -a, neuter -a for -o; a soft
    # consonant written with i before a vowel is an accented letter at the end (ci → ć).
    "pl": (
        ("owie", ""),
        ("cie", "c"),
        ("nie", "n"),
        ("sie", "s"),
        ("zie", "z"),
        ("y", ""),
        ("y", "a"),
        ("i", ""),
        ("i", "a"),
        ("e", ""),
        ("e", "a"),
        ("a", "o"),
    ),
}
MIN_STEM = 2  # "wives" → "wife", but "mes" is not the plural of "m"
# A lemmatizer that reads a noun as a verb form (es "cobra" → "cobrar", pt "gata" →
# "gatar") says nothing about the noun: such lemmas are left out.
_VERB_ENDINGS = {"es": ("ar", "er", "ir"), "pt-BR": ("ar", "er", "ir")}


@lru_cache(maxsize=WORD_CACHE)
def lemma(word: str, language: str) -> str:
    """The dictionary form of a word, flattened for comparing."""
    return flat(simplemma.lemmatize(word, lang=_LEMMA_LANG[language]), language)


def singulars(written: str, language: str) -> set[str]:
    """Singulars a plural ending of the flattened ``written`` gives, that are words in use.
    The endings are plain letters, so a Polish "liście" is also tried as "liśc": the soft
    "ci" of the plural is the "ć" of the singular."""
    lexicon = judging_words.load(language)
    plain = fold(written)
    found = set()
    for ending, replacement in _SINGULARS[language]:
        if plain.endswith(ending) and len(plain) - len(ending) >= MIN_STEM:
            candidate = plain[: -len(ending)] + replacement
            if lexicon.in_use_folded(candidate):
                found.add(_restore(written, len(plain) - len(ending), replacement, language))
    return found


_SOFTENED = {"c": "ć", "n": "ń", "s": "ś", "z": "ź"}


def _restore(written: str, stem: int, replacement: str, language: str) -> str:
    """The candidate singular with the word's own letters kept: the stem as written, and a
    Polish soft ending (ci → ć) written with its letter."""
    if language == "pl" and replacement in _SOFTENED:
        replacement = _SOFTENED[replacement]
    return written[:stem] + replacement


@lru_cache(maxsize=WORD_CACHE)
def bases(word: str, language: str) -> frozenset[str]:
    """The folded dictionary forms ``word`` (lower case, accents kept) may stand for."""
    written = flat(word, language)
    found = {written} | singulars(written, language)
    base = lemma(word, language)
    verbs = _VERB_ENDINGS.get(language, ())
    if not (verbs and base.endswith(verbs) and not written.endswith(verbs)):
        found.add(base)
    masculine = genders(language)
    found |= {masculine[f] for f in found if f in masculine}
    return frozenset(found)


def same_word(a: str, b: str, language: str) -> bool:
    """``a`` and ``b`` are one word, in any number or gender."""
    return bool(bases(a, language) & bases(b, language))


@cache
def genders(language: str) -> dict[str, str]:
    """Listed feminine → masculine, folded (``genders/<lang>.txt``)."""
    path = resources.files(__package__) / "genders" / f"{language}.txt"
    pairs: dict[str, str] = {}
    if not path.is_file():
        return pairs
    for line in path.read_text("utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        masculine, *feminines = (flat(item.strip(), language) for item in line.split("|"))
        for feminine in feminines:
            pairs[feminine] = masculine
    return pairs
