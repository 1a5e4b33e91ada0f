"""Language tools the games share: folding text for comparison, word lists, profanity, and
telling look-alike names apart (``lookalike``: Unicode's confusables, bidirectional controls).

Everything here is pure and offline: word lists ship as package data under ``data/`` and are
read once (at import, or lazily on first use for the larger profanity lists). Comparisons go
through ``normalize.fold`` so that case, accents and Unicode spelling variants never decide
whether two words are "the same". The games build their own rules on top (Pitacor's clue
checks, nicknames, Pintó titles); nothing here knows about a game.
"""
