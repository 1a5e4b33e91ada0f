"""JSON Patch for pushes: what ``diff`` writes, ``apply`` (and the browser) undo exactly."""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tertulia.patches import apply, diff, diff_encoded

scalars = st.none() | st.booleans() | st.integers(-5, 5) | st.floats(-2, 2) | st.text(max_size=3)
keys = st.sampled_from(["a", "b", "c", "~x", "a/b", ""])
documents = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4),
    max_leaves=20,
)


def _exactly(a, b) -> bool:
    return msgspec.json.encode(a) == msgspec.json.encode(b)


@settings(max_examples=400, deadline=None)
@given(documents, documents)
def test_applying_the_diff_gives_exactly_the_new_document(old, new):
    """Exactly: JSON tells true from 1 and 1.0 from 1, so the bytes must match too."""
    patched = apply(old, diff(old, new))
    assert _exactly(patched, new)


@settings(deadline=None)  # a loaded machine is slow: speed is for benchmarks
@given(documents)
def test_an_unchanged_document_has_an_empty_patch(document):
    assert diff(document, document) == []


@settings(deadline=None)  # a loaded machine is slow: speed is for benchmarks
@given(documents, documents)
def test_applying_leaves_the_old_document_as_it_was(old, new):
    before = msgspec.json.encode(old)
    apply(old, diff(old, new))
    assert msgspec.json.encode(old) == before


@settings(max_examples=400, deadline=None)
@given(documents, documents)
def test_the_diff_of_encoded_documents_is_the_diff_encoded(old, new):
    """The fan-out diffs the pictures as it keeps them (bytes): same operations, same bytes."""
    encode = msgspec.json.encode
    assert diff_encoded(encode(old), encode(new)) == encode(diff(old, new))


@settings(max_examples=400, deadline=None)
@given(documents, documents)
def test_applying_the_encoded_diff_gives_exactly_the_new_document(old, new):
    encode = msgspec.json.encode
    patched = apply(old, msgspec.json.decode(diff_encoded(encode(old), encode(new))))
    assert _exactly(patched, new)


def test_an_encoded_diff_carries_the_new_values_as_they_were_encoded():
    old = msgspec.json.encode({"phase": "guess1", "selection": None, "players": [{"id": "a"}]})
    new = msgspec.json.encode({"phase": "guess1", "selection": "ü1", "players": [{"id": "a"}]})
    assert diff_encoded(old, new) == '[{"op":"replace","path":"/selection","value":"ü1"}]'.encode()
    assert diff_encoded(new, new) == b"[]"


def test_a_growing_list_is_told_by_what_was_added_and_null_is_a_value():
    old = {"markers": [{"cell": "A1"}], "deadline": 12.5, "winner": None}
    new = {"markers": [{"cell": "A1"}, {"cell": "B2"}], "deadline": None, "winner": None}
    assert diff(old, new) == [
        {"op": "add", "path": "/markers/-", "value": {"cell": "B2"}},
        {"op": "replace", "path": "/deadline", "value": None},
    ]


def test_a_value_that_turns_from_one_to_true_is_a_change():
    assert diff({"a": 1}, {"a": True}) == [{"op": "replace", "path": "/a", "value": True}]
    assert diff([1], [1.0]) == [{"op": "replace", "path": "/0", "value": 1.0}]


def test_a_zero_that_turns_negative_is_a_change_in_both_diffs():
    """Exactly the new document: JSON writes -0.0 and 0.0 apart (a score or a coordinate that
    crosses zero), so ``diff`` tells it, as ``diff_encoded`` always did (the bytes differ)."""
    encode = msgspec.json.encode
    for old, new in ((0.0, -0.0), (-0.0, 0.0)):
        patch = [{"op": "replace", "path": "/x", "value": new}]
        assert diff({"x": old}, {"x": new}) == patch
        assert diff_encoded(encode({"x": old}), encode({"x": new})) == encode(patch)
        assert encode(apply({"x": old}, patch)) == encode({"x": new})
    assert diff([-0.0], [-0.0]) == []


def test_keys_with_slashes_and_tildes_are_escaped():
    assert diff({}, {"a/b": 1, "~": 2}) == [
        {"op": "add", "path": "/a~1b", "value": 1},
        {"op": "add", "path": "/~0", "value": 2},
    ]
    assert apply({}, diff({}, {"a/b": 1, "~": 2})) == {"a/b": 1, "~": 2}


@pytest.mark.parametrize(
    "ops",
    [
        [{"op": "replace", "path": "/nope/x", "value": 1}],
        [{"op": "remove", "path": "/nope"}],
        [{"op": "replace", "path": "/list/7", "value": 1}],
        [{"op": "replace", "path": "no-slash", "value": 1}],
        [{"op": "replace", "path": "/n/x", "value": 1}],
    ],
)
def test_an_operation_that_does_not_fit_is_refused(ops):
    with pytest.raises(ValueError):
        apply({"list": [1], "n": 3}, ops)
