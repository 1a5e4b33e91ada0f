"""Looking at a screen as the reviews of issues 19 and 30 do: at 360×640 and 1280×800, in the
light and the dark theme, axe-core's rules (a11y.py) and a screenshot in each of the four
languages (``test-artifacts/screens/<screen>-<lang>-<size>-<theme>.png``).

axe runs in English, every rule in the light theme and the colour rules in the dark one (the
words and the theme change no structure): a screen's four audits cost about 2 s.

Screenshots are in English by default (each language costs about as much as the audits);
``TERTULIA_SCREENSHOT_LANGUAGES="en pt-BR es pl"`` takes them in all four, for a review.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from a11y import SETTLED, Audit
from e2e_actions import LAPTOP, PHONE, no_horizontal_scroll

if TYPE_CHECKING:
    from playwright.sync_api import Page

LANGUAGES = os.environ.get("TERTULIA_SCREENSHOT_LANGUAGES", "en").split()
COLOUR_RULES = ["color-contrast"]
SIZES = (PHONE, LAPTOP)
SCHEMES = ("light", "dark")


# Every target a finger can tap on the page now, smaller than 44 × 44 CSS px: visible buttons,
# links, fields, menus, summaries and switches that take pointer events. A checkbox or radio
# counts with its label (tapping the label ticks it).
SMALL_TARGETS = """() => {
    const seen = [];
    const tappable = 'button, a[href], input:not([type=hidden]), select, textarea, summary,'
        + ' [role=button], [role=switch], [role=tab]';
    for (const el of document.querySelectorAll(tappable)) {
        const style = getComputedStyle(el);
        if (style.visibility !== 'visible' || style.pointerEvents === 'none') continue;
        if (el.closest('[hidden], [inert]') || el.closest('.visually-hidden')) continue;
        let box = el.getBoundingClientRect();
        if (!box.width || !box.height) continue;
        if ((el.type === 'checkbox' || el.type === 'radio') && el.labels?.length) {
            for (const label of el.labels) {
                const b = label.getBoundingClientRect();
                if (b.width * b.height > box.width * box.height) box = b;
            }
        }
        if (box.width < 43.5 || box.height < 43.5) {
            const name = el.id ? '#' + el.id : el.tagName.toLowerCase() + '.' + el.className;
            seen.push(`${name} ${Math.round(box.width)}×${Math.round(box.height)}`);
        }
    }
    return seen;
}"""


@dataclass
class Looker:
    """Runs axe on each screen it is shown and keeps its screenshots; ``done()`` fails the
    test if axe found a counted violation anywhere."""

    folder: Path
    audit: Audit = field(default_factory=Audit)
    seconds: float = 0.0
    small: list[str] = field(default_factory=list)

    def __call__(self, page: Page, screen: str, *, full: bool = True, sizes=SIZES) -> None:
        started = time.monotonic()
        size_before = page.viewport_size
        lang_before = page.evaluate("document.documentElement.lang")
        for size in sizes:
            page.set_viewport_size(size)
            for scheme in SCHEMES:
                page.emulate_media(color_scheme=scheme)
                page.wait_for_function(SETTLED, timeout=5_000)
                if size["width"] <= 400:
                    assert no_horizontal_scroll(page), f"{screen}: the page scrolls sideways"
                    if scheme == "light":
                        self.small += [f"{screen}: {t}" for t in page.evaluate(SMALL_TARGETS)]
                _set_language(page, "en")
                self.audit.run(page, screen, None if scheme == "light" else COLOUR_RULES)
                for lang in LANGUAGES:
                    self._shoot(page, screen, lang, size, scheme, full)
        page.emulate_media(color_scheme="light")
        page.set_viewport_size(size_before or LAPTOP)
        _set_language(page, lang_before or "en")
        self.seconds += time.monotonic() - started

    def _shoot(self, page: Page, screen: str, lang: str, size, scheme: str, full: bool) -> None:
        _set_language(page, lang)
        name = f"{screen}-{lang}-{size['width']}x{size['height']}-{scheme}.png"
        page.screenshot(path=self.folder / name, full_page=full, animations="disabled")

    def done(self) -> None:
        """Fails on what axe found, and on any tap target under 44 × 44 px on a phone."""
        self.audit.check()
        assert not self.small, "tap targets under 44 × 44 px at 360×640:\n" + "\n".join(self.small)


def _set_language(page: Page, lang: str) -> None:
    if page.evaluate("document.documentElement.lang") == lang:
        return
    page.locator("#language").select_option(lang)
    page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)
