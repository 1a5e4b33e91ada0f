"""Does an interpretation match the title? The server's pre-mark, with its reason.

"Interpretations must match with what the artist wrote, but those that differ in number
(singular/plural), genre and synonyms are valid." The server marks each interpretation and
says why (same words, plural, gender, synonym, typo); the marks can be changed before
scoring, so the pre-mark only has to be a fair first judgement, never the final word.

Tolerant (the default), word by word after dropping articles: the same word in case or
accents (but not in a letter the language counts as its own: es "mono" is not "moño"), in
another number or gender (``judging_forms``), or a synonym (our lexicon); a guess may add a
plain describing word ("red apple" for "apple") but a title is matched as a whole ("snow" is
not "Snow White", "white wine" not "red wine"); a slip of a letter or two in a longer word
is a typo, unless the slip is itself a real word ("house" is not a typo of "horse":
``judging_words``). Perfect (the rulebook's variant): only case and surrounding spaces are
forgiven.

Deterministic for given versions of simplemma and wordfreq (pinned in pyproject.toml). A
replay does not rely on it: each mark is made once, when the interpretation is sent, and kept
in the log with it (``rules.verdicts``), so a later judge never re-marks a saved match.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from functools import cache, lru_cache
from importlib import resources

import msgspec
import simplemma
from rapidfuzz.distance import DamerauLevenshtein

from ...text.normalize import fold as _fold
from . import judging_words
from .judging_forms import bases, flat, genders, lemma

ARTICLES = {
    "en": {"a", "an", "the"},
    "pt-BR": {"o", "a", "os", "as", "um", "uma", "uns", "umas"},
    "es": {"el", "la", "los", "las", "un", "una", "unos", "unas"},
    "pl": set(),  # Polish has no articles
}
_LEMMA_LANG = {"en": "en", "pt-BR": "pt", "es": "es", "pl": "pl"}
_WORD = re.compile(r"[^\W\d_]+(?:[-'][^\W\d_]+)*")
# The category check's ending rules (``uses_category``), kept as they were: that check runs
# again when a saved match is replayed, so it must not start refusing a saved title.
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


# Per-word work is cached, in bounded caches: the words come from players.
WORD_CACHE = 1 << 16
fold = lru_cache(maxsize=WORD_CACHE)(_fold)


class Mark(msgspec.Struct, frozen=True):
    right: bool
    reason: str  # same | case_accents | article | number | gender | synonym | typo | blank
    # | different


# When several words differ for several reasons, the mark names the strongest.
_STRENGTH = ["same", "case_accents", "number", "gender", "synonym", "typo"]
MAX_PHRASES = 64  # spellings of a phrase tried against the lexicon (titles are short)


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
    if not title_words or not guess_words:  # "101", an emoji: nothing to compare word by word
        return Mark(False, "different")  # (the same text was "same" above; the table may vote)
    if _folds_alike(title_words, guess_words, language):
        return Mark(True, "case_accents")
    articles = ARTICLES[language]
    title_core = [w for w in title_words if fold(w) not in articles] or title_words
    guess_core = [w for w in guess_words if fold(w) not in articles] or guess_words
    dropped = title_core != title_words or guess_core != guess_words
    if dropped and _folds_alike(title_core, guess_core, language):
        return Mark(True, "article")
    if _joined(title_core, language) == _joined(guess_core, language):
        return Mark(True, "same")  # "snow man", "snow-man" for "snowman"
    reason = _match(title_core, guess_core, language)
    if reason is None:
        # The guess may add plain describing words the title does not have ("red apple"
        # for "apple"); never drop any of the title's words ("snow" for "Snow White").
        extra = _added_modifiers(title_core, guess_core, language)
        if extra:
            reason = _match(title_core, [w for w in guess_core if w not in extra], language)
    if reason is None:
        reason = _misspelt(title_core, guess_core, language)
    return Mark(True, reason) if reason else Mark(False, "different")


def words(text: str) -> list[str]:
    """The words of ``text``, lower case, accents kept (the lemmatizer needs them)."""
    return _WORD.findall(unicodedata.normalize("NFC", text).casefold())


def _joined(core: list[str], language: str) -> str:
    return "".join(flat(w, language) for w in core).replace("-", "").replace("'", "")


def _folds_alike(a: list[str], b: list[str], language: str) -> bool:
    """The same words but for case and accents. A difference in a letter the language
    counts as its own (ñ, ł, ż) counts only while the guess is not another real word: pl
    "zolw" is "żółw" typed on a plain keyboard, es "mono" is a monkey, not a "moño"."""
    if len(a) != len(b):
        return False
    return all(_same_letters(x, y, language) for x, y in zip(a, b, strict=True))


def _same_letters(x: str, y: str, language: str) -> bool:
    if fold(x) != fold(y):
        return False
    if flat(x, language) == flat(y, language):
        return True
    lexicon = judging_words.load(language)
    return not (lexicon.is_word(x) and lexicon.is_word(y))


def _match(title: list[str], guess: list[str], language: str) -> str | None:
    """Word by word the same words, in any number or gender or as synonyms; or the whole
    phrase a synonym of the whole title ("kostka do gry" / "kość do gry")."""
    if len(title) == len(guess):
        reasons = [_word_match(x, y, language) for x, y in zip(title, guess, strict=True)]
        if None not in reasons:
            return max(reasons, key=_STRENGTH.index)  # type: ignore[arg-type]
    return "synonym" if _in_one_group(title, guess, language) else None


def _word_match(x: str, y: str, language: str) -> str | None:
    if x == y:
        return "same"
    if _same_letters(x, y, language):
        return "case_accents"
    if bases(x, language) & bases(y, language):
        return "gender" if _gender_differs(x, y, language) else "number"
    if _in_one_group([x], [y], language):
        return "synonym"
    return None


def _gender_differs(x: str, y: str, language: str) -> bool:
    """For the reason shown: do the words differ by gender (gato / gata), not number?"""
    feminine = genders(language)
    if {flat(x, language), flat(y, language)} & feminine.keys():
        return True
    if language in ("pt-BR", "es"):

        def gender(word: str) -> str:
            bare = fold(word).removesuffix("s")
            return "f" if bare.endswith(("a", "ora")) else "m"

        return gender(x) != gender(y)
    return False  # en and pl gender forms are synonym groups (lion / lioness)


def _added_modifiers(title: list[str], guess: list[str], language: str) -> list[str]:
    """The guess's plain describing words (colour, size, age) that the title lacks."""
    plain = MODIFIERS[language]
    return [
        w
        for w in guess
        if {fold(b) for b in bases(w, language)} & plain
        and not any(bases(w, language) & bases(t, language) for t in title)
    ]


