"""Loaded first for every game's tests: pytest then has this folder on ``sys.path``, so the
games' tests share its helpers (``patched_views``)."""
