"""axe-core, an outside accessibility rule engine, run on the page the test has reached.

``make axe`` (part of ``make test``) installs the pinned axe-core from npm into
``tests/e2e/axe/node_modules``; a missing copy fails the test, saying so. Critical, serious
and moderate violations count (issue 30: "the test fails on any critical, serious or
moderate violation"); minor ones are listed but do not fail.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Page

AXE = Path(__file__).parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
COUNTED = ("critical", "serious", "moderate")

# Each violation as rule, impact, and a few of its nodes (their selector and axe's summary).
RUN_AXE = """async (rules) => {
    const options = { resultTypes: ['violations'] };
    if (rules) options.runOnly = { type: 'rule', values: rules };
    const result = await axe.run(document, options);
    return result.violations.map(v => ({
        rule: v.id,
        impact: v.impact,
        nodes: v.nodes.length,
        sample: v.nodes.slice(0, 4).map(n => n.target.join(' ') + ' :: '
            + (n.failureSummary || '').split('\\n').slice(1, 2).join('').trim()),
    }));
}"""


# No transition or finite animation still running (a pulsing clock runs for ever).
SETTLED = """() => document.getAnimations().every(a => a.playState !== 'running'
    || a.effect?.getComputedTiming().iterations === Infinity)"""


def _inject(page: Page) -> None:
    if not AXE.exists():
        pytest.fail(
            f"{AXE} is missing: run `make axe` (npm installs the pinned axe-core; "
            "Debian: apt-get install npm)",
            pytrace=False,
        )
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))


@dataclass
class Audit:
    """Every screen's violations, gathered over a walk through the screens, so that one run
    shows them all; ``check()`` fails at the end if any counted one was found."""

    found: list[dict] = field(default_factory=list)

    def run(self, page: Page, screen: str, rules: list[str] | None = None) -> list[dict]:
        """axe on ``page`` as it is now (every rule, or only ``rules``); returns (and keeps)
        what it found."""
        _inject(page)
        # Transitions (≤ 300 ms) settle first: a half-faded text has half its contrast.
        page.wait_for_function(SETTLED, timeout=5_000)
        size = page.viewport_size or {}
        scheme = page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
        where = f"{screen} {size.get('width')}x{size.get('height')} {'dark' if scheme else 'light'}"
        found = page.evaluate(RUN_AXE, rules)
        for violation in found:
            self.found.append({"screen": where, **violation})
        return found

    def counted(self) -> list[dict]:
        return [v for v in self.found if v["impact"] in COUNTED]

    def report(self) -> str:
        lines = []
        for v in self.found:
            lines.append(f"{v['screen']}: {v['impact']} {v['rule']} ×{v['nodes']}")
            lines += [f"    {s}" for s in v["sample"]]
        return "\n".join(lines)

    def check(self) -> None:
        assert not self.counted(), "axe found:\n" + self.report()
