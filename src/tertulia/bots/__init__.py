"""Running computer players, for any game that offers one (Pintó has none: drawing is for
people).

A game's bot lives in its folder (``games/<name>/bot/``, the contract in ``games/_bot.py``)
and decides from its seat's view alone. This package names no game: ``base.py`` finds a
game's bot by that convention (``bot_for``, ``games``) and runs decisions off the event loop
(``DecisionRunner``, a worker process); ``play.py`` plays whole matches through a game's pure
engine for the tests and ``benchmarks/bots.py``. The meaning model bots read words with is
``text/meaning.py``, below ``games/``. See docs/games/bots.md.
"""
