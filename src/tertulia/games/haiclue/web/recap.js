// The match's recap at the end: every round — its side, the four target words — and each clue
// as it was read (its tiles), the author's card and what each player guessed, right or wrong;
// and the same painted into an image to share (_recap.js saves it). From `view.recap`, which
// only the finished match's view carries (views.py `_recap`).

import { identity, isBot } from "../../js/avatar.js";
import { h, ht, label, replace, tx } from "../../js/dom.js";
import { INK, PAD, paintAvatar, recapHead, WIDTH } from "../../js/games/_recap.js";
import { nicknameOf } from "../../js/view_helpers.js";
import { clueTiles } from "./panels.js";
import { COLOURS, colourChip, symbol, SYMBOL_OF } from "./parts.js";

// The colours of style.css, for the image.
const HUES = { red: "#e03131", yellow: "#f2b705", green: "#237a34", blue: "#1c6fd1" };
const TILE = { white: { bg: "#fffaf0", ink: "#2a2520", edge: "#d9cfbd" }, black: { bg: "#22242a", ink: "#f4f1ea", edge: "#000000" } };

function wordOf(round, colour) {
  return round.targets?.[COLOURS.indexOf(colour)] ?? "";
}

export function createRecap(ctx) {
  let current = null; // the push the image is painted from
  const head = recapHead(ctx, {
    game: "haiclue",
    id: "hc-recap",
    titleKey: "game.haiclue.recap.title",
    downloadKey: "game.haiclue.recap.download",
    failedKey: "game.haiclue.recap.failed",
    paint: (sheet) => paintRecap(ctx, current, sheet),
  });
  const list = h("ol", { class: "recap-rounds hc-recap-rounds", id: "hc-recap-rounds" });
  const el = h("section", { class: "card recap hc-recap", id: "hc-recap", hidden: true, "aria-labelledby": "hc-recap-title" }, head.el, list);
  let signature = null;

  function update(push, nick) {
    current = push;
    const v = push.view || {};
    const rounds = Array.isArray(v.recap) ? v.recap : [];
    el.hidden = !rounds.length;
    if (el.hidden) return;
    const sig = JSON.stringify([rounds, (v.players || []).map((p) => p.nickname)]);
    if (sig === signature) return;
    signature = sig;
    replace(list, rounds.map((round) => paintRound(ctx, v, round, nick)));
  }

  return { el, update };
}

function paintRound(ctx, v, round, nick) {
  return h(
    "li",
    { class: "recap-round hc-recap-round", dataset: { round: round.round, side: round.side } },
    h(
      "h3",
      { class: "recap-round-title" },
      ht("span", {}, "game.haiclue.recap.round", { round: round.round }),
      ht("span", { class: `hc-side-badge side-${round.side}` }, `game.haiclue.side.${round.side}`),
    ),
    label(
      h(
        "ul",
        { class: "hc-recap-targets" },
        COLOURS.map((colour) =>
          h("li", { class: `hc-c-${colour}`, dataset: { colour } }, symbol(colour, 18), h("span", { class: `hc-target-word side-${round.side}` }, wordOf(round, colour))),
        ),
      ),
      "game.haiclue.recap.targets",
    ),
    round.clues.length
      ? h("ol", { class: "hc-recap-clues" }, round.clues.map((clue) => paintClue(ctx, v, round, clue, nick)))
      : ht("p", { class: "muted" }, "game.haiclue.recap.no_clues"),
  );
}

