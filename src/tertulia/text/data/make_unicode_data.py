"""Compact Unicode's own data files into the three that ``tertulia.text.lookalike`` reads.

Not imported by the server: run it by hand when we move to a newer Unicode version, with
the three published files in one folder (see README.md here for where ours came from)::

    python src/tertulia/text/data/make_unicode_data.py FOLDER

It reads ``confusables.txt`` (UTS #39), ``Scripts.txt`` and ``DerivedCoreProperties.txt``
(the Unicode Character Database) from FOLDER and writes, beside this file,
``unicode-confusables.txt``, ``unicode-scripts.txt`` and ``unicode-ignorable.txt``: the same
facts with the comments and unused columns left out.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

HERE = Path(__file__).parent

_HEADER = """\
# {what}
# Compacted by make_unicode_data.py from Unicode's {source}
#   {version}
#   {date}
# Comments and unused columns are left out; nothing else is changed.
# Copyright © 1991-2026 Unicode, Inc. Used under the Unicode License v3
# (LICENSE-UNICODE.txt beside this file).
"""

_RANGE = re.compile(r"^([0-9A-F]{4,6})(?:\.\.([0-9A-F]{4,6}))?\s*;\s*([\w ]+?)\s*(?:#|$)")


def _first_lines(text: str) -> tuple[str, str]:
    """The version and date lines a Unicode data file starts with."""
    version = date = "?"
    for line in text.splitlines()[:12]:
        if line.startswith("# Date:"):
            date = line[2:].strip()
        elif line.startswith("# Version:") or re.match(r"# \w+-\d+\.\d+\.\d+\.txt", line):
            version = line[2:].strip()
    return version, date


def confusables(text: str) -> str:
    """``SOURCE<TAB>PROTOTYPE`` in hex, one mapping a line (the file's "MA" table)."""
    rows = []
    for line in text.splitlines():
        data = line.split("#", 1)[0].lstrip("\ufeff").strip()
        if not data:
            continue
        source, target, kind = (field.strip() for field in data.split(";")[:3])
        if kind != "MA":
            raise ValueError(f"expected only MA mappings, got {line!r}")
        rows.append((int(source, 16), target))
    rows.sort()
    version, date = _first_lines(text)
    header = _HEADER.format(
        what="UTS #39 confusables: source code point, then its prototype (hex).",
        source="confusables.txt",
        version=version,
        date=date,
    )
    return header + "".join(f"{source:04X}\t{target}\n" for source, target in rows)


def _ranges(text: str, wanted: set[str] | None) -> list[tuple[int, int, str]]:
    found = []
    for line in text.splitlines():
        match = _RANGE.match(line)
        if match and (wanted is None or match.group(3) in wanted):
            first = int(match.group(1), 16)
            last = int(match.group(2) or match.group(1), 16)
            found.append((first, last, match.group(3)))
    found.sort()
    merged: list[tuple[int, int, str]] = []
    for first, last, value in found:  # neighbours with the same value become one range
        if merged and merged[-1][2] == value and merged[-1][1] + 1 == first:
            merged[-1] = (merged[-1][0], last, value)
        else:
            merged.append((first, last, value))
    return merged


def scripts(text: str) -> str:
    """``FIRST..LAST<TAB>Script``; Common and Inherited are left out (they mix with every
    script, so they never make a word mixed)."""
    rows = [r for r in _ranges(text, None) if r[2] not in ("Common", "Inherited")]
    version, date = _first_lines(text)
    header = _HEADER.format(
        what="The Script property: FIRST..LAST, then the script (Common, Inherited left out).",
        source="Scripts.txt",
        version=version,
        date=date,
    )
    return header + "".join(f"{a:04X}..{b:04X}\t{s}\n" for a, b, s in rows)


def ignorable(text: str) -> str:
    """``FIRST..LAST``: the code points with Default_Ignorable_Code_Point."""
    rows = _ranges(text, {"Default_Ignorable_Code_Point"})
    version, date = _first_lines(text)
    header = _HEADER.format(
        what="Default_Ignorable_Code_Point: FIRST..LAST (hex).",
        source="DerivedCoreProperties.txt",
        version=version,
        date=date,
    )
    return header + "".join(f"{a:04X}..{b:04X}\n" for a, b, _ in rows)


def main(folder: Path) -> None:
    def read(name: str) -> str:
        return (folder / name).read_text(encoding="utf-8")

    (HERE / "unicode-confusables.txt").write_text(confusables(read("confusables.txt")), "utf-8")
    (HERE / "unicode-scripts.txt").write_text(scripts(read("Scripts.txt")), "utf-8")
    (HERE / "unicode-ignorable.txt").write_text(
        ignorable(read("DerivedCoreProperties.txt")), "utf-8"
    )


if __name__ == "__main__":
    main(Path(sys.argv[1]))
