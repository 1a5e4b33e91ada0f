// The album at the end of the match: every round's drawings, each with its title, who read
// what (right or wrong) and the points it gave; and the same painted into an image to share
// (_recap.js saves it). From `view.past_rounds` (views.py: everything in it was revealed at
// its judging) and the drawings' blobs.

import { h, ht, label, replace } from "../../js/dom.js";
import { INK, PAD, recapHead, WIDTH } from "../../js/games/_recap.js";
import { drawingView, paintStrokes } from "./canvas.js";
import { nicknameOf, signed } from "./util.js";

/** A round's album entries: the judged drawings in judging order, then any voided one. */
function entries(past) {
  const judged = past.judged.map((j) => ({ artist: j.artist, judgement: j, drawing: past.drawings?.[j.artist] }));
  const seen = new Set(judged.map((e) => e.artist));
  const voided = Object.entries(past.drawings || {})
    .filter(([artist, d]) => d.void && !seen.has(artist))
    .map(([artist, drawing]) => ({ artist, judgement: null, drawing }));
  return [...judged, ...voided];
}

/** Each reading of a judged drawing, with its mark: who said what, right or wrong (the
 * round's results and the album show them alike). None for a drawing nobody read. */
export function readings(push, j) {
  const order = j.order || [];
  if (!order.length) return null;
  return h(
    "ul",
    { class: "pn-readings" },
    order.map((seat) => {
      const text = j.interpretations?.[seat] ?? "";
      const right = Boolean(j.marks?.[seat]?.right);
      return h(
        "li",
        { class: right ? "right" : "wrong", dataset: { seat } },
        h("span", { class: "pn-mark-symbol", "aria-hidden": "true" }, right ? "✓" : "✗"),
        h("span", { class: "name" }, nicknameOf(push, seat)),
        text ? h("q", {}, text) : ht("span", { class: "muted" }, "game.pinto.show.blank"),
        ht("span", { class: "visually-hidden" }, right ? "game.pinto.mark.right" : "game.pinto.mark.wrong"),
      );
    }),
  );
}

function albumItem(ctx, push, blobs, round, entry) {
  const name = nicknameOf(push, entry.artist);
  const j = entry.judgement;
  const strokes = blobs.get(entry.drawing?.blob ?? `drawing:${round}:${entry.artist}`);
  const points = Object.entries(j?.points || {});
  return h(
    "li",
    { class: `pn-album-item pn-result${j ? "" : " void"}`, dataset: { artist: entry.artist } },
    drawingView(strokes, { labelKey: "game.pinto.drawing.by", labelParams: { name }, className: "pn-album-art" }),
    h(
      "div",
      { class: "pn-album-text" },
      j?.title ? h("strong", { class: "pn-result-title" }, j.title) : null,
      h("span", { class: "pn-album-artist" }, ctx.avatar(entry.artist, name, { size: "sm" }), h("span", { class: "name" }, name)),
      j
        ? points.length
          ? h("span", { class: "pn-result-points" }, points.map(([seat, p]) => `${nicknameOf(push, seat)} ${signed(p)}`).join(" · "))
          : ht("span", { class: "hint" }, "game.pinto.show.no_points")
        : ht("span", { class: "pill" }, "game.pinto.void.badge"),
      j ? readings(push, j) : null,
    ),
  );
}

/** The album card. `update(push, blobs)` paints it from the finished match's view. */
export function createAlbum(ctx) {
  let current = null; // {push, blobs}: what the image is painted from
  const head = recapHead(ctx, {
    game: "pinto",
    id: "pn-recap",
    titleKey: "game.pinto.recap.title",
    downloadKey: "game.pinto.recap.download",
    failedKey: "game.pinto.recap.failed",
    paint: (sheet) => paintAlbum(ctx, current.push, current.blobs, sheet),
  });
  const rounds = h("div", { class: "recap-rounds pn-album-rounds" });
  const el = h("section", { class: "recap pn-recap", id: "pn-recap", "aria-labelledby": "pn-recap-title" }, head.el, rounds);

  function update(push, blobs) {
    current = { push, blobs };
    const past = push.view?.past_rounds || [];
    el.hidden = !past.length;
    replace(
      rounds,
      past.map((p) =>
        label(
          h(
            "section",
            { class: "pn-past-round recap-round", dataset: { round: String(p.round) } },
            ht("h3", { class: "recap-round-title" }, "game.pinto.final.round_heading", { round: p.round, category: p.category }),
            h("ul", { class: "pn-album" }, entries(p).map((e) => albumItem(ctx, push, blobs, p.round, e))),
          ),
          "game.pinto.final.round_heading",
          { round: p.round, category: p.category },
        ),
      ),
    );
  }

  return { el, update };
}

