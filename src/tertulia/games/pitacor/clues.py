"""Pitacor's clue rules: what the clue giver may write, and why a clue is refused.

Implements "What counts as a clue" in ``rules/pitacor.txt``. The rules engine calls
``check_clue`` when a clue is given; the browser's live "why not" check calls
``clue_problems`` while the giver types, so everything is looked up in sets built at import
(no file reads, no lemmatiser per call; a check takes a few microseconds).

Matching is by whole words in folded form (``text.normalize.fold``), never by substring:
the word lists in ``lexicon/`` spell out every form (reddish, avermelhadas, czerwonego), so
"credit" or "verdade" can never be caught by "red" or "verde". A hyphenated word is checked
whole, part by part and with the hyphen removed ("sea-blue", "bl-ue"); a two-word clue is also
checked run together ("gr een"), so splitting a banned word does not sneak it through. A word
that is listed words run together is read piece by piece (``text.compounds``): number words
("twentyfive") and colour words with colour or light/dark words ("bluegreen", "lightblue"),
while a colour word glued to any other word names a thing and stays allowed ("blueberry").
A row letter glued to a number word ("Kfive", "twelveH") is a coordinate, unless the word is
a real one of that shape ("bone", "height"; ``lexicon/glued_coordinates.txt``).

The word lists grow between versions, so a clue replayed from a saved match is not looked up
in them again (``ClueRules.judge_words``): only the rules that depend on nothing but the
match and a fixed pattern are checked again: the shape, digits, Roman numerals (II to
XXXIX, read by a pattern, not a list), coordinates like "K25", nicknames and repeats.
Coordinates spelled with a number word need the number lists and the exception list, so
they are not.

Order of problems: the clue's shape first (too many words), then each word's shape in the
order the words appear, then each word's content (numbers, colours, host bans, profanity),
then what concerns the whole clue (a word split in two, a repeated clue).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from importlib.resources import files
from typing import Any

import msgspec

from tertulia.games.base import RuleError
from tertulia.games.pitacor.board import CLASSIC
from tertulia.text import compounds, profanity
from tertulia.text.lookalike import mixed_scripts
from tertulia.text.normalize import fold, tidy
from tertulia.text.numbers import NUMBER_WORDS, number_word, roman_value, run_together_number
from tertulia.text.wordlist import Entry, load

# --------------------------------------------------------------------------- codes

EMPTY = "clue.empty"  # nothing but spaces
TOO_MANY_WORDS = "clue.too_many_words"  # more words than this clue allows (params: max)
NOT_LETTERS = "clue.not_letters"  # a character that is neither a letter nor a joining hyphen
TOO_SHORT = "clue.too_short"  # a word with fewer than two letters
TOO_MANY_HYPHENS = "clue.too_many_hyphens"  # a word with more than one hyphen
MIXED_SCRIPTS = "clue.mixed_scripts"  # one word in two alphabets: "rеd" with a Cyrillic "е"
COLOR_NAME = "clue.color_name"  # a basic colour name or one of its forms (params: colour)
NUMBER = "clue.number"  # digits, a number word or a Roman numeral
COORDINATE = "clue.coordinate"  # shaped like a board coordinate: K25, 12h, Kfive
ALREADY_USED = "clue.already_used"  # the same clue was given earlier in the match
LIGHT_DARK = "clue.light_dark"  # light/dark words, when the host bans them
DIRECTION = "clue.direction"  # up, left, north, centre, corner…, when the host bans them
NICKNAME = "clue.nickname"  # a player's nickname or a word of it, when the host bans them
PROFANITY = "clue.profanity"  # profanity, always in public rooms

CODES = (
    EMPTY, TOO_MANY_WORDS, NOT_LETTERS, TOO_SHORT, TOO_MANY_HYPHENS, MIXED_SCRIPTS, COLOR_NAME,
    NUMBER, COORDINATE, ALREADY_USED, LIGHT_DARK, DIRECTION, NICKNAME, PROFANITY,
)  # fmt: skip

MIN_LETTERS = 2  # "at least two letters"
MAX_HYPHENS = 1  # "at most one hyphen"
MIN_NICKNAME_WORD = 3  # shorter pieces of a nickname ("Jo", "da") are too common to ban

# --------------------------------------------------------------------------- word lists

LANGUAGES = ("en", "pt", "es", "pl")  # pl is our extension: the interface speaks Polish

_LEXICON = files(__package__) / "lexicon"
COLOURS: dict[str, Entry] = load(_LEXICON, "colours", LANGUAGES)
LIGHT_DARK_WORDS: dict[str, Entry] = load(_LEXICON, "light_dark", LANGUAGES)
DIRECTIONS: dict[str, Entry] = load(_LEXICON, "directions", LANGUAGES)
# The first parts of colour words run together (es "roji" in "rojiblanco"): pieces only.
COMBINING: dict[str, Entry] = load(_LEXICON, "combining", ("es", "pt"))
# What a colour word run together may be made of: colour, light/dark and combining forms.
# Not pieces: pl "róż" (pink) folds to "roz", the Polish prefix of "rozpalę" (I will kindle)
# or "rozjaśni" (it will brighten), which are not colour words run together.
_NOT_PIECES = frozenset({"roz"})
_COLOUR_PIECES = compounds.Pieces(
    p for p in [*COLOURS, *LIGHT_DARK_WORDS, *COMBINING] if p not in _NOT_PIECES
)


def _read_homographs() -> frozenset[str]:
    text = _LEXICON.joinpath("homographs.txt").read_text(encoding="utf-8")
    lines = (line.split("#", 1)[0].strip() for line in text.splitlines())
    return frozenset(unicodedata.normalize("NFC", line).casefold() for line in lines if line)


# Spelled exactly so, these are other words that only fold to a banned form (piec / pięć).
HOMOGRAPHS = _read_homographs()


def _number_value(tag: str) -> int | None:
    """A number word's value from its tag ("12", "12th"); None for "10^6" and the like."""
    match = re.fullmatch(r"(\d+)(?:st|nd|rd|th)?", tag)
    return int(match[1]) if match else None


