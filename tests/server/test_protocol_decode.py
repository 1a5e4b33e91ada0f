"""``protocol.decode``: bidirectional controls leave every string of a client message, and the
cleaned message is validated as the frame would have been."""

from __future__ import annotations

import json

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tertulia import protocol as p
from tertulia.text.lookalike import BIDI_CONTROLS, strip_bidi_controls

# Pieces of any text with controls between them (a control drawn from all characters alone
# would turn up once in hundreds of examples).
_text = st.lists(
    st.one_of(
        st.text(alphabet=st.characters(exclude_categories=("Cs",)), max_size=5),
        st.sampled_from(BIDI_CONTROLS),
    )
).map("".join)


def _frames(message: dict) -> list[str | bytes]:
    """The same message as the Python client sends it (UTF-8 bytes), as a browser does (text,
    characters as they are) and with every non-ASCII character escaped ("\\u202e")."""
    return [
        msgspec.json.encode(message),
        json.dumps(message, ensure_ascii=False),
        json.dumps(message, ensure_ascii=True),
    ]


@settings(deadline=None)  # a loaded machine is slow: speed is for benchmarks
@given(_text)
def test_bidi_controls_are_removed_from_chat_however_the_frame_writes_them(text):
    for frame in _frames({"type": "chat", "id": 1, "text": text}):
        message = p.decode(frame)
        assert message == p.Chat(id=1, text=strip_bidi_controls(text))
        assert not set(message.text) & set(BIDI_CONTROLS)


@settings(deadline=None)  # a loaded machine is slow: speed is for benchmarks
@given(_text, _text)
def test_bidi_controls_are_removed_from_strings_nested_in_actions_and_settings(a, b):
    clean_a, clean_b = strip_bidi_controls(a), strip_bidi_controls(b)
    act = {"type": "act", "id": 2, "action": {"type": "submit_clue", "words": [a, {"x": b}]}}
    for frame in _frames(act):
        assert p.decode(frame).action == {"type": "submit_clue", "words": [clean_a, {"x": clean_b}]}
    settings = {"type": "update_settings", "id": 3, "settings": {"custom_categories": [a, b]}}
    for frame in _frames(settings):
        assert p.decode(frame).settings == {"custom_categories": [clean_a, clean_b]}


def test_a_cleaned_message_is_validated_as_the_frame_would_have_been():
    """A control inside the tag itself goes like any other; a wrong type, an unknown field or
    broken JSON is still refused, with the error it always had."""
    assert p.decode('{"type": "chat\u202e", "id": 1, "text": "hi"}'.encode()) == p.Chat(1, "hi")
    for frame, error in [
        ('{"type": "chat", "id": "one", "text": "a\u202eb"}', msgspec.ValidationError),
        ('{"type": "chat", "id": 1, "text": "a\\u202eb", "extra": 1}', msgspec.ValidationError),
        ('{"type": "chat", "id": 1, "text": "a\u202eb"', msgspec.DecodeError),
    ]:
        with pytest.raises(error):
            p.decode(frame)
