"""Does an interpretation match the title? The server's pre-mark, with its reason.

"Interpretations must match with what the artist wrote, but those that differ in number
(singular/plural), genre and synonyms are valid." The server marks each interpretation and
says why (same words, plural, gender, synonym, typo); the artist confirms or flips each mark
before scoring, so the pre-mark only has to be a good first guess, never the final word.

Tolerant (the default): case, accents, punctuation and articles are ignored; each word is
reduced to a key — its lemma (simplemma, per language) with gender endings folded by a few
rules per language; keys equal means right; keys in one synonym group (our lexicon) means
right; one letter off in a longer word is a typo and right. Perfect (the rulebook's variant):
only case and surrounding spaces are forgiven.

Everything here is deterministic, so a replayed match pre-marks exactly as it did live.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

import msgspec
import simplemma
from rapidfuzz.distance import Levenshtein

from ...text.normalize import fold

ARTICLES = {
    "en": {"a", "an", "the"},
    "pt-BR": {"o", "a", "os", "as", "um", "uma", "uns", "umas"},
    "es": {"el", "la", "los", "las", "un", "una", "unos", "unas"},
    "pl": set(),  # Polish has no articles
}
_LEMMA_LANG = {"en": "en", "pt-BR": "pt", "es": "es", "pl": "pl"}
_WORD = re.compile(r"[^\W\d_]+(?:[-'][^\W\d_]+)*")
# Gender and number endings folded to one form: gata/gato, médica/médico, profesora/profesor,
# lekarka/lekarz is irregular enough to live in the synonym lexicon instead.
_ENDINGS = {
    "pt-BR": [
        ("oras", "or"),
        ("ora", "or"),
        ("oes", "ao"),
        ("aes", "ao"),
        ("as", "o"),
        ("os", "o"),
        ("a", "o"),
        ("es", "e"),
    ],
    "es": [("oras", "or"), ("ora", "or"), ("as", "o"), ("os", "o"), ("a", "o"), ("es", "")],
    "en": [("ies", "y"), ("es", "e"), ("s", "")],
    "pl": [],
}
TYPO_MIN_LENGTH = 5  # shorter words: one letter off is usually another word (cat / car)


class Mark(msgspec.Struct, frozen=True):
    right: bool
    reason: str  # same | case_accents | article | number | gender | synonym | typo | blank
    # | different


def premark(title: str, interpretation: str, language: str, perfect: bool = False) -> Mark:
    """The server's first judgement of ``interpretation`` against ``title``."""
    if not interpretation.strip():
        return Mark(False, "blank")  # "If you didn't write any interpretation ... wrong."
    if perfect:
        same = title.strip().casefold() == interpretation.strip().casefold()
        return Mark(same, "same" if same else "different")
    if " ".join(title.split()) == " ".join(interpretation.split()):
        return Mark(True, "same")
    title_words, guess_words = words(title), words(interpretation)
    if title_words == guess_words:
        return Mark(True, "case_accents")
    articles = ARTICLES[language]
    title_core = [w for w in title_words if w not in articles] or title_words
    guess_core = [w for w in guess_words if w not in articles] or guess_words
    if title_core == guess_core:
        return Mark(True, "article")
    title_keys = [key(w, language) for w in title_core]
    guess_keys = [key(w, language) for w in guess_core]
    if title_keys == guess_keys:
        lemmas_equal = [lemma(w, language) for w in title_core] == [
            lemma(w, language) for w in guess_core
        ]
        return Mark(True, "number" if lemmas_equal else "gender")
    if synonyms(" ".join(title_keys), " ".join(guess_keys), language):
        return Mark(True, "synonym")
    if _one_letter_off(" ".join(title_core), " ".join(guess_core)):
        return Mark(True, "typo")
    return Mark(False, "different")


def words(text: str) -> list[str]:
    return _WORD.findall(fold(text))


@cache
def lemma(word: str, language: str) -> str:
    """The dictionary form of a folded word (simplemma needs accents, so it sees both)."""
    return fold(simplemma.lemmatize(word, lang=_LEMMA_LANG[language]))


@cache
def key(word: str, language: str) -> str:
    """One form for a word's number and gender variants."""
    base = lemma(word, language)
    for ending, replacement in _ENDINGS[language]:
        if base.endswith(ending) and len(base) - len(ending) >= 3:
            return base[: -len(ending)] + replacement
    return base


def synonyms(title_key: str, guess_key: str, language: str) -> bool:
    groups = synonym_index(language)
    return bool(groups.get(title_key, set()) & groups.get(guess_key, set()))


@cache
def synonym_index(language: str) -> dict[str, set[int]]:
    """Each member's key → the numbers of the groups it is in (synonyms/<lang>.txt)."""
    index: dict[str, set[int]] = {}
    path = resources.files(__package__).joinpath("synonyms", f"{language}.txt")
    if not path.is_file():
        return index
    number = 0
    for line in path.read_text("utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        number += 1
        for member in line.split("|"):
            member_words = [w for w in words(member) if w not in ARTICLES[language]]
            if member_words:
                member_key = " ".join(key(w, language) for w in member_words)
                index.setdefault(member_key, set()).add(number)
    return index


def _one_letter_off(a: str, b: str) -> bool:
    return min(len(a), len(b)) >= TYPO_MIN_LENGTH and Levenshtein.distance(a, b) == 1


def uses_category(title: str, forms: tuple[str, ...], language: str) -> str | None:
    """The word of ``title`` that is the category's name in some form, if any."""
    banned = set(forms) | {key(f, language) for f in forms}
    for word in words(title):
        if word in banned or key(word, language) in banned:
            return word
    return None


def warm_up(languages: tuple[str, ...] = ("en", "pt-BR", "es", "pl")) -> None:
    """Load the dictionaries ahead of time (Polish takes seconds); call off the event loop."""
    for language in languages:
        lemma("warm", language)
        synonym_index(language)