# Number words that name a board column ("five", "doce", "quinze", "piąty", "twelfth"): a
# row letter glued to one spells a coordinate ("Kfive"). Three letters or more, as for
# numbers run together (``text.compounds``): pt "um" or es "un" end too many words.
_COLUMN_WORDS: dict[str, int] = {
    word: value
    for word, entry in NUMBER_WORDS.items()
    if len(word) >= compounds.MIN_PIECE
    and (value := _number_value(entry.tag)) is not None
    and 1 <= value <= CLASSIC.cols
}


# The rows of the classic board, A to P (Ultra Hard's A to H are among them), folded: the
# letter the board names each row's cells with.
_ROW_LETTERS = frozenset(CLASSIC.name(row, 0)[0].lower() for row in range(CLASSIC.rows))


def _read_glued_exceptions() -> frozenset[str]:
    text = _LEXICON.joinpath("glued_coordinates.txt").read_text(encoding="utf-8")
    lines = (line.split("#", 1)[0].strip() for line in text.splitlines())
    return frozenset(line for line in lines if line)


# Real words shaped like a glued coordinate ("bone", "height", es "luna", pt "coito"), made
# from simplemma's dictionaries by ``lexicon/make_glued_coordinates.py``, not at run time.
GLUED_EXCEPTIONS = _read_glued_exceptions()

_HYPHENS = frozenset("-\u2010\u2011")
# Letter+number in either order, one or two letters, up to three digits: K25, h12, 12H, AB-7.
_COORDINATE = re.compile(r"[^\W\d_]{1,2}-?\d{1,3}|\d{1,3}-?[^\W\d_]{1,2}")
_LETTERS_ONLY = re.compile(r"[^\W\d_]{1,2}")
_DIGITS_ONLY = re.compile(r"\d{1,3}")

# --------------------------------------------------------------------------- public API


class ClueRules(msgspec.Struct, frozen=True):
    """The host's options and the match's memory that a clue is checked against."""

    ban_light_dark: bool = True  # host option, on by default
    ban_directions: bool = True  # host option, on by default
    ban_nicknames: bool = True  # host option, on by default
    ban_profanity: bool = True  # the engine forces True in public rooms
    nicknames: tuple[str, ...] = ()  # players' nicknames in the match
    used: tuple[str, ...] = ()  # clue_key() of every clue already given in the match
    # Look the words up in the word lists (numbers, colours, light/dark, directions,
    # profanity). False for a clue replayed from a saved match: the lists grow between
    # versions, and a clue accepted once must stay accepted.
    judge_words: bool = True


class ClueProblem(msgspec.Struct, frozen=True):
    """One reason a clue is refused: a stable code, the word, an English sentence, params."""

    code: str
    word: str
    message: str
    params: dict[str, Any]


