// The reveal, magnified: the 7×7 cells around the target, big enough to read on a phone
// (the whole board's cells are ~11 px wide there), with its scoring zones and a legend of
// what each scores, and every marker in reach with what it scored. Markers further out score nothing
// and are listed under it. Shown in the reveal card on every screen.
//
// The window stays inside the board: near an edge the target is off-centre and its zones
// are cut by the edge, as on the board itself ("Near the edge, the zones are cut off").

import { h, ht, replace } from "../../js/dom.js";
import { cellName, inkFor, nameOf, parseCell } from "./util.js";

const REACH = 3; // cells each side of the target: the 5×5 zone plus one ring of context
const SPAN = 2 * REACH + 1;

/** Ring distance between two cells (diagonals count as neighbours). */
function distance(a, b) {
  return Math.max(Math.abs(a[0] - b[0]), Math.abs(a[1] - b[1]));
}

export function createInset(ctx) {
  const grid = h("div", { class: "pc-inset-grid", role: "img", id: "pitacor-inset-grid" });
  const legend = h("ul", { class: "pc-inset-legend", id: "pitacor-inset-legend" });
  const far = h("ul", { class: "pc-inset-far", id: "pitacor-inset-far" });
  const el = h("figure", { class: "pc-inset", id: "pitacor-inset", hidden: true }, grid, legend, far);
  let last = "";

  function pointsFor(ring, settings) {
    const table = [settings?.exact_points ?? 3, settings?.neighbour_points ?? 2, settings?.ring_points ?? 1];
    return ring < table.length ? table[ring] : 0;
  }

  function update(push, colours) {
    const v = push.view;
    const shown = (v.phase === "reveal" || v.phase === "ended") && Boolean(v.target) && Boolean(v.points);
    el.hidden = !shown;
    if (!shown) {
      // Emptied, not just hidden: the next round's page holds no cells of this one.
      if (last) for (const part of [grid, legend, far]) replace(part);
      last = "";
      return;
    }
    const sig = JSON.stringify([v.round, v.target, v.markers, v.board, Boolean(colours), v.players?.map((p) => p.nickname)]);
    if (sig === last) return;
    last = sig;
    const target = parseCell(v.target);
    const { rows, cols } = v.board;
    const top = Math.max(0, Math.min(rows - SPAN, target[0] - REACH));
    const left = Math.max(0, Math.min(cols - SPAN, target[1] - REACH));
    const height = Math.min(SPAN, rows);
    const width = Math.min(SPAN, cols);
    grid.style.setProperty("--span-cols", width);
    grid.style.setProperty("--span-rows", height);
    grid.setAttribute("aria-label", ctx.t("game.pitacor.inset.label", { cell: v.target }));
    const settings = push.room.settings || {};
    const markers = new Map((v.markers || []).map((m) => [m.cell, m]));
    const parts = [];
    for (let r = top; r < top + height; r++) {
      for (let c = left; c < left + width; c++) {
        const name = cellName(r, c);
        const hex = colours ? colours[r * cols + c] : null;
        const m = markers.get(name);
        const ring = distance([r, c], target);
        parts.push(
          h(
            "span",
            {
              class: `pc-inset-cell${name === v.target ? " target" : ""}`,
              style: `grid-area: ${r - top + 1} / ${c - left + 1}${hex ? `; --cell: ${hex}; --ink: ${inkFor(hex)}` : ""}`,
            },
            m ? marker(push, m, pointsFor(ring, settings)) : null,
          ),
        );
      }
    }
    // The zones; what each scores is the legend's (a label inside a zone sat on the markers
    // in its corner, and one on its edge was cut by the board's).
    for (const ring of [2, 1, 0]) {
      const r0 = Math.max(top, target[0] - ring) - top;
      const r1 = Math.min(top + height - 1, target[0] + ring) - top;
      const c0 = Math.max(left, target[1] - ring) - left;
      const c1 = Math.min(left + width - 1, target[1] + ring) - left;
      parts.push(
        h(
          "span",
          { class: `pc-inset-zone ring${ring}`, "aria-hidden": "true", style: `grid-area: ${r0 + 1} / ${c0 + 1} / ${r1 + 2} / ${c1 + 2}` },
        ),
      );
    }
    replace(grid, parts);
    replace(
      legend,
      [0, 1, 2].map((ring) =>
        h(
          "li",
          { class: `ring${ring}` },
          h("span", { class: `pc-inset-key ring${ring}`, "aria-hidden": "true" }),
          ht("span", {}, `game.pitacor.inset.zone${ring}`),
          h("strong", { class: "pc-inset-legend-points" }, `+${pointsFor(ring, settings)}`),
        ),
      ),
    );
    // Markers outside the window scored nothing: said in words, so none goes unaccounted.
    const outside = (v.markers || []).filter((m) => {
      const at = parseCell(m.cell);
      return at && (at[0] < top || at[0] >= top + height || at[1] < left || at[1] >= left + width);
    });
    far.hidden = !outside.length;
    replace(
      far,
      outside.map((m) =>
        h(
          "li",
          { dataset: { player: m.seat } },
          ctx.avatar(m.seat, nameOf(push, m.seat), { size: "sm" }),
          ht("span", {}, "game.pitacor.inset.far", { name: nameOf(push, m.seat), cell: m.cell }),
          h("span", { class: "pc-inset-points zero" }, "+0"),
        ),
      ),
    );
  }

  function marker(push, m, points) {
    const name = nameOf(push, m.seat);
    return h(
      "span",
      { class: `pc-inset-marker guess-${m.guess}${m.seat === ctx.me ? " mine" : ""}`, dataset: { player: m.seat, points } },
      ctx.avatar(m.seat, name, { size: "sm" }),
      h("span", { class: `pc-inset-points${points ? "" : " zero"}` }, `+${points}`),
      ht("span", { class: "visually-hidden" }, "game.pitacor.inset.marker", { name, cell: m.cell, points }),
    );
  }

  return { el, update };
}
