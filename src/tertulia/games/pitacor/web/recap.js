// The match's recap: each past round on a small board — the target ringed with its scoring
// zones and every marker as its player's avatar — with who put which marker where, and the
// same rounds painted into an image to share (_recap.js saves it).
//
// A round's markers come from the history (views.py `_recap_markers`): seat → its cells by
// guess, [first, second], null for a guess the clock took.

import { identity, isBot } from "../../js/avatar.js";
import { h } from "../../js/dom.js";
import { INK, PAD, paintAvatar, WIDTH } from "../../js/games/_recap.js";
import { nameOf, parseCell } from "./util.js";

const BOARD_CELL = 20; // px of a cell on the page's canvas (scaled down by css to fit)
const IMAGE_CELL = 16; // px of a cell in the image

/** A history round's markers as the view's live ones: [{seat, cell, guess}]. */
export function markersOf(round) {
  const out = [];
  for (const [seat, cells] of Object.entries(round.markers || {})) {
    cells.forEach((cell, i) => {
      if (cell) out.push({ seat, cell, guess: i + 1 });
    });
  }
  return out;
}

function clamp(value, low, high) {
  return Math.min(Math.max(value, low), high);
}

/**
 * Paint a whole board at (x, y), `size` px a cell: its colours, the target with its 3×3 and
 * 5×5 zones (cut by the board's edge), then every marker, second guesses with a "2".
 */
function paintBoard(g, { board, colours, target, markers, players }, x, y, size) {
  const { cols, rows } = board;
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      g.fillStyle = colours?.[r * cols + c] ?? (((r + c) % 2) ? "#d8dbe0" : "#e6e8ec");
      g.fillRect(x + c * size, y + r * size, size, size);
    }
  }
  const at = target ? parseCell(target) : null;
  if (at) {
    for (const [reach, dashed] of [[2, true], [1, false]]) {
      const r0 = Math.max(0, at[0] - reach);
      const c0 = Math.max(0, at[1] - reach);
      const r1 = Math.min(rows - 1, at[0] + reach);
      const c1 = Math.min(cols - 1, at[1] + reach);
      g.setLineDash(dashed ? [size / 3, size / 5] : []);
      for (const [colour, width] of [["#fff", Math.max(3, size / 5)], ["#111", Math.max(1.5, size / 10)]]) {
        g.strokeStyle = colour;
        g.lineWidth = width;
        g.strokeRect(x + c0 * size, y + r0 * size, (c1 - c0 + 1) * size, (r1 - r0 + 1) * size);
      }
    }
    g.setLineDash([]);
    g.strokeStyle = "#111";
    g.lineWidth = Math.max(3, size / 4);
    g.strokeRect(x + at[1] * size, y + at[0] * size, size, size);
    g.strokeStyle = "#fff";
    g.lineWidth = Math.max(1.5, size / 8);
    g.strokeRect(x + at[1] * size, y + at[0] * size, size, size);
  }
  const big = size * 1.5; // larger than a cell, so each player's colour and shape read
  const inset = big / 2 + big / 8 + 2;
  for (const m of markers) {
    const p = parseCell(m.cell);
    if (!p) continue;
    // A marker on an edge cell is pulled in just enough to show whole (halo and "2" badge):
    // half of it would fall off the small board. The legend beside it names the exact cell.
    const cx = clamp(x + p[1] * size + size / 2, x + inset, x + cols * size - inset);
    const cy = clamp(y + p[0] * size + size / 2, y + inset, y + rows * size - inset);
    g.beginPath();
    g.arc(cx, cy, big / 2 + 2, 0, Math.PI * 2);
    g.fillStyle = "rgb(255 255 255 / 85%)";
    g.fill();
    paintAvatar(g, identity(m.seat, players.get(m.seat) ?? "?"), cx - big / 2, cy - big / 2, big, isBot(m.seat));
    if (m.guess === 2) {
      const r = big / 4;
      g.beginPath();
      g.arc(cx + big / 2 - r / 2, cy - big / 2 + r / 2, r, 0, Math.PI * 2);
      g.fillStyle = "#fff";
      g.fill();
      g.fillStyle = "#111";
      g.font = `800 ${Math.round(r * 1.5)}px system-ui, sans-serif`;
      g.textAlign = "center";
      g.textBaseline = "middle";
      g.fillText("2", cx + big / 2 - r / 2, cy - big / 2 + r / 2 + 0.5);
      g.textAlign = "left";
    }
  }
}