def clue_problems(text: str, max_words: int, rules: ClueRules) -> list[ClueProblem]:
    """Every reason the clue is refused, in the order the words appear (structural first).

    An empty list means the clue is allowed.
    """
    if max_words < 1:
        raise ValueError(f"expected max_words >= 1, got {max_words}")
    words = tidy(text).split(" ") if text.strip() else []
    if not words:
        return [_problem(EMPTY, "", "The clue is empty.")]
    problems: list[ClueProblem] = []
    if len(words) > max_words:
        allowed = "one word" if max_words == 1 else f"{max_words} words"
        message = f"This clue may have at most {allowed}."
        problems.append(_problem(TOO_MANY_WORDS, "", message, max=max_words, count=len(words)))
    for word in words:
        problems.extend(_shape_problems(word))
    for word in words:
        problems.extend(_content_problems(word, rules))
    problems.extend(_whole_clue_problems(words, rules))
    return _unique(problems)


def check_clue(text: str, max_words: int, rules: ClueRules) -> str:
    """Return the clue tidied for display, or raise ``RuleError`` for its first problem."""
    problems = clue_problems(text, max_words, rules)
    if problems:
        first = problems[0]
        raise RuleError(first.code, first.message, **first.params)
    return tidy(text)


def clue_key(text: str) -> str:
    """The form used to compare clues for "already used in the match".

    Case-, accent- and spacing-insensitive; a hyphen counts as a space, so "sea-blue" and
    "sea blue" are the same clue.
    """
    folded = fold(text)
    for hyphen in _HYPHENS:
        folded = folded.replace(hyphen, " ")
    return " ".join(folded.split())


# --------------------------------------------------------------------------- shape


def _shape_problems(word: str) -> list[ClueProblem]:
    """'A word has letters only (accents are fine), at least two letters, at most one hyphen'."""
    problems: list[ClueProblem] = []
    letters = hyphens = 0
    has_number = False
    previous_is_letter = False
    bad_char = ""
    for ch in word:
        if ch.isalpha():
            letters += 1
            previous_is_letter = True
        elif previous_is_letter and unicodedata.category(ch).startswith("M"):
            continue  # a combining accent on the letter before it
        else:
            previous_is_letter = False
            if ch in _HYPHENS:
                hyphens += 1
            elif ch.isnumeric():
                has_number = True  # reported as clue.number or clue.coordinate instead
            elif not bad_char:
                bad_char = ch
    if bad_char:
        message = f"'{word}' has '{bad_char}', which is not a letter."
        problems.append(_problem(NOT_LETTERS, word, message, char=bad_char))
    elif hyphens and (word[0] in _HYPHENS or word[-1] in _HYPHENS):
        dangling = word[0] if word[0] in _HYPHENS else word[-1]
        message = f"'{word}' has a hyphen that does not join two parts."
        problems.append(_problem(NOT_LETTERS, word, message, char=dangling))
    if letters < MIN_LETTERS and not has_number:
        message = f"'{word}' is too short: a word needs at least two letters."
        problems.append(_problem(TOO_SHORT, word, message, min=MIN_LETTERS))
    if hyphens > MAX_HYPHENS:
        message = f"'{word}' has more than one hyphen."
        problems.append(_problem(TOO_MANY_HYPHENS, word, message, max=MAX_HYPHENS))
    return problems


# --------------------------------------------------------------------------- content


def _content_problems(word: str, rules: ClueRules) -> list[ClueProblem]:
    """What the word says: numbers, coordinates, colours, the host's bans, profanity."""
    problems: list[ClueProblem] = []
    if rules.judge_words and mixed_scripts(word):
        # A Cyrillic or Greek letter that looks Latin would slip a colour name ("rеd") or a
        # clue already given ("oceаn") past every list, which are read in one alphabet. Not
        # on replay, like the lists: a clue saved before this rule must replay.
        message = f"'{word}' mixes alphabets; write each word in one alphabet."
        problems.append(_problem(MIXED_SCRIPTS, word, message))
    folded = fold(word)
    if any(ch.isnumeric() for ch in word):
        if _COORDINATE.fullmatch(folded):
            message = f"'{word}' looks like a board coordinate."
            problems.append(_problem(COORDINATE, word, message))
        else:
            problems.append(_problem(NUMBER, word, f"'{word}' is a number."))
    problems.extend(_lexicon_problems(word, _lookup_keys(word), rules))
    if rules.judge_words and rules.ban_profanity and profanity.is_profane(word):
        message = f"'{word}' is filtered as profanity."
        problems.append(_problem(PROFANITY, word, message))
    return problems


