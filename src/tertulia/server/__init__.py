"""The Starlette app: pages, the WebSocket protocol, health and metrics.

Thin on purpose: it checks and decodes frames, knows who a connection is, and hands
everything else to ``rooms``. Nothing here knows a game's rules.
"""
