"""Names that look alike (UTS #39 skeletons, mixed scripts) and bidirectional controls."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tertulia.text.lookalike import (
    BIDI_CONTROLS,
    hides_characters,
    looks_alike,
    mixed_scripts,
    shows_nothing,
    skeleton,
    strip_bidi_controls,
    unshowable,
)

CYRILLIC_O = "\u043e"
GREEK_OMICRON = "\u03bf"

# Pieces of any text with controls between them (a control drawn from all characters alone
# would turn up once in hundreds of examples).
_with_controls = st.lists(
    st.one_of(
        st.text(alphabet=st.characters(exclude_categories=("Cs",)), max_size=5),
        st.sampled_from(BIDI_CONTROLS),
    )
).map("".join)


def test_the_bidi_controls_are_the_embeddings_overrides_isolates_and_marks():
    expected = {*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C}
    assert {ord(ch) for ch in BIDI_CONTROLS} == expected


@settings(deadline=None)  # a loaded machine is slow: speed is for benchmarks
@given(_with_controls)
def test_strip_bidi_controls_leaves_no_control_and_every_other_character(text):
    stripped = strip_bidi_controls(text)
    assert not set(stripped) & set(BIDI_CONTROLS)
    assert stripped == "".join(ch for ch in text if ch not in BIDI_CONTROLS)


_without_controls = st.text(
    alphabet=st.characters(exclude_categories=("Cs",), exclude_characters=BIDI_CONTROLS)
)


@settings(deadline=None)  # a loaded machine is slow: speed is for benchmarks
@given(_without_controls)
def test_text_without_bidi_controls_is_left_as_it_is(text):
    assert strip_bidi_controls(text) == text


def test_the_skeleton_maps_look_alikes_to_their_prototype_as_uts_39_says():
    """NFD, default-ignorables dropped, each character mapped to its prototype, NFD again."""
    assert skeleton("p\u0430yp\u0430l") == "paypal"  # Cyrillic а
    assert skeleton("\uff22\uff4f\uff42") == "Bob"  # fullwidth
    assert skeleton("B\u200bo\u2060b\ufeff") == "Bob"  # zero-width characters are dropped
    assert skeleton("m") == "rn" and skeleton("0") == "O"
    assert skeleton("é") == "e\u0301"  # accents stay: "José" is not "Jose"


@settings(deadline=None)  # a loaded machine is slow: speed is for benchmarks
@given(st.text(alphabet=st.characters(exclude_categories=("Cs",))))
def test_a_skeleton_is_its_own_skeleton(text):
    assert skeleton(skeleton(text)) == skeleton(text)


@pytest.mark.parametrize(
    ("name", "impostor"),
    [
        ("Bob", f"B{CYRILLIC_O}b"),
        ("Bob", f"B{GREEK_OMICRON}b"),
        ("Bob", "\uff22\uff4f\uff42"),  # fullwidth letters
        ("Bob", "Bob\u3164"),  # a Hangul filler, shown as nothing
        ("Bob", "Bob\u2800"),  # a blank Braille pattern, shown as a space
        ("bob", "\u0412\u041e\u0412"),  # Cyrillic capitals: "BOB", which is "bob" in another case
        ("Ola", "0la"),
        ("Kim", "Kirn"),
        ("Ian", "lan"),
    ],
)
def test_names_written_with_look_alike_characters_look_alike(name, impostor):
    assert looks_alike(name, impostor) and looks_alike(impostor, name)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Ian", "Lan"),  # I looks like l, not like L: each case is compared with itself
        ("José", "Jose"),
        ("Łukasz", "Lukasz"),
        ("Zoë", "Zoe"),
        ("Ana", "Anna"),
        ("Eva", "Ewa"),
        ("Ana", "Ana1"),
    ],
)
def test_names_that_only_share_letters_do_not_look_alike(a, b):
    assert not looks_alike(a, b)


@pytest.mark.parametrize(
    "name",
    [
        "Łódź",
        "João",
        "Ñandú",
        "Gaëlle",
        "Żaneta Wójcik",  # accented Latin
        "R2-D2",
        "Ana_99!",
        "👩‍💻",
        "🏳️‍🌈 Ana",
        "Ana ❤️",  # digits, punctuation, emoji
        "Иван",
        "Νίκος",
        "Ana Иван",  # one script a word
        "山田はなこ",
        "Kimチ",
        "김민준",
        "µTorrent",  # scripts that mix, and Common signs
    ],
)
def test_one_script_a_word_is_not_mixed(name):
    assert not mixed_scripts(name)


@pytest.mark.parametrize(
    "name", [f"B{CYRILLIC_O}b", "\u03a9mega", f"Ana B{GREEK_OMICRON}b", "\u0412\u03b1\u0441\u044f"]
)
def test_a_word_mixing_latin_cyrillic_or_greek_is_mixed(name):
    assert mixed_scripts(name)


@pytest.mark.parametrize(
    "name",
    [
        "\U0001f469\u200d\U0001f4bb",  # 👩‍💻: a joiner between two pictographs
        "\U0001f9d1\U0001f3fd\u200d\U0001f9b0",  # a skin tone before the joiner
        "\U0001f3f3\ufe0f\u200d\U0001f308",  # 🏳️‍🌈: a presentation selector before it
        "\u2764\ufe0f 1\ufe0f\u20e3",  # ❤️ 1️⃣
        "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",  # Scotland
    ],
)
def test_emoji_keep_the_invisible_characters_they_are_made_of(name):
    assert not unshowable(name) and not hides_characters(name) and not shows_nothing(name)


@pytest.mark.parametrize(
    "name", ["Bob\u200b", "Bo\u2060b", "\ufeffBob", "Bo\u00adb", "Bob\u200d", "a\u200db"]
)
def test_zero_width_characters_outside_emoji_are_unshowable(name):
    assert unshowable(name)


@pytest.mark.parametrize("name", ["Bob\u3164", "Bob\ufe0f", "B\u034fob"])
def test_printable_invisible_characters_outside_emoji_are_hidden_ones(name):
    assert not unshowable(name) and hides_characters(name)


@pytest.mark.parametrize("name", ["\u3164", "\u2800\u2800", "\u3164 \u3164"])
def test_a_name_of_nothing_but_blanks_shows_nothing(name):
    assert shows_nothing(name)