function paintClue(ctx, v, round, clue, nick) {
  const guessers = Object.entries(clue.guesses);
  const authorPoints = v.cooperative ? null : (clue.points[clue.author] ?? 0);
  return h(
    "li",
    { class: "hc-recap-clue", dataset: { author: clue.author, card: clue.card } },
    h(
      "div",
      { class: "hc-recap-clue-head" },
      ctx.avatar(clue.author, nick(clue.author), { size: "sm" }),
      h("span", { class: "name" }, nick(clue.author)),
      clueTiles(clue.words, round.side, { class: "hc-clue-words hc-recap-words" }),
    ),
    h(
      "p",
      { class: "hc-recap-card" },
      ht("span", { class: "muted" }, "game.haiclue.recap.card"),
      " ",
      colourChip(clue.card),
      " ",
      h("strong", {}, wordOf(round, clue.card)),
      v.cooperative
        ? ht("span", { class: "score" }, "game.haiclue.recap.team_points", { count: clue.points.team ?? 0 })
        : ht("span", { class: "score" }, "game.haiclue.plus", { count: authorPoints }),
    ),
    guessers.length
      ? h(
          "ul",
          { class: "hc-recap-guesses" },
          guessers.map(([seat, colour]) => {
            const right = colour === clue.card;
            return h(
              "li",
              { class: right ? "right" : "wrong", dataset: { player: seat, colour } },
              ctx.avatar(seat, nick(seat), { size: "sm" }),
              h("span", { class: "name" }, nick(seat)),
              tx(h("span", { class: `hc-recap-pick hc-c-${colour}` }, symbol(colour, 16), ht("span", { class: "visually-hidden" }, `game.haiclue.colour.${colour}`)), `game.haiclue.colour.${colour}`, null, "title"),
              ht("span", { class: `hc-mark ${right ? "yes" : "no"}` }, right ? "game.haiclue.reveal.right_mark" : "game.haiclue.reveal.wrong_mark"),
            );
          }),
        )
      : ht("p", { class: "muted hc-recap-none" }, "game.haiclue.recap.no_guesses"),
  );
}

// ------------------------------------------------------------------ the image

const nickIn = nicknameOf;

/** A colour's symbol (circle, triangle, square, diamond), `size` px, top-left at x, y. */
function paintSymbol(g, colour, x, y, size) {
  g.beginPath();
  const s = size;
  const shape = SYMBOL_OF[colour];
  if (shape === "circle") g.arc(x + s / 2, y + s / 2, s * 0.42, 0, Math.PI * 2);
  else if (shape === "triangle") {
    g.moveTo(x + s / 2, y + s * 0.06);
    g.lineTo(x + s * 0.95, y + s * 0.9);
    g.lineTo(x + s * 0.05, y + s * 0.9);
    g.closePath();
  } else if (shape === "square") g.rect(x + s * 0.12, y + s * 0.12, s * 0.76, s * 0.76);
  else {
    g.moveTo(x + s / 2, y + s * 0.04);
    g.lineTo(x + s * 0.96, y + s / 2);
    g.lineTo(x + s / 2, y + s * 0.96);
    g.lineTo(x + s * 0.04, y + s / 2);
    g.closePath();
  }
  g.fillStyle = HUES[colour];
  g.fill();
  g.strokeStyle = "rgb(0 0 0 / 55%)";
  g.lineWidth = 1;
  g.stroke();
}

/** A word tile; returns its width. */
function paintTile(sheet, word, side, x, y, max = WIDTH - 2 * PAD - 48, size = 20) {
  const look = TILE[side] || TILE.white;
  const w = Math.min(sheet.measure(word, { size, weight: 700 }) + 20, max);
  sheet.box(x, y, w, size + 16, { fill: look.bg, stroke: look.edge, radius: 6 });
  sheet.text(word, x + 10, y + 8, { size, weight: 700, colour: look.ink, max: w - 20 });
  return w;
}

/** Tiles in a row from x, wrapping at the card's edge; returns the height used. */
function paintTiles(sheet, words, side, x, y, right) {
  let cx = x;
  let cy = y;
  for (const word of words) {
    const w = Math.min(sheet.measure(word, { size: 20, weight: 700 }) + 20, right - x);
    if (cx + w > right && cx > x) {
      cx = x;
      cy += 44;
    }
    cx += paintTile(sheet, word, side, cx, cy, right - x) + 8;
  }
  return cy - y + 44;
}