def _lookup_keys(word: str) -> list[tuple[str, str]]:
    """Pairs ``(as typed, folded)`` to look up: the word, its parts, the parts run together."""
    parts = [part for part in re.split("[-\u2010\u2011]", word) if part]
    keys = [word, *parts]
    if len(parts) > 1:
        keys.append("".join(parts))
    return [(key, fold(key)) for key in dict.fromkeys(keys)]


def _lexicon_problems(
    word: str, keys: list[tuple[str, str]], rules: ClueRules
) -> list[ClueProblem]:
    """Check every key against the word lists; ``word`` is what the problems name."""
    problems: list[ClueProblem] = []
    for typed, folded in keys:
        if unicodedata.normalize("NFC", typed).casefold() in HOMOGRAPHS:
            continue
        extra = {"part": typed} if typed != word else {}
        number = _number_problem(word, folded, extra) if rules.judge_words else None
        if number is not None:
            problems.append(number)
        elif (value := roman_value(folded)) is not None:
            message = f"'{word}' is a Roman numeral."
            problems.append(_problem(NUMBER, word, message, value=str(value), **extra))
        elif rules.judge_words and (column := _glued_coordinate(folded)) is not None:
            message = f"'{word}' looks like a board coordinate."
            problems.append(_problem(COORDINATE, word, message, column=str(column), **extra))
        if rules.judge_words:
            problems.extend(_word_list_problems(word, folded, rules, extra))
        if rules.ban_nicknames:
            nickname = _nickname_words(rules.nicknames).get(folded)
            if nickname is not None:
                message = f"'{word}' is a player's nickname, which the host has banned."
                problems.append(_problem(NICKNAME, word, message, nickname=nickname, **extra))
    return problems


def _number_problem(word: str, folded: str, extra: dict[str, str]) -> ClueProblem | None:
    """A number word ("twelve", "twelfth", "duodécimo"), or number words run together
    ("twentyfive", "treintaicinco"), which point at a column as plainly as "twenty-five"."""
    if (entry := number_word(folded)) is not None:
        message = f"'{word}' is a number word."
        return _problem(NUMBER, word, message, value=entry.tag, **extra)
    if (entries := run_together_number(folded)) is not None:
        message = f"'{word}' is number words run together."
        value = "+".join(e.tag for e in entries)
        return _problem(NUMBER, word, message, value=value, **extra)
    return None


def glued_coordinate_column(folded: str) -> int | None:
    """The column named if ``folded`` is a row letter glued to a number word that names a
    column, before or after it ("kfive", "fivek", "bdoce", "htwentyfive"), else None. A row
    letter is one of the board's, A to P: with any letter, or two, a clue of two everyday
    words glued together would read as one ("on end", pt "do céu"). The shape alone: real
    words of this shape ("bone", "height") are in ``GLUED_EXCEPTIONS``, and a word that is
    itself a number ("ones") is refused as a number before this is asked."""
    if not folded.isalpha():
        return None
    ends = (
        (folded[0], folded[1:]),  # "kfive"
        (folded[-1], folded[:-1]),  # "fivek"
    )
    for letter, number in ends:
        if letter in _ROW_LETTERS and (column := _column_named(number)) is not None:
            return column
    return None


def _column_named(folded: str) -> int | None:
    """The column a number word, or number words run together, name ("five", "twentyfive")."""
    if (column := _COLUMN_WORDS.get(folded)) is not None:
        return column
    entries = run_together_number(folded) if len(folded) >= compounds.MIN_PIECE else None
    values = [_number_value(entry.tag) for entry in entries or ()]
    if not values or None in values:
        return None
    total = sum(value for value in values if value is not None)
    return total if 1 <= total <= CLASSIC.cols else None


def _glued_coordinate(folded: str) -> int | None:
    """A coordinate spelled with a number word ("Kfive", "Bdoce", "twelveH"): 'board
    coordinates (like "K25")' as plainly as "K25" or "K five" (whose "five" is a number)."""
    if folded in GLUED_EXCEPTIONS:
        return None
    return glued_coordinate_column(folded)


