"""Computer players for Pitacor and Haiclue (Pintó has none: drawing is for people).

A bot decides from its seat's view alone (``base.py``: the protocol and the worker that runs
decisions off the event loop); ``pitacor.py`` and ``haiclue.py`` are the two minds, with the
colour lexicon (``colours.py``, ``data/``), the clue reading (``pitacor_reading.py``) and the
optional sentence encoder (``meaning.py``) beside them; ``play.py`` plays whole matches
through a game's pure engine for the tests and ``benchmarks/bots.py``. See docs/games/bots.md.
"""
