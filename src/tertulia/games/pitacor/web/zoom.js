// The board's zoom on a phone. There the whole board's cells are ~10 px, so the board is one
// target: a tap on it zooms in at once around the spot tapped, cells at least 44 × 44 px
// (issue 30: any cell in two taps, without pinch-zoom). The zoomed board is the same grid,
// scrolled in a window: swipes and the arrow buttons pan it, "Whole board" goes back. The
// markers, the giver's target, taken cells and the zones are the board's own, so they read the
// same zoomed. Wider screens never zoom.

import { h, ht, label } from "../../js/dom.js";

// Where the board zooms (pitacor.css zooms at the same width), and how far an arrow pans.
const PHONE = matchMedia("(max-width: 699px)");
const PAN_CELLS = 3;
const ARROWS = { up: "↑", down: "↓", left: "←", right: "→" };

/** The zoom of `grid`; `cells()` and `size()` are the board's current cells and size. */
export function createZoom(grid, { cells, size, focusBoard }) {
  const viewport = h("div", { class: "pc-board-viewport", id: "pitacor-board-viewport" }, grid);
  const pan = (dr, dc, key) =>
    label(
      h("button", { type: "button", class: "icon-button pc-pan", dataset: { pan: key }, onclick: () => panBy(dr, dc) }, h("span", { "aria-hidden": "true" }, ARROWS[key])),
      `game.pitacor.board.pan_${key}`,
    );
  const whole = ht("button", { type: "button", class: "ghost pc-whole", id: "pitacor-whole-board", onclick: () => out(true) }, "game.pitacor.board.whole");
  const bar = h("div", { class: "pc-zoom-bar", id: "pitacor-zoom-bar", hidden: true }, whole, h("div", { class: "pc-pans" }, pan(-1, 0, "up"), pan(1, 0, "down"), pan(0, -1, "left"), pan(0, 1, "right")));
  const hint = ht("p", { class: "hint pc-zoom-hint", id: "pitacor-zoom-hint", hidden: true }, "game.pitacor.board.zoom_hint");
  let wrap = null;
  let zoomed = false;

  /** The cell under (x, y) on the whole board: its cells take no taps of their own there. */
  function indexAtPoint(x, y) {
    const all = cells();
    const { cols, rows } = size() || {};
    if (!all.length || !cols) return -1;
    const first = all[0].getBoundingClientRect();
    const last = all[all.length - 1].getBoundingClientRect();
    const c = Math.floor((x - first.left) / ((last.right - first.left) / cols));
    const r = Math.floor((y - first.top) / ((last.bottom - first.top) / rows));
    if (c < 0 || r < 0 || c >= cols || r >= rows) return -1;
    return r * cols + c;
  }

  function set(on) {
    zoomed = on;
    wrap?.classList.toggle("zoomed", on);
    bar.hidden = !on;
    paintHint();
  }

  function paintHint() {
    hint.hidden = zoomed || !PHONE.matches || !grid.classList.contains("interactive");
  }

  /** Zoom in with cell `index` in the middle of the window (or as near as the edges let). */
  function zoomAt(index) {
    set(true);
    const cell = cells()[index];
    if (cell) {
      viewport.scrollLeft = cell.offsetLeft - (viewport.clientWidth - cell.offsetWidth) / 2;
      viewport.scrollTop = cell.offsetTop - (viewport.clientHeight - cell.offsetHeight) / 2;
    }
    keepInSight();
  }

  /** The bar and the window whole on the screen, under the sticky status bar: a tap low on
   * the board would otherwise open a window that runs below the screen's bottom. */
  function keepInSight() {
    const status = document.getElementById("status-bar");
    const statusBottom = status ? Math.max(0, status.getBoundingClientRect().bottom) : 0;
    const top = bar.getBoundingClientRect().top;
    const bottom = viewport.getBoundingClientRect().bottom;
    if (top >= statusBottom && bottom <= window.innerHeight) return;
    window.scrollBy({ top: top - statusBottom - 8, behavior: "instant" });
  }

  function panBy(dr, dc) {
    const cell = cells()[0];
    const reduce = matchMedia("(prefers-reduced-motion: reduce)").matches;
    viewport.scrollBy({
      left: dc * PAN_CELLS * ((cell?.offsetWidth ?? 44) + 1),
      top: dr * PAN_CELLS * ((cell?.offsetHeight ?? 44) + 1),
      behavior: reduce ? "auto" : "smooth",
    });
  }

  function out(focus = false) {
    if (!zoomed) return;
    set(false);
    viewport.scrollLeft = 0;
    viewport.scrollTop = 0;
    if (focus) focusBoard();
  }

  PHONE.addEventListener("change", () => {
    if (!PHONE.matches) out();
    paintHint();
  });

  return {
    viewport,
    bar,
    hint,
    /** The element whose class says "zoomed" (the board's wrapper). */
    attach(el) {
      wrap = el;
    },
    /** A click on the board: on a phone's whole board it zooms in there and is used up. */
    tapOnWhole(event) {
      if (!PHONE.matches || zoomed) return false;
      const index = indexAtPoint(event.clientX, event.clientY);
      if (index >= 0) zoomAt(index);
      return true;
    },
    /** On a phone, cell `index` zoomed (already zoomed: left where it is). */
    show(index) {
      if (PHONE.matches && !zoomed) zoomAt(index);
    },
    out,
    paintHint,
  };
}