def _word_list_problems(
    word: str, folded: str, rules: ClueRules, extra: dict[str, str]
) -> list[ClueProblem]:
    """What the colour, light/dark and direction lists say of one key."""
    problems: list[ClueProblem] = []
    entry = COLOURS.get(folded)
    run_together = entry is None and (entry := _colour_compound(folded)) is not None
    if entry is not None:
        message = (
            f"'{word}' is colour words run together ({entry.base})."
            if run_together
            else f"'{word}' is a form of a colour name ({entry.base})."
        )
        params = {"colour": entry.tag, "base": entry.base, "lang": entry.lang, **extra}
        problems.append(_problem(COLOR_NAME, word, message, **params))
    if rules.ban_light_dark and (entry := LIGHT_DARK_WORDS.get(folded)) is not None:
        message = f"'{word}' says light or dark, which the host has banned."
        problems.append(_problem(LIGHT_DARK, word, message, base=entry.base, **extra))
    if rules.ban_directions and (entry := DIRECTIONS.get(folded)) is not None:
        message = f"'{word}' is a direction or a position, which the host has banned."
        problems.append(_problem(DIRECTION, word, message, base=entry.base, **extra))
    return problems


def _colour_compound(folded: str) -> Entry | None:
    """The first colour in a word made only of colour, light/dark and combining forms run
    together ("bluegreen", "lightblue", "rojiblanco", "jasnoniebieski"), if it has one.

    A colour glued to any other word ("blueberry", "redhead", "greenhouse") names a thing
    and is not one of these: every piece must be a listed form (``text.compounds``)."""
    pieces = _COLOUR_PIECES.split(folded)
    if pieces is None:
        return None
    return next((COLOURS[p] for p in pieces if p in COLOURS), None)


@lru_cache(maxsize=256)
def _nickname_words(nicknames: tuple[str, ...]) -> dict[str, str]:
    """Folded whole nicknames and their words of 3+ letters, each mapped to its nickname.

    Words are split at anything that is not a letter and at camelCase joins, so
    "MariaSilva_99" gives "mariasilva_99", "maria" and "silva".
    """
    table: dict[str, str] = {}
    for nickname in nicknames:
        table.setdefault(" ".join(fold(nickname).split()), nickname)
        pieces: list[str] = []
        current = ""
        for index, ch in enumerate(nickname):
            camel_join = index > 0 and ch.isupper() and nickname[index - 1].islower()
            if not ch.isalpha() or camel_join:
                pieces.append(current)
                current = ch if ch.isalpha() else ""
            else:
                current += ch
        pieces.append(current)
        for piece in pieces:
            if len(piece) >= MIN_NICKNAME_WORD:
                table.setdefault(fold(piece), nickname)
    return table


# --------------------------------------------------------------------------- whole clue


def _whole_clue_problems(words: list[str], rules: ClueRules) -> list[ClueProblem]:
    """Problems only the whole clue shows: "K 25", "gr een", a two-word phrase, a repeat."""
    problems: list[ClueProblem] = []
    clue = " ".join(words)
    if len(words) == 2:
        first, second = fold(words[0]), fold(words[1])
        split_coordinate = (_LETTERS_ONLY.fullmatch(first) and _DIGITS_ONLY.fullmatch(second)) or (
            _DIGITS_ONLY.fullmatch(first) and _LETTERS_ONLY.fullmatch(second)
        )
        if split_coordinate:
            message = f"'{clue}' looks like a board coordinate."
            problems.append(_problem(COORDINATE, clue, message))
        joined = words[0] + words[1]
        keys = [(joined, fold(joined)), (clue, " ".join(fold(clue).split()))]
        problems.extend(_lexicon_problems(clue, keys, rules))
        if rules.judge_words and rules.ban_profanity and profanity.is_profane(clue):
            message = f"'{clue}' is filtered as profanity."
            problems.append(_problem(PROFANITY, clue, message))
    if clue_key(clue) in rules.used:
        problems.append(_problem(ALREADY_USED, "", "This clue was already given in this match."))
    return problems


# --------------------------------------------------------------------------- helpers


def _problem(code: str, word: str, message: str, **params: Any) -> ClueProblem:
    return ClueProblem(code=code, word=word, message=message, params={"word": word, **params})


def _unique(problems: list[ClueProblem]) -> list[ClueProblem]:
    """Keep the first problem of each (code, word): "red-red" is one colour problem.

    A whole-clue problem whose code a single word already raised is dropped too: "fuck you"
    is refused for "fuck", no need to say it again for the phrase.
    """
    seen_words: set[tuple[str, str]] = set()
    seen_codes: set[str] = set()
    unique: list[ClueProblem] = []
    for problem in problems:
        key = (problem.code, problem.word)
        whole_clue = " " in problem.word
        if key in seen_words or (whole_clue and problem.code in seen_codes):
            continue
        seen_words.add(key)
        seen_codes.add(problem.code)
        unique.append(problem)
    return unique
