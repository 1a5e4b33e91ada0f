"""The version of this Tertulia, as installed (pyproject.toml's ``version``): shown by
``/healthz`` and ``/version``, and part of what a room snapshot names as its writer."""

from __future__ import annotations

from importlib import metadata

try:
    VERSION = metadata.version("tertulia")
except metadata.PackageNotFoundError:  # run from a copy of the source that was never installed
    VERSION = "0+unknown"
