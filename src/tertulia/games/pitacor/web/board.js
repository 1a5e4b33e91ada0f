// The board: every cell a button in an ARIA grid (arrow keys move, Enter selects, Enter again
// confirms), coordinates on hover / long-press and optionally along the edges, markers as
// avatars (colour + initial + shape), and at the reveal the target with its 3×3 and 5×5 zones.
//
// Coordinates are in the cells' text (their accessible names), never in an attribute value of
// their own: a guesser's page must not hold the target's coordinate in quotes before the reveal.
//
// On a phone the board is one target, and a tap zooms in around it (./zoom.js).

import { h, ht, label, tx } from "../../js/dom.js";
import { cellName, inkFor, parseCell } from "./util.js";
import { createZoom } from "./zoom.js";

const LONG_PRESS_MS = 420;

export function createBoard(ctx, { onActivate }) {
  const grid = h("div", { class: "pc-board", role: "grid", id: "pitacor-board" });
  label(grid, "game.pitacor.board.label");
  // The clue giver's own target, said in words under the board (the board rings it too).
  const note = h("p", { class: "pc-target-note", id: "pitacor-target-note", hidden: true });
  const zoom = createZoom(grid, {
    cells: () => cells,
    size: () => size,
    focusBoard: () => cells[focusIndex]?.focus({ preventScroll: true }),
  });
  const wrap = h("div", { class: "pc-board-wrap" }, zoom.hint, zoom.bar, zoom.viewport, note);
  zoom.attach(wrap);

  let size = null; // {cols, rows, id}
  let cells = []; // buttons, row by row
  let signatures = [];
  let focusIndex = 0;
  let zones = [];
  let peekTimer = null;
  let peeked = null;
  let shownInColour = true;
  let noteSig = "";

  function build(board) {
    size = { cols: board.cols, rows: board.rows, id: board.id };
    grid.replaceChildren();
    grid.style.setProperty("--cols", board.cols);
    grid.style.setProperty("--rows", board.rows);
    grid.classList.toggle("ultra", board.id === "ultra_hard");
    grid.setAttribute("aria-rowcount", board.rows);
    grid.setAttribute("aria-colcount", board.cols);
    cells = [];
    signatures = [];
    zones = [];
    // Edge labels: column numbers on top, row letters on the left (hidden unless chosen).
    const corner = h("span", { class: "pc-edge pc-corner", "aria-hidden": "true", style: "grid-area: 1 / 1" });
    grid.append(corner);
    for (let c = 0; c < board.cols; c++) {
      grid.append(h("span", { class: "pc-edge pc-edge-col", "aria-hidden": "true", style: `grid-area: 1 / ${c + 2}` }, String(c + 1)));
    }
    for (let r = 0; r < board.rows; r++) {
      const row = h("div", { class: "pc-row", role: "row", "aria-rowindex": r + 1 });
      row.append(h("span", { class: "pc-edge pc-edge-row", "aria-hidden": "true", style: `grid-area: ${r + 2} / 1` }, String.fromCharCode(65 + r)));
      for (let c = 0; c < board.cols; c++) {
        const index = r * board.cols + c;
        const cell = h(
          "button",
          {
            type: "button",
            class: `pc-cell${c >= board.cols / 2 ? " east" : ""}${r < 2 ? " north" : ""}`,
            role: "gridcell",
            tabindex: index === focusIndex ? 0 : -1,
            "aria-colindex": c + 1,
            "aria-selected": "false",
            style: `grid-area: ${r + 2} / ${c + 2}`,
            dataset: { i: index },
          },
          h("span", { class: "pc-coord" }, cellName(r, c)),
        );
        cells.push(cell);
        signatures.push("");
        row.append(cell);
      }
      grid.append(row);
    }
  }

  function indexOf(name) {
    const at = parseCell(name);
    if (!at || !size) return -1;
    const [r, c] = at;
    if (r < 0 || r >= size.rows || c < 0 || c >= size.cols) return -1;
    return r * size.cols + c;
  }

  function nameAt(index) {
    return cellName(Math.floor(index / size.cols), index % size.cols);
  }

  function moveFocus(index, focus = true) {
    if (!cells.length) return;
    index = Math.max(0, Math.min(cells.length - 1, index));
    cells[focusIndex]?.setAttribute("tabindex", "-1");
    focusIndex = index;
    cells[focusIndex].setAttribute("tabindex", "0");
    if (focus) cells[focusIndex].focus();
  }

  grid.addEventListener("keydown", (event) => {
    const cell = event.target.closest?.(".pc-cell");
    if (!cell || !size) return;
    const index = Number(cell.dataset.i);
    const r = Math.floor(index / size.cols);
    const c = index % size.cols;
    let next = null;
    switch (event.key) {
      case "ArrowRight": next = c < size.cols - 1 ? index + 1 : index; break;
      case "ArrowLeft": next = c > 0 ? index - 1 : index; break;
      case "ArrowDown": next = r < size.rows - 1 ? index + size.cols : index; break;
      case "ArrowUp": next = r > 0 ? index - size.cols : index; break;
      case "Home": next = event.ctrlKey ? 0 : r * size.cols; break;
      case "End": next = event.ctrlKey ? cells.length - 1 : r * size.cols + size.cols - 1; break;
      case "PageUp": next = c; break;
      case "PageDown": next = (size.rows - 1) * size.cols + c; break;
      case "Enter":
      case " ":
        event.preventDefault();
        onActivate(nameAt(index), { keyboard: true });
        return;
      default:
        return;
    }
    event.preventDefault();
    moveFocus(next);
  });

  grid.addEventListener("click", (event) => {
    if (event.detail === 0) return; // Enter/Space, handled above
    if (zoom.tapOnWhole(event)) return; // a phone's whole board: it zoomed in there
    const cell = event.target.closest?.(".pc-cell");
    if (!cell) return;
    moveFocus(Number(cell.dataset.i), false);
    onActivate(nameAt(Number(cell.dataset.i)), { keyboard: false });
  });


  // Long-press on a touch screen shows the coordinate (hover does it with a mouse).
  function unpeek() {
    clearTimeout(peekTimer);
    peekTimer = null;
    if (peeked) {
      const cell = peeked;
      setTimeout(() => cell.classList.remove("peek"), 1200);
      peeked = null;
    }
  }
  grid.addEventListener("pointerdown", (event) => {
    if (event.pointerType === "mouse") return;
    const cell = event.target.closest?.(".pc-cell");
    if (!cell) return;
    clearTimeout(peekTimer);
    peekTimer = setTimeout(() => {
      for (const other of grid.querySelectorAll(".pc-cell.peek")) other.classList.remove("peek");
      cell.classList.add("peek");
      peeked = cell;
    }, LONG_PRESS_MS);
  });
  for (const type of ["pointerup", "pointercancel", "pointerleave"]) grid.addEventListener(type, unpeek);
  grid.addEventListener("contextmenu", (event) => {
    if (event.target.closest?.(".pc-cell")) event.preventDefault();
  });

  function marker(m, players, mine) {
    const nickname = players.get(m.seat)?.nickname ?? "?";
    // The wrapper's outline follows the avatar's shape, so it stands out on every colour.
    return h(
      "span",
      { class: `pc-marker guess-${m.guess}${mine ? " mine" : ""}`, "aria-hidden": "true" },
      ctx.avatar(m.seat, nickname, { size: "sm" }),
    );
  }

  /**
   * Draw `view` on the board. `colours` is the board's palette (hex, row by row) or null while
   * it loads. `local` is this tab's pending selection, if any.
   */
  function render(view, colours, { local = null, interactive = false, edges = false } = {}) {
    const board = view.board;
    if (!size || size.cols !== board.cols || size.rows !== board.rows || size.id !== board.id) build(board);
    grid.classList.toggle("edges", edges);
    grid.classList.toggle("interactive", interactive);
    zoom.paintHint();
    const showColours = Boolean(board.show_colours);
    shownInColour = showColours;
    grid.classList.toggle("hex-only", !showColours);
    const players = new Map((view.players || []).map((p) => [p.id, p]));
    const markers = new Map();
    for (const m of view.markers || []) {
      if (!markers.has(m.cell)) markers.set(m.cell, []);
      markers.get(m.cell).push(m);
    }
    const selected = local || view.selection || null;
    const target = view.target || null;
    const candidates = view.phase === "choose" ? (view.candidates || []).map((c) => c.cell) : [];
    const revealed = view.phase === "reveal" || view.phase === "ended";
    // Only the giver's view carries the target before the reveal: they see it ringed, with
    // its 3×3 and 5×5 zones, the whole round (a guesser's board has no target to mark).
    const giverView = Boolean(target) && !revealed && view.you?.role === "giver";
    grid.classList.toggle("giver-view", giverView);

    for (let index = 0; index < cells.length; index++) {
      const name = nameAt(index);
      const hex = colours ? colours[index] : null;
      const here = markers.get(name) || [];
      const isSelected = name === selected;
      const isTarget = name === target;
      const candidate = candidates.indexOf(name);
      const signature = [
        hex, showColours, isSelected, isTarget, revealed, candidate,
        here.map((m) => `${m.seat}:${m.guess}:${players.get(m.seat)?.nickname}`).join(","),
      ].join("|");
      if (signature === signatures[index]) continue;
      signatures[index] = signature;
      const cell = cells[index];
      cell.classList.toggle("selected", isSelected);
      cell.classList.toggle("taken", here.length > 0);
      cell.classList.toggle("target", isTarget);
      cell.classList.toggle("candidate", candidate >= 0);
      cell.setAttribute("aria-selected", String(isSelected));
      if (showColours && hex) {
        cell.style.setProperty("--cell", hex);
        cell.style.setProperty("--ink", inkFor(hex));
      } else {
        cell.style.removeProperty("--cell");
        cell.style.removeProperty("--ink");
      }
      const parts = [h("span", { class: "pc-coord" }, name)];
      if (!showColours && hex) {
        // Ultra Hard: the code only, as RR / GG / BB so it fits a narrow cell.
        parts.push(
          h(
            "span",
            { class: "pc-hex" },
            h("span", { class: "pc-hash" }, "#"),
            h("span", {}, hex.slice(1, 3)),
            h("span", {}, hex.slice(3, 5)),
            h("span", {}, hex.slice(5, 7)),
          ),
        );
      }
      if (candidate >= 0) parts.push(h("span", { class: "pc-candidate-no", "aria-hidden": "true" }, String(candidate + 1)));
      for (const m of here) {
        parts.push(marker(m, players, m.seat === ctx.me));
        parts.push(tx(h("span", { class: "visually-hidden" }), m.guess === 2 ? "game.pitacor.board.marker2" : "game.pitacor.board.marker", { name: players.get(m.seat)?.nickname ?? "?" }));
      }
      if (isTarget) parts.push(tx(h("span", { class: "visually-hidden" }), "game.pitacor.board.target_cell"));
      if (candidate >= 0) parts.push(tx(h("span", { class: "visually-hidden" }), "game.pitacor.board.candidate_cell", { number: candidate + 1 }));
      cell.replaceChildren(...parts);
    }
    drawZones(revealed || giverView ? target : null);
    note.hidden = !giverView;
    if (giverView) paintNote(target, colours);
  }

  function paintNote(target, colours) {
    const at = parseCell(target);
    const hex = colours && at ? colours[at[0] * size.cols + at[1]] : null;
    const sig = `${target}|${hex}|${shownInColour}`; // kept here, not in an attribute (see top)
    if (noteSig === sig) return;
    noteSig = sig;
    note.replaceChildren(
      h("span", { class: "pc-target-icon", "aria-hidden": "true" }),
      shownInColour && hex ? h("span", { class: "pc-swatch small", style: `background: ${hex}` }) : null,
      h("span", {}, ht("span", { class: "muted" }, "game.pitacor.giver.your_target"), " ", h("strong", { class: "pc-cell-name" }, target)),
    );
  }

  function drawZones(target) {
    for (const zone of zones) zone.remove();
    zones = [];
    const at = target ? parseCell(target) : null;
    if (!at || !size) return;
    const [r, c] = at;
    for (const [ring, cls] of [[2, "ring2"], [1, "ring1"], [0, "ring0"]]) {
      const top = Math.max(0, r - ring);
      const bottom = Math.min(size.rows - 1, r + ring);
      const left = Math.max(0, c - ring);
      const right = Math.min(size.cols - 1, c + ring);
      const zone = h("span", {
        class: `pc-zone ${cls}`,
        "aria-hidden": "true",
        style: `grid-area: ${top + 2} / ${left + 2} / ${bottom + 3} / ${right + 3}`,
      });
      zones.push(zone);
      grid.append(zone);
    }
  }

  return {
    el: wrap,
    render,
    focusCell(name) {
      const index = indexOf(name);
      if (index >= 0) moveFocus(index);
    },
    hasFocus: () => grid.contains(document.activeElement),
    /** On a phone, show `name` zoomed (a cell chosen with the keyboard is previewed large). */
    showZoomed(name) {
      const index = indexOf(name);
      if (index >= 0) zoom.show(index);
    },
    /** Back to the whole board (a new step of the game starts there). */
    unzoom: () => zoom.out(false),
  };
}