// A sentence with a cell in it ("Target: O1") is drawn in two faces: the words in the sheet's
// own, the cell in its coordinates' (_recap.js). The cell goes in as this mark, to split on.
const CELL = "\u0000";

/** `sentence`'s runs for sheet.line(): its words around CELL, and `cell` in its place. */
function withCell(sentence, cell) {
  const [before, ...after] = sentence.split(CELL);
  return after.length ? [before, { coords: cell }, after.join(cell)] : [sentence];
}

function players(push) {
  return new Map((push.view.players || []).map((p) => [p.id, p.nickname]));
}

function hexOf(push, colours, cell) {
  const at = cell ? parseCell(cell) : null;
  return colours && at ? colours[at[0] * push.view.board.cols + at[1]] : null;
}

/** What the round counted for `seat`: the points added to their score (the history's
 * `awarded`: in "Right away" the seats after the winner got nothing), never the raw points
 * the markers earned. Undefined for a seat the round did not score. */
export function counted(round, seat) {
  const added = round.awarded?.[seat];
  if (typeof added === "number") return added;
  return typeof round.points?.[seat] === "number" ? 0 : undefined;
}

/** What a round's board says, in words: the target, then each guesser's cells with what
 * the round counted for them. */
function boardLabel(ctx, push, round) {
  const names = players(push);
  const said = Object.entries(round.markers || {}).map(([seat, cells]) =>
    ctx.t("game.pitacor.recap.marker", { name: names.get(seat) ?? "?", cell: cells.filter(Boolean).join(" · "), points: counted(round, seat) ?? 0 }),
  );
  return ctx.t("game.pitacor.recap.board", { round: round.round, cell: round.target ?? "?", markers: said.join("; ") || ctx.t("game.pitacor.recap.no_markers") });
}

/** A past round's small board (a canvas), with its words for screen readers. Ultra Hard
 * shows no colour until the reveal: while a round is being played the past boards are grey
 * too, or they would show the whole board's colours. */
export function miniBoard(ctx, push, round, palette) {
  const board = push.view.board;
  const colours = board.show_colours ? palette : null;
  const markers = markersOf(round);
  const canvas = h("canvas", { class: "pc-mini-board", role: "img", width: board.cols * BOARD_CELL, height: board.rows * BOARD_CELL, dataset: { round: round.round } });
  canvas.setAttribute("aria-label", boardLabel(ctx, push, round));
  paintBoard(canvas.getContext("2d"), { board, colours, target: round.target, markers, players: players(push) }, 0, 0, BOARD_CELL);
  return canvas;
}

/** Each guesser's markers in a round and what the round gave them: the board's legend. */
export function markerLegend(ctx, push, round) {
  const rows = Object.entries(round.markers || {}).map(([seat, cells]) => {
    const points = counted(round, seat);
    return h(
      "li",
      { dataset: { player: seat } },
      ctx.avatar(seat, nameOf(push, seat), { size: "sm" }),
      h("span", { class: "name" }, nameOf(push, seat)),
      h("span", { class: "pc-recap-cells" }, cells.map((c, i) => (c ? h("span", { class: `pc-recap-cell guess-${i + 1}` }, c) : null))),
      typeof points === "number" ? h("span", { class: `pc-recap-points${points ? "" : " zero"}` }, `+${points}`) : null,
    );
  });
  return rows.length ? h("ul", { class: "pc-recap-markers" }, rows) : null;
}

// ------------------------------------------------------------------ the image

