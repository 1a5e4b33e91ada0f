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
import unicodedata
from functools import cache
from importlib import resources

import msgspec
import simplemma
from rapidfuzz.distance import DamerauLevenshtein

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
# Plain describing words (colour, size, age) that do not make a thing another kind of thing,
# as keys (folded lemmas): "red apple" is an apple. Compounds ("birthday cake") are not here.
MODIFIERS = {
    "en": {
        "red",
        "blue",
        "green",
        "yellow",
        "black",
        "white",
        "pink",
        "orange",
        "purple",
        "brown",
        "grey",
        "gray",
        "big",
        "small",
        "little",
        "large",
        "huge",
        "tiny",
        "giant",
        "old",
        "young",
        "new",
        "happy",
        "sad",
        "cute",
    },
    "pt-BR": {
        "vermelho",
        "azul",
        "verde",
        "amarelo",
        "preto",
        "branco",
        "rosa",
        "laranja",
        "roxo",
        "marrom",
        "cinza",
        "grande",
        "pequeno",
        "enorme",
        "gigante",
        "velho",
        "novo",
        "jovem",
        "feliz",
        "triste",
        "bonito",
    },
    "es": {
        "rojo",
        "azul",
        "verde",
        "amarillo",
        "negro",
        "blanco",
        "rosa",
        "naranja",
        "morado",
        "marron",
        "gris",
        "grande",
        "pequeno",
        "enorme",
        "gigante",
        "viejo",
        "nuevo",
        "joven",
        "feliz",
        "triste",
        "bonito",
    },
    "pl": {
        "czerwony",
        "niebieski",
        "zielony",
        "zolty",
        "czarny",
        "bialy",
        "rozowy",
        "pomaranczowy",
        "fioletowy",
        "brazowy",
        "szary",
        "duzy",
        "maly",
        "ogromny",
        "wielki",
        "stary",
        "nowy",
        "mlody",
        "wesoly",
        "smutny",
    },
}


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
    if [fold(w) for w in title_words] == [fold(w) for w in guess_words]:
        return Mark(True, "case_accents")
    articles = ARTICLES[language]
    title_core = [w for w in title_words if fold(w) not in articles] or title_words
    guess_core = [w for w in guess_words if fold(w) not in articles] or guess_words
    if [fold(w) for w in title_core] == [fold(w) for w in guess_core]:
        return Mark(True, "article")
    title_keys = [key(w, language) for w in title_core]
    guess_keys = [key(w, language) for w in guess_core]
    if _same_forms(title_core, guess_core, language):
        return Mark(
            True, "gender" if _gender_differs(title_core, guess_core, language) else "number"
        )
    if synonyms(" ".join(title_keys), " ".join(guess_keys), language):
        return Mark(True, "synonym")
    # "red apple" and "apple" name the same thing: a plain describing word may come or go.
    title_things = [k for k in title_keys if k not in MODIFIERS[language]] or title_keys
    guess_things = [k for k in guess_keys if k not in MODIFIERS[language]] or guess_keys
    if title_things == guess_things:
        return Mark(True, "same")
    if synonyms(" ".join(title_things), " ".join(guess_things), language):
        return Mark(True, "synonym")
    if _misspelt(" ".join(fold(w) for w in title_core), " ".join(fold(w) for w in guess_core)):
        return Mark(True, "typo")
    return Mark(False, "different")


def words(text: str) -> list[str]:
    """The words of ``text``, lower case, accents kept (the lemmatizer needs them)."""
    return _WORD.findall(unicodedata.normalize("NFC", text).casefold())


@cache
def lemma(word: str, language: str) -> str:
    """The dictionary form of a word, folded (accents and case gone) for comparing."""
    return fold(simplemma.lemmatize(word, lang=_LEMMA_LANG[language]))


@cache
def key(word: str, language: str) -> str:
    """One form for a word's number and gender variants, from its lemma."""
    return _fold_endings(lemma(word, language), language)


def _fold_endings(base: str, language: str) -> str:
    for ending, replacement in _ENDINGS[language]:
        if base.endswith(ending) and len(base) - len(ending) >= 3:
            return base[: -len(ending)] + replacement
    return base


def _gender_differs(a: list[str], b: list[str], language: str) -> bool:
    """For the reason shown to the artist: do the words differ by gender (gato / gata)?"""
    if language in ("pt-BR", "es"):

        def gender(word: str) -> str:
            bare = fold(word).removesuffix("s")
            return "f" if bare.endswith(("a", "ora")) else "m"

        return any(gender(x) != gender(y) for x, y in zip(a, b, strict=True))
    return [lemma(w, language) for w in a] != [lemma(w, language) for w in b]


def _same_forms(a: list[str], b: list[str], language: str) -> bool:
    """Word by word, the same word in another number or gender. Each word is tried through
    its lemma and as written, since a lemmatizer may read a noun as a verb (pt "gata")."""
    if len(a) != len(b):
        return False
    for x, y in zip(a, b, strict=True):
        xs = {key(x, language), _fold_endings(fold(x), language)}
        ys = {key(y, language), _fold_endings(fold(y), language)}
        if not xs & ys:
            return False
    return True


def synonyms(title_key: str, guess_key: str, language: str) -> bool:
    groups = synonym_index(language)
    return bool(groups.get(title_key, set()) & groups.get(guess_key, set()))


@cache
def synonym_index(language: str) -> dict[str, set[int]]:
    """Each member's key → the numbers of the groups it is in (synonyms/<lang>.txt)."""
    index: dict[str, set[int]] = {}
    path = resources.files(__package__) / "synonyms" / f"{language}.txt"
    if not path.is_file():
        return index
    number = 0
    for line in path.read_text("utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        number += 1
        for member in line.split("|"):
            member_words = [w for w in words(member) if fold(w) not in ARTICLES[language]]
            if member_words:
                member_key = " ".join(key(w, language) for w in member_words)
                index.setdefault(member_key, set()).add(number)
    return index


def _misspelt(a: str, b: str) -> bool:
    """One slip (a letter wrong, missing, extra, or two swapped) in a word of 5+ letters, two
    in one of 8+ ("elefnate"); shorter words are too easily another word (cat, car)."""
    shorter = min(len(a), len(b))
    if shorter < TYPO_MIN_LENGTH:
        return False
    allowed = 2 if shorter >= 8 else 1
    return DamerauLevenshtein.distance(a, b) <= allowed


def uses_category(title: str, forms: tuple[str, ...], language: str) -> str | None:
    """The word of ``title`` that is the category's name in some form, if any."""
    banned = set(forms) | {key(f, language) for f in forms}
    for word in words(title):
        if fold(word) in banned or key(word, language) in banned:
            return word
    return None


def warm_up(language: str) -> None:
    """Load a language's dictionaries ahead of time (Polish takes seconds): off the event loop."""
    lemma("warm", language)
    synonym_index(language)
