"""Read our word-list files: explicit words plus forms generated from stems and suffix lists.

Why generate: a colour or number has dozens of forms (gender, plural, case, diminutive,
derived adjectives and verbs). Writing ``vermelh+@o`` once is easier to review than forty
lines, yet the result is still an explicit set of whole words: a lookup never matches a mere
prefix or substring, so "credit" can never be caught by "red".

The format, one entry per line (``#`` starts a comment, an indented line continues the
previous one)::

    @o = o a os as                     a suffix class; "_" stands for "no suffix"
    vermelho = red: vermelh+@o avermelh+ado,ada,ados,adas  vermelhidão
    três = 3

The head names the entry: ``base`` or ``base = tag`` (the tag is free text, e.g. the English
colour or a number's value); the base is a form too, and ": forms" may be left out. A token
is a literal word, or ``stem+suffixes`` where the suffixes are a comma list of literal
suffixes and ``@class`` names.
"""

from __future__ import annotations

from collections.abc import Iterator
from importlib.resources.abc import Traversable

import msgspec

from tertulia.text.normalize import fold


class Entry(msgspec.Struct, frozen=True):
    """One line of a word list: the base word, its tag, and the file's language."""

    base: str
    tag: str
    lang: str


def _logical_lines(text: str) -> Iterator[str]:
    """Yield lines with comments removed and indented continuation lines joined."""
    current = ""
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].rstrip()
        if not line.strip():
            continue
        if line[0].isspace() and current:
            current += " " + line.strip()
            continue
        if current:
            yield current
        current = line.strip()
    if current:
        yield current


def _expand(token: str, classes: dict[str, list[str]]) -> list[str]:
    if "+" not in token:
        return [token]
    stem, _, spec = token.partition("+")
    suffixes: list[str] = []
    for part in spec.split(","):
        if part.startswith("@"):
            if part[1:] not in classes:
                raise ValueError(f"unknown suffix class {part!r} in {token!r}")
            suffixes.extend(classes[part[1:]])
        else:
            suffixes.append(part)
    return [stem + ("" if suffix == "_" else suffix) for suffix in suffixes]


def parse(text: str, lang: str) -> dict[str, Entry]:
    """Parse a word list; return every generated form, folded, mapped to its entry.

    A form listed under two entries keeps the first: files list the main sense first.
    """
    classes: dict[str, list[str]] = {}
    forms: dict[str, Entry] = {}
    for line in _logical_lines(text):
        if line.startswith("@"):
            name, _, suffixes = line[1:].partition("=")
            classes[name.strip()] = suffixes.split()
            continue
        head, _, body = line.partition(":")
        base, _, tag = head.partition("=")
        if not base.strip():
            raise ValueError(f"expected 'base = tag: forms', got {line!r}")
        entry = Entry(base=base.strip(), tag=tag.strip() or base.strip(), lang=lang)
        for token in [entry.base, *body.split()]:
            for form in _expand(token, classes):
                forms.setdefault(fold(form), entry)
    return forms


def load(folder: Traversable, stem: str, langs: tuple[str, ...]) -> dict[str, Entry]:
    """Load ``<stem>.<lang>.txt`` from ``folder`` for each language into one lookup table."""
    table: dict[str, Entry] = {}
    for lang in langs:
        text = folder.joinpath(f"{stem}.{lang}.txt").read_text(encoding="utf-8")
        for form, entry in parse(text, lang).items():
            table.setdefault(form, entry)
    return table
