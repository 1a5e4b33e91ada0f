"""The games, each a pure rules module behind the contract in ``base.py``."""

from types import ModuleType

from . import haiclue, pinto, pitacor

GAMES: dict[str, ModuleType] = {
    pitacor.NAME: pitacor,
    haiclue.NAME: haiclue,
    pinto.NAME: pinto,
}
