"""The sentence encoder works offline, from the installed package alone."""

from __future__ import annotations

import socket

from bot_helpers import needs_model

from tertulia.text import meaning


@needs_model
def test_the_model_loads_and_encodes_with_the_network_cut_off(monkeypatch) -> None:
    """ "must work offline from the installed package": no socket may even be opened."""

    def refuse(*args, **kwargs):
        raise AssertionError("the model tried to use the network")

    monkeypatch.setattr(socket, "socket", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    encoder = meaning.Encoder()
    vectors = encoder.encode(["banana", "plátano", "banan", "storm"])
    assert vectors.shape == (4, 512)
    similarity = vectors @ vectors.T
    # The same fruit in three languages is nearer itself than a storm.
    assert similarity[0, 1] > similarity[0, 3] and similarity[0, 2] > similarity[0, 3]


@needs_model
def test_vectors_are_cached_between_decisions() -> None:
    encoder = meaning.encoder()
    assert encoder is not None and encoder is meaning.encoder()
    first = encoder.encode(["lighthouse"])
    assert (encoder.encode(["lighthouse"]) == first).all()


def test_without_the_extra_there_is_no_encoder(monkeypatch) -> None:
    monkeypatch.setattr(meaning, "available", lambda: False)
    monkeypatch.setattr(meaning, "_encoder", None)
    assert meaning.encoder() is None


@needs_model
def test_no_texts_is_an_empty_array() -> None:
    assert meaning.encoder().encode([]).shape == (0, 512)