// ------------------------------------------------------------------ the image

const COLUMNS = 3;
const GAP = 20;
const ART = Math.floor((WIDTH - 2 * PAD - (COLUMNS - 1) * GAP) / COLUMNS); // px of a drawing

/** One album entry's text under its drawing; returns its height (a ghost sheet measures). */
function entryText(say, ctx, push, entry, x, y) {
  const j = entry.judgement;
  const max = ART - 24;
  let cy = y;
  if (j?.title) cy += say.wrap(j.title, x + 12, cy, { size: 22, weight: 700, colour: INK.accent, max, lines: 2 }) + 4;
  const name = nicknameOf(push, entry.artist);
  say.avatar(entry.artist, name, x + 12, cy, 24);
  say.text(name, x + 44, cy + 2, { size: 18, weight: 700, max: max - 32 });
  cy += 32;
  if (!j) {
    say.text(ctx.t("game.pinto.void.badge"), x + 12, cy, { size: 18, colour: INK.muted, max });
    return cy + 28 - y;
  }
  for (const seat of j.order || []) {
    const right = Boolean(j.marks?.[seat]?.right);
    const text = j.interpretations?.[seat] || ctx.t("game.pinto.show.blank");
    say.text(right ? "✓" : "✗", x + 12, cy, { size: 18, weight: 700, colour: right ? INK.ok : INK.bad });
    cy += say.wrap(`${nicknameOf(push, seat)}: ${text}`, x + 34, cy, { size: 18, max: max - 22, lines: 2 });
  }
  const points = Object.entries(j.points || {});
  const line = points.length ? points.map(([seat, p]) => `${nicknameOf(push, seat)} ${signed(p)}`).join(" · ") : ctx.t("game.pinto.show.no_points");
  cy += 4 + say.wrap(line, x + 12, cy + 4, { size: 16, colour: INK.muted, max, lines: 2 });
  return cy - y + 12;
}

function paintAlbum(ctx, push, blobs, sheet) {
  const v = push.view;
  const past = v.past_rounds || [];
  let y = sheet.head(ctx.t("games.pinto.name"), ctx.t("game.pinto.recap.subtitle", { count: past.length }), v.ranking);
  for (const p of past) {
    sheet.text(ctx.t("game.pinto.final.round_heading", { round: p.round, category: p.category }), PAD, y, { size: 26, weight: 700 });
    y += 44;
    const items = entries(p);
    for (let row = 0; row < items.length; row += COLUMNS) {
      const cells = items.slice(row, row + COLUMNS);
      const textH = Math.max(...cells.map((e) => entryText(sheet.ghost(), ctx, push, e, 0, 0)));
      const height = ART + 12 + textH;
      cells.forEach((entry, i) => {
        const x = PAD + i * (ART + GAP);
        sheet.box(x, y, ART, height);
        const scratch = document.createElement("canvas");
        scratch.width = scratch.height = ART - 16;
        const strokes = blobs.get(entry.drawing?.blob ?? `drawing:${p.round}:${entry.artist}`);
        paintStrokes(scratch.getContext("2d"), strokes || [], ART - 16);
        sheet.g.drawImage(scratch, x + 8, y + 8);
        entryText(sheet, ctx, push, entry, x, y + ART + 4);
      });
      y += height + GAP;
    }
    y += 12;
  }
  return y + PAD;
}
