// Dragging word tiles in Haiclue's clue builder (builder.js): from the rack into the clue, or
// within the clue to another place, or out of it. Pointer events, so a mouse, a pen or a
// finger; a press becomes a drag only once it moves a few pixels, so a tap stays a tap.
// While a tile is held the builder does not repaint under the finger (`busy`, `later`).

import { h } from "../../js/dom.js";

const DRAG_START_PX = 6;
const SLACK_PX = 24; // a tile let go this close to the clue row still lands in it

/**
 * `root()`: the builder's element; `clueRow`, `rackList`: where tiles lie; `side()`: the
 * round's side (the ghost tile's colours); `busy()`: true while the clue is being sent (no
 * drag then); `paint()`: repaint the builder; `dropped(word, index, from)`: a tile let go at
 * `index` of the clue (null: outside it), `from` "rack" or "clue"; false if nothing changed.
 */
export function createDrag({ root, clueRow, rackList, side, busy, paint, dropped }) {
  let drag = null; // {word, from, id, x, y, started, ghost, source}
  let pendingPaint = false;
  let suppressClick = false;

  function start(event, word, from) {
    if (event.button !== 0 || busy()) return;
    drag = { word, from, id: event.pointerId, x: event.clientX, y: event.clientY, started: false, source: event.currentTarget };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
    window.addEventListener("pointercancel", cancel);
  }

  function move(event) {
    if (!drag || event.pointerId !== drag.id) return;
    if (!drag.started) {
      if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < DRAG_START_PX) return;
      drag.started = true;
      drag.ghost = h("span", { class: `hc-tile side-${side()} hc-ghost`, "aria-hidden": "true" }, drag.word);
      document.body.append(drag.ghost);
      drag.source.classList.add("dragging");
      root().classList.add("is-dragging");
    }
    event.preventDefault();
    drag.ghost.style.left = `${event.clientX}px`;
    drag.ghost.style.top = `${event.clientY}px`;
    markDrop(dropIndex(event.clientX, event.clientY));
  }

  /** The clue's tiles but the one held, in order. */
  function others() {
    return [...clueRow.querySelectorAll(".hc-clue-item")].filter((li) => li.dataset.word !== drag.word);
  }

  /** Where in the clue a tile let go at (x, y) goes: an index, or null outside the row. The
   * row reads like text: line by line, left to right. */
  function dropIndex(x, y) {
    const box = clueRow.getBoundingClientRect();
    if (x < box.left - SLACK_PX || x > box.right + SLACK_PX || y < box.top - SLACK_PX || y > box.bottom + SLACK_PX) return null;
    const items = others();
    for (let i = 0; i < items.length; i++) {
      const r = items[i].getBoundingClientRect();
      if (y < r.top) return i;
      if (y <= r.bottom && x < r.left + r.width / 2) return i;
    }
    return items.length;
  }

  function markDrop(index) {
    for (const li of clueRow.querySelectorAll(".drop-before")) li.classList.remove("drop-before");
    clueRow.classList.toggle("drop-end", false);
    clueRow.classList.toggle("drop-target", index !== null);
    rackList.classList.toggle("drop-target", index === null && drag.from === "clue");
    if (index === null) return;
    const items = others();
    if (index < items.length) items[index].classList.add("drop-before");
    else clueRow.classList.add("drop-end");
  }

  function up(event) {
    if (!drag || event.pointerId !== drag.id) return;
    const { started, word, from } = drag;
    const index = started ? dropIndex(event.clientX, event.clientY) : null;
    stop();
    if (!started) return;
    // The click that follows a drag is not a tap.
    suppressClick = true;
    setTimeout(() => (suppressClick = false), 0);
    if (!dropped(word, index, from) && pendingPaint) paint();
  }

  function cancel() {
    stop();
    if (pendingPaint) paint();
  }

  function stop() {
    window.removeEventListener("pointermove", move);
    window.removeEventListener("pointerup", up);
    window.removeEventListener("pointercancel", cancel);
    if (drag?.ghost) drag.ghost.remove();
    drag?.source?.classList.remove("dragging");
    root().classList.remove("is-dragging");
    clueRow.classList.remove("drop-target", "drop-end");
    rackList.classList.remove("drop-target");
    for (const li of clueRow.querySelectorAll(".drop-before")) li.classList.remove("drop-before");
    const wasStarted = drag?.started;
    drag = null;
    if (wasStarted) pendingPaint = true;
  }

  return {
    start,
    stop,
    /** A tile is held: painting now would pull it from under the finger. */
    busy: () => Boolean(drag?.started),
    /** Paint once the tile is let go. */
    later() {
      pendingPaint = true;
    },
    /** The click the browser sends after a drop (not a tap). */
    justDropped: () => suppressClick,
    /** Painted: nothing waits any more. */
    painted() {
      pendingPaint = false;
    },
  };
}