def _phrases(core: list[str], language: str) -> set[str]:
    """The phrase in every combination of its words' forms (a few dozen at most)."""
    found: set[str] = set()
    for combination in itertools.product(*(sorted(bases(w, language)) for w in core)):
        found.add(" ".join(combination))
        if len(found) >= MAX_PHRASES:
            break
    return found


def _in_one_group(title: list[str], guess: list[str], language: str) -> bool:
    groups = synonym_index(language)
    title_groups: set[int] = set()
    for phrase in _phrases(title, language):
        title_groups |= groups.get(phrase, set())
    if not title_groups:
        return False
    return any(groups.get(p, set()) & title_groups for p in _phrases(guess, language))


def synonyms(title: str, guess: str, language: str) -> bool:
    """``title`` and ``guess`` (any forms) are in one synonym group."""
    return _in_one_group(_core(title, language), _core(guess, language), language)


def _core(text: str, language: str) -> list[str]:
    found = words(text)
    return [w for w in found if fold(w) not in ARTICLES[language]] or found


@cache
def synonym_index(language: str) -> dict[str, set[int]]:
    """Each member, flattened → the numbers of the groups it is in (synonyms/<lang>.txt)."""
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
            member_words = _core(member, language)
            if member_words:
                key_ = " ".join(flat(w, language) for w in member_words)
                index.setdefault(key_, set()).add(number)
    return index


def _misspelt(title: list[str], guess: list[str], language: str) -> str | None:
    """Word by word, the same words but for slips: one (a letter wrong, missing, extra, or
    two swapped) in a word of 5+ letters, two in one of 8+ ("elefnate"); shorter words are
    too easily another word (cat, car). A slip that is itself a real word, while the title's
    word is one too, is another word: "house" for "horse", es "plaza" for "playa"."""
    if len(title) != len(guess):
        return None
    lexicon = judging_words.load(language)
    slips = 0
    for x, y in zip(title, guess, strict=True):
        if _word_match(x, y, language):
            continue
        a, b = fold(x), fold(y)
        shorter = min(len(a), len(b))
        if shorter < TYPO_MIN_LENGTH:
            return None
        allowed = 2 if shorter >= 8 else 1
        if DamerauLevenshtein.distance(a, b) > allowed:
            return None
        if lexicon.is_word_or_spelling(y) and lexicon.is_word_or_spelling(x):
            return None
        slips += 1
    return "typo" if slips else None


@lru_cache(maxsize=WORD_CACHE)
def _category_key(word: str, language: str) -> str:
    """The category check's form of a word (its lemma with gender endings folded)."""
    base = fold(simplemma.lemmatize(word, lang=_LEMMA_LANG[language]))
    for ending, replacement in _ENDINGS[language]:
        if base.endswith(ending) and len(base) - len(ending) >= 3:
            return base[: -len(ending)] + replacement
    return base


def uses_category(
    title: str, forms: tuple[str, ...], language: str, parts: bool = False
) -> str | None:
    """The word of ``title`` that is the category's name in some form, if any. With
    ``parts``, each part of a hyphenated word too ("beach-ball" at the beach): live titles
    only, as a replayed one must not start being refused (see ``_ENDINGS``)."""
    banned = set(forms) | {_category_key(f, language) for f in forms}
    for word in words(title):
        pieces = [word, *re.split("[-']", word)] if parts else [word]
        for piece in pieces:
            if fold(piece) in banned or _category_key(piece, language) in banned:
                return piece
    return None


def warm_up(language: str) -> None:
    """Load a language's dictionaries ahead of time (Polish takes seconds): off the event loop."""
    lemma("warm", language)
    judging_words.load(language)
    genders(language)
    synonym_index(language)