function paintRecap(ctx, push, sheet) {
  const v = push.view;
  const rounds = v.recap || [];
  let ranking = v.ranking || [];
  if (v.cooperative) ranking = ranking.map((p) => ({ ...p, score: undefined }));
  let y = sheet.head(ctx.t("games.haiclue.name"), ctx.t("game.haiclue.recap.subtitle", { count: rounds.length }), ranking);
  if (v.cooperative) {
    sheet.text(ctx.t("game.haiclue.recap.team_score", { score: v.team_score ?? 0, goal: v.team_goal ?? 6 }), PAD, y - 8, { size: 24, weight: 700, colour: INK.accent });
    y += 36;
  }
  const left = PAD + 24;
  const right = WIDTH - PAD - 24;
  for (const round of rounds) {
    // Measured first on a ghost sheet (it draws nothing), to draw the round's box under it.
    const top = y;
    let cy = y + 24;
    const drawRound = (dry) => {
      cy = top + 24;
      const say = dry ? sheet.ghost() : sheet;
      say.text(`${ctx.t("game.haiclue.recap.round", { round: round.round })} · ${ctx.t(`game.haiclue.side.${round.side}`)}`, left, cy, { size: 24, weight: 700 });
      cy += 40;
      // The four targets, two by two.
      COLOURS.forEach((colour, i) => {
        const x = left + (i % 2) * ((right - left) / 2);
        const ty = cy + Math.floor(i / 2) * 44;
        if (!dry) paintSymbol(sheet.g, colour, x, ty + 6, 26);
        if (!dry) paintTile(sheet, wordOf(round, colour), round.side, x + 36, ty, (right - left) / 2 - 48);
      });
      cy += 2 * 44 + 12;
      for (const clue of round.clues) {
        say.avatar(clue.author, nickIn(push, clue.author), left, cy + 4, 30);
        say.text(nickIn(push, clue.author), left + 40, cy + 8, { size: 20, weight: 700, max: 200 });
        cy += dry ? paintTilesHeight(sheet, clue.words, left + 250, right) : paintTiles(sheet, clue.words, round.side, left + 250, cy, right);
        if (!dry) {
          sheet.text(ctx.t("game.haiclue.recap.card"), left + 40, cy + 2, { size: 18, colour: INK.muted, max: 180 });
          const at = left + 48 + sheet.measure(ctx.t("game.haiclue.recap.card"), { size: 18 });
          paintSymbol(sheet.g, clue.card, at, cy, 24);
          sheet.text(wordOf(round, clue.card), at + 32, cy + 2, { size: 18, weight: 700, max: 360 });
          const points = v.cooperative ? ctx.t("game.haiclue.recap.team_points", { count: clue.points.team ?? 0 }) : ctx.t("game.haiclue.plus", { count: clue.points[clue.author] ?? 0 });
          sheet.text(points, right, cy + 2, { size: 18, weight: 700, colour: INK.ok, align: "right" });
        }
        cy += 32;
        // Who guessed what: an avatar, the colour's symbol, right or wrong.
        let gx = left + 40;
        for (const [seat, colour] of Object.entries(clue.guesses)) {
          const name = nickIn(push, seat);
          const w = 24 + 6 + Math.min(sheet.measure(name, { size: 18 }), 150) + 6 + 22 + 22 + 18;
          if (gx + w > right) {
            gx = left + 40;
            cy += 32;
          }
          if (!dry) {
            paintAvatar(sheet.g, identity(seat, name), gx, cy, 24, isBot(seat));
            const nw = sheet.text(name, gx + 30, cy + 2, { size: 18, max: 150 });
            paintSymbol(sheet.g, colour, gx + 36 + nw, cy, 22);
            const right_ = colour === clue.card;
            sheet.text(right_ ? "✓" : "✗", gx + 62 + nw, cy + 1, { size: 20, weight: 700, colour: right_ ? INK.ok : INK.bad });
          }
          gx += w;
        }
        cy += 44;
      }
      if (!round.clues.length) {
        say.text(ctx.t("game.haiclue.recap.no_clues"), left, cy, { size: 18, colour: INK.muted });
        cy += 32;
      }
      return cy - top + 8;
    };
    const height = drawRound(true);
    sheet.box(PAD, top, WIDTH - 2 * PAD, height);
    drawRound(false);
    y = top + height + 16;
  }
  return y + PAD;
}

function paintTilesHeight(sheet, words, x, right) {
  let cx = x;
  let rows = 1;
  for (const word of words) {
    const w = Math.min(sheet.measure(word, { size: 20, weight: 700 }) + 20, right - x);
    if (cx + w > right && cx > x) {
      cx = x;
      rows += 1;
    }
    cx += w + 8;
  }
  return rows * 44;
}

