"""The word-list format: literal words, stems with suffix lists, suffix classes."""

from __future__ import annotations

import pytest

from tertulia.text.wordlist import parse

SAMPLE = """
# a comment
@o = o a os as
vermelho = red: vermelh+@o avermelh+ado,ada   vermelhidão
  vermelhinho   # a continuation line
red: red+_,s redd+ish
três = 3
"""


def test_stems_and_classes_expand_to_whole_words() -> None:
    forms = parse(SAMPLE, "pt")
    for word in ["vermelho", "vermelha", "vermelhos", "vermelhas", "avermelhado",
                 "avermelhada", "vermelhidao", "vermelhinho"]:  # fmt: skip
        assert forms[word].base == "vermelho"
        assert forms[word].tag == "red"
        assert forms[word].lang == "pt"


def test_underscore_is_the_bare_stem_and_the_base_is_a_form() -> None:
    forms = parse(SAMPLE, "en")
    assert {"red", "reds", "reddish"} <= set(forms)
    assert forms["red"].tag == "red"


def test_an_entry_may_have_no_forms_besides_its_base() -> None:
    assert parse(SAMPLE, "pt")["tres"].tag == "3"


def test_nothing_but_listed_forms_is_generated() -> None:
    forms = parse(SAMPLE, "pt")
    assert "vermelh" not in forms
    assert "avermelhados" not in forms


def test_unknown_suffix_class_is_an_error() -> None:
    with pytest.raises(ValueError, match="unknown suffix class"):
        parse("x: stem+@nope", "en")