/** The painter of the recap image (see _recap.js): the places, then each round, oldest first. */
export function recapPainter(ctx, push, colours) {
  const v = push.view;
  const names = players(push);
  const rounds = v.history || [];
  const boardW = v.board.cols * IMAGE_CELL;
  const boardH = v.board.rows * IMAGE_CELL;
  return (sheet) => {
    let y = sheet.head(ctx.t("games.pitacor.name"), ctx.t("game.pitacor.recap.subtitle", { count: rounds.length }), v.ranking);
    for (const r of rounds) {
      const markers = markersOf(r);
      const textX = PAD + 24 + boardW + 24;
      const textW = WIDTH - PAD - 24 - textX;
      // Measure the text column first: the round's box is as tall as the taller side.
      const guessers = Object.keys(r.markers || {});
      const textH = 36 + 34 + r.clues.length * 30 + (r.passed ? 30 : 6) + (guessers.length + 1) * 30;
      const height = r.void ? 100 : Math.max(boardH, textH) + 48;
      sheet.box(PAD, y, WIDTH - 2 * PAD, height);
      const top = y + 24;
      if (r.void) {
        sheet.text(ctx.t("game.pitacor.round", { round: r.round }), PAD + 24, top, { size: 22, weight: 700 });
        sheet.text(ctx.t("game.pitacor.history.void"), PAD + 24, top + 34, { size: 20, colour: INK.muted });
        y += height + 16;
        continue;
      }
      paintBoard(sheet.g, { board: v.board, colours, target: r.target, markers, players: names }, PAD + 24, top, IMAGE_CELL);
      let ty = top;
      sheet.text(ctx.t("game.pitacor.round", { round: r.round }), textX, ty, { size: 22, weight: 700, max: 140 });
      sheet.avatar(r.giver, names.get(r.giver) ?? "?", textX + 140, ty - 2, 28);
      sheet.text(names.get(r.giver) ?? "?", textX + 176, ty, { size: 22, max: textW - 176 });
      ty += 36;
      const hex = hexOf(push, colours, r.target);
      if (hex) sheet.box(textX, ty, 26, 26, { fill: hex, stroke: "#111", radius: 4 });
      const said = { size: 20, weight: 700, max: textW - 36 };
      if (r.target) sheet.line(withCell(ctx.t("game.pitacor.recap.target", { cell: CELL }), r.target), textX + 36, ty + 2, said);
      else sheet.text(ctx.t("game.pitacor.history.unfinished"), textX + 36, ty + 2, said);
      ty += 34;
      r.clues.forEach((clue, i) => {
        sheet.text(`${ctx.t(i ? "game.pitacor.clue2" : "game.pitacor.clue1")} “${clue}”`, textX, ty, { size: 20, max: textW });
        ty += 30;
      });
      if (r.passed) {
        sheet.text(ctx.t("game.pitacor.passed", { multiplier: push.room.settings?.pass_multiplier ?? 2 }), textX, ty, { size: 18, colour: INK.accent, max: textW });
      }
      ty += r.passed ? 30 : 6;
      for (const seat of guessers) {
        sheet.avatar(seat, names.get(seat) ?? "?", textX, ty, 24);
        const cells = r.markers[seat].flatMap((c, i) => [i ? " · " : "", c ? { coords: c } : "–"]);
        sheet.line([`${names.get(seat) ?? "?"}  `, ...cells], textX + 32, ty + 2, { size: 18, max: textW - 90 });
        const points = counted(r, seat);
        if (typeof points === "number") sheet.text(`+${points}`, WIDTH - PAD - 24, ty + 2, { size: 18, weight: 700, colour: points ? INK.ok : INK.muted, align: "right" });
        ty += 30;
      }
      const giverPoints = counted(r, r.giver);
      if (typeof giverPoints === "number") {
        sheet.text(ctx.t("game.pitacor.recap.giver", { name: names.get(r.giver) ?? "?" }), textX, ty + 2, { size: 18, colour: INK.muted, max: textW - 90 });
        sheet.text(`+${giverPoints}`, WIDTH - PAD - 24, ty + 2, { size: 18, weight: 700, colour: giverPoints ? INK.ok : INK.muted, align: "right" });
      }
      y += height + 16;
    }
    return y + PAD;
  };
}
