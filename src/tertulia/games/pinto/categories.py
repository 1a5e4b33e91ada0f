"""Pintó's category decks (data files written for this project, see categories/README.md)."""

from __future__ import annotations

from functools import cache
from importlib import resources

import msgspec

from ...text.normalize import fold

LANGUAGES = ("en", "pt-BR", "es", "pl")


class Category(msgspec.Struct, frozen=True):
    name: str
    forms: tuple[str, ...]  # folded word forms a title may not use


@cache
def load(language: str) -> tuple[Category, ...]:
    if language not in LANGUAGES:
        raise ValueError(f"expected one of {LANGUAGES}, got {language!r}")
    path = resources.files(__package__) / "categories" / f"{language}.txt"
    found: list[Category] = []
    for number, line in enumerate(path.read_text("utf-8").splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        name, sep, forms = line.partition("\t")
        if not sep:
            raise ValueError(f"{language}.txt line {number}: expected 'name<TAB>forms'")
        words = tuple(fold(w.strip()) for w in forms.split(",") if w.strip())
        found.append(Category(name.strip(), words))
    return tuple(found)


def custom(name: str) -> Category:
    """A host's own category: its words are the forms a title may not use (lemmas catch
    the other forms, see judging.uses_category)."""
    return Category(name, tuple(fold(w) for w in name.split() if len(w) > 2))
