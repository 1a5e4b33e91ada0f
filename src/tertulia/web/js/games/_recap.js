// What every game's end-of-match recap shares: the card's head with its "Download image"
// button, and the image itself — a canvas the game paints from the same view data, saved as
// a PNG named after the game and the day ("tertulia-pitacor-2026-12-02.png").
//
// The image always has the light look, whatever the page's theme: it is shared, and read on
// other people's screens. A game's painter is `paint(sheet) → height`: it draws from the top
// and says how tall it went; it runs twice, once on a scratch canvas to measure, then on one
// of that height. (The file starts with "_" so no game folder can take its name.)

import { identity, isBot } from "../avatar.js";
import { h, ht, tx } from "../dom.js";

export const WIDTH = 1080; // px: wide enough for a laptop, fine on a phone's gallery
const MAX_HEIGHT = 16000; // taller images are scaled down (browsers cap a canvas's size)
export const PAD = 40;
const FOOT = 40; // px under the painting for the match page's address
export const INK = { bg: "#f6f7f9", card: "#ffffff", line: "#d5d9e0", text: "#1b1e24", muted: "#5b6270", accent: "#4338ca", ok: "#15803d", bad: "#b42318" };
export const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", Arial, sans-serif';
// Board coordinates ("O1", "I10"): in the sans-serif above, "O1" reads "01" and "I1" "11". A
// monospace face gives the letter its own shape (a round O, a serifed I), and those first in
// the list mark their zero (slashed or dotted); where the face has a plain zero after all,
// sheet.coords() slashes it by hand (see zeroIsMarked).
export const COORD_FONT = 'Menlo, "SF Mono", Consolas, "Cascadia Mono", "Roboto Mono", "DejaVu Sans Mono", "Noto Sans Mono", "Liberation Mono", monospace';

let styled = false;

// The page of the match on screen (/m/<id>, issue 31): the room names it once the match is on
// the podium (room.match_page), the match page knows its own. Every recap card links to it
// (but on that page itself) and the saved image carries its address, so a shared picture
// leads back to the whole match.
let matchPage = null;

/** The address of the match's page, or null while there is none. */
export function matchPageAddress() {
  return matchPage ? `${location.origin}/m/${matchPage}` : null;
}

/** Called by the room (with each push) and by the match page: which match is on screen. */
export function setMatchPage(id) {
  matchPage = id || null;
  for (const link of document.querySelectorAll(".recap-page-link")) paintPageLink(link);
}

function paintPageLink(link) {
  const here = matchPage && location.pathname === `/m/${matchPage}`;
  link.hidden = !matchPage || here;
  if (matchPage) link.href = `/m/${encodeURIComponent(matchPage)}`;
}

/** The recap's stylesheet (css/recap.css), added to the page once. */
function addStylesheet() {
  if (styled || document.querySelector("link[data-recap-css]")) return;
  styled = true;
  document.head.append(h("link", { rel: "stylesheet", href: "/static/css/recap.css", dataset: { recapCss: "1" } }));
}

/**
 * The head of a recap card: its title and the download button. `paint(sheet)` draws the
 * image (see the top of this file); `game` names the file. Returns {el, title}; set the
 * title's words with tx(title, key, params).
 */
export function recapHead(ctx, { game, titleKey = null, downloadKey, failedKey, paint, id }) {
  addStylesheet();
  // Without a title key, the card has its own heading (Pitacor's is its summary).
  const title = titleKey ? ht("h2", { id: `${id}-title`, class: "recap-title" }, titleKey) : null;
  const button = ht("button", { type: "button", class: "secondary recap-download", id: `${id}-download` }, downloadKey);
  const error = h("p", { class: "field-error", hidden: true, role: "alert" });
  button.addEventListener("click", async () => {
    button.disabled = true;
    error.hidden = true;
    try {
      await saveImage(renderImage(paint), imageName(game));
    } catch (err) {
      console.error("the recap image could not be made", err);
      tx(error, failedKey);
      error.hidden = false;
    } finally {
      button.disabled = false;
    }
  });
  const pageLink = ht("a", { class: "recap-page-link", id: `${id}-page`, hidden: true }, "match.open_page");
  paintPageLink(pageLink);
  const el = h("div", { class: "recap-head" }, title, button, pageLink, error);
  return { el, title };
}

/** "tertulia-<game>-YYYY-MM-DD.png", in the player's own calendar. */
export function imageName(game, when = new Date()) {
  const day = [when.getFullYear(), when.getMonth() + 1, when.getDate()].map((n) => String(n).padStart(2, "0")).join("-");
  return `tertulia-${game}-${day}.png`;
}

/** The painter's canvas, measured then drawn (see the top of this file). */
export function renderImage(paint) {
  const scratch = document.createElement("canvas");
  scratch.width = WIDTH;
  scratch.height = 10;
  const address = matchPageAddress();
  const painted = Math.ceil(paint(sheet(scratch.getContext("2d"))));
  const height = painted + (address ? FOOT : 0);
  const scale = Math.min(1, MAX_HEIGHT / height);
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(WIDTH * scale);
  canvas.height = Math.round(height * scale);
  const g = canvas.getContext("2d");
  g.scale(scale, scale);
  g.fillStyle = INK.bg;
  g.fillRect(0, 0, WIDTH, height);
  paint(sheet(g));
  // Its foot: where the whole match is (the page's address, as text a reader can type).
  if (address) sheet(g).text(address, PAD, painted - PAD / 2, { size: 22, colour: INK.muted });
  return canvas;
}

/** Save `canvas` as a PNG file: toBlob, then a download link clicked for the player. */
export function saveImage(canvas, filename) {
  return new Promise((resolve, reject) => {
    canvas.toBlob((blob) => {
      if (!blob) return reject(new Error("the browser made no image"));
      const url = URL.createObjectURL(blob);
      const link = h("a", { href: url, download: filename, hidden: true });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 30_000);
      resolve();
    }, "image/png");
  });
}

// ------------------------------------------------------------------ drawing on the sheet

/** A 2D context with the few drawing words the recaps use. A `dry` sheet draws nothing but
 * measures the same (`sheet.ghost()`): a painter learns how tall a block is before its box. */
function sheet(g, dry = false) {
  return {
    g,
    dry,
    width: WIDTH,
    ghost() {
      return sheet(g, true);
    },
    /** Text at (x, y) (its top; its right end with align "right"), cut with "…" to `max`
     * px; returns its width. */
    text(text, x, y, { size = 20, weight = 400, colour = INK.text, align = "left", max = align === "right" ? x - PAD : WIDTH - x - PAD } = {}) {
      g.font = `${weight} ${size}px ${FONT}`;
      g.fillStyle = colour;
      g.textBaseline = "top";
      g.textAlign = align;
      const shown = fit(g, String(text ?? ""), max);
      if (!dry) g.fillText(shown, x, y);
      g.textAlign = "left";
      return g.measureText(shown).width;
    },
    /** Text wrapped to `max` px, at most `lines` lines; returns the height used. */
    wrap(text, x, y, { size = 20, weight = 400, colour = INK.text, max = WIDTH - x - PAD, lines = 3, leading = 1.3 } = {}) {
      g.font = `${weight} ${size}px ${FONT}`;
      const rows = wrapLines(g, String(text ?? ""), max, lines);
      rows.forEach((row, i) => this.text(row, x, y + i * size * leading, { size, weight, colour, max }));
      return rows.length * size * leading;
    },
    measure(text, { size = 20, weight = 400, font = FONT } = {}) {
      g.font = `${weight} ${size}px ${font}`;
      return g.measureText(String(text ?? "")).width;
    },
    /** Board coordinates at (x, y), in COORD_FONT, each zero unmistakable; returns the width. */
    coords(text, x, y, { size = 20, weight = 400, colour = INK.text } = {}) {
      const shown = String(text ?? "");
      g.font = `${weight} ${size}px ${COORD_FONT}`;
      g.fillStyle = colour;
      g.textBaseline = "top";
      g.textAlign = "left";
      const width = g.measureText(shown).width;
      if (dry) return width;
      g.fillText(shown, x, y);
      if (!zeroIsMarked(g.font)) slashZeros(g, shown, x, y, size, colour);
      return width;
    },
    /** A line of plain text and coordinates: `runs` are strings and {coords: "O1"}; the plain
     * ones are cut with "…" when the line would pass `max` px. Returns the width used. */
    line(runs, x, y, { size = 20, weight = 400, colour = INK.text, max = WIDTH - x - PAD } = {}) {
      const coordsWidth = runs.reduce((sum, r) => sum + (typeof r === "string" ? 0 : this.measure(r.coords, { size, weight, font: COORD_FONT })), 0);
      let room = max - coordsWidth;
      let at = x;
      for (const run of runs) {
        if (typeof run === "string") {
          if (!run || room <= 0) continue;
          const used = this.text(run, at, y, { size, weight, colour, max: room });
          room -= used;
          at += used;
        } else {
          at += this.coords(run.coords, at, y, { size, weight, colour });
        }
      }
      return at - x;
    },
    box(x, y, w, hgt, { fill = INK.card, stroke = INK.line, radius = 12, width = 1 } = {}) {
      if (dry) return;
      g.beginPath();
      g.roundRect(x, y, w, hgt, radius);
      if (fill) {
        g.fillStyle = fill;
        g.fill();
      }
      if (stroke) {
        g.strokeStyle = stroke;
        g.lineWidth = width;
        g.stroke();
      }
    },
    /** A player's avatar (colour + initial + shape, as on the page), `size` px, top-left at x, y. */
    avatar(id, nickname, x, y, size = 28) {
      if (!dry) paintAvatar(g, identity(id, nickname), x, y, size, isBot(id));
    },
    /** The sheet's head: the game's name, what it shows and the day, and the final places. */
    head(gameTitle, subtitle, ranking) {
      let y = PAD;
      this.text(gameTitle, PAD, y, { size: 40, weight: 700 });
      y += 52;
      const day = new Date().toLocaleDateString(document.documentElement.lang || undefined, { dateStyle: "long" });
      this.text(`${subtitle} · ${day}`, PAD, y, { size: 22, colour: INK.muted });
      y += 44;
      for (const p of ranking || []) {
        this.text(String(p.place), PAD, y + 4, { size: 22, weight: 700, colour: p.winner ? INK.accent : INK.muted });
        this.avatar(p.seat, p.nickname, PAD + 34, y, 30);
        const name = this.text(p.nickname, PAD + 76, y + 4, { size: 22, weight: p.winner ? 700 : 400, max: 560 });
        if (typeof p.score === "number") this.text(String(p.score), WIDTH - PAD, y + 4, { size: 22, weight: 700, align: "right" });
        if (p.winner) this.text("★", PAD + 84 + name, y + 2, { size: 22, colour: INK.accent });
        y += 40;
      }
      return y + 16;
    },
  };
}

// Whether a face's zero already has a slash or a dot, per canvas font string: its middle is
// inked (a plain zero, like an O, is hollow there). Checked once, on a scratch canvas.
const zeroMarks = new Map();

function zeroIsMarked(font) {
  if (zeroMarks.has(font)) return zeroMarks.get(font);
  const probe = document.createElement("canvas");
  probe.width = probe.height = 64;
  const g = probe.getContext("2d", { willReadFrequently: true });
  g.font = font.replace(/\d+(\.\d+)?px/, "48px");
  g.textAlign = "center";
  g.textBaseline = "middle";
  g.fillStyle = "#000";
  const m = g.measureText("0");
  // The glyph's own middle (its box, not the em's): the baseline sits lower than the centre.
  const middle = 32 + (m.actualBoundingBoxDescent - m.actualBoundingBoxAscent) / 2;
  g.fillText("0", 32, 32);
  const size = 6;
  const { data } = g.getImageData(32 - size / 2, Math.round(middle - size / 2), size, size);
  let inked = false;
  for (let i = 3; i < data.length; i += 4) if (data[i] > 96) inked = true;
  zeroMarks.set(font, inked);
  return inked;
}

/** A slash across each "0" of `text` drawn at (x, y) (top baseline) in the context's font. */
function slashZeros(g, text, x, y, size, colour) {
  const chars = Array.from(text);
  g.save();
  g.strokeStyle = colour;
  g.lineWidth = Math.max(1.5, size / 11);
  g.lineCap = "round";
  chars.forEach((char, i) => {
    if (char !== "0") return;
    const left = x + g.measureText(chars.slice(0, i).join("")).width;
    const m = g.measureText("0");
    const top = y - m.actualBoundingBoxAscent;
    const bottom = y + m.actualBoundingBoxDescent;
    const w = m.width;
    g.beginPath();
    g.moveTo(left + w * 0.28, bottom - (bottom - top) * 0.12);
    g.lineTo(left + w * 0.72, top + (bottom - top) * 0.12);
    g.stroke();
  });
  g.restore();
}

function fit(g, text, max) {
  if (g.measureText(text).width <= max) return text;
  let chars = Array.from(text);
  while (chars.length && g.measureText(`${chars.join("")}…`).width > max) chars = chars.slice(0, -1);
  return `${chars.join("")}…`;
}

function wrapLines(g, text, max, limit) {
  const words = text.split(/\s+/).filter(Boolean);
  const rows = [];
  let row = "";
  for (const word of words) {
    const next = row ? `${row} ${word}` : word;
    if (g.measureText(next).width <= max || !row) row = next;
    else {
      rows.push(row);
      row = word;
    }
  }
  if (row) rows.push(row);
  if (rows.length > limit) {
    rows.length = limit;
    rows[limit - 1] = fit(g, `${rows[limit - 1]} …`, max);
  }
  return rows.map((r) => fit(g, r, max));
}

// The avatar shapes of css/app.css (.shape-*), as polygons in a unit square.
const SHAPES = {
  diamond: [[0.5, 0], [1, 0.5], [0.5, 1], [0, 0.5]],
  hexagon: [[0.25, 0.03], [0.75, 0.03], [1, 0.5], [0.75, 0.97], [0.25, 0.97], [0, 0.5]],
  triangle: [[0.5, 0], [1, 1], [0, 1]],
  shield: [[0, 0], [1, 0], [1, 0.62], [0.5, 1], [0, 0.62]],
};

/** An avatar as avatar.js draws it: the shape in the player's colour, the initial in white —
 * or, for a computer player, the robot head in its place. */
export function paintAvatar(g, { colour, shape, initial }, x, y, size, bot = false) {
  g.beginPath();
  if (shape === "circle") g.arc(x + size / 2, y + size / 2, size / 2, 0, Math.PI * 2);
  else if (shape === "square") g.roundRect(x, y, size, size, size * 0.18);
  else {
    const points = SHAPES[shape] || SHAPES.diamond;
    points.forEach(([px, py], i) => (i ? g.lineTo(x + px * size, y + py * size) : g.moveTo(x + px * size, y + py * size)));
    g.closePath();
  }
  g.fillStyle = colour;
  g.fill();
  const shift = shape === "triangle" ? size * 0.16 : shape === "shield" ? -size * 0.06 : 0;
  if (bot) {
    paintRobot(g, colour, x + size * 0.2, y + size * 0.2 + shift, size * 0.6);
    return;
  }
  g.fillStyle = "#fff";
  g.font = `700 ${Math.round(size * 0.5)}px ${FONT}`;
  g.textAlign = "center";
  g.textBaseline = "middle";
  g.fillText(initial, x + size / 2, y + size / 2 + shift);
  g.textAlign = "left";
}

/** avatar.js's robot head (its 24-unit drawing), `size` px square at x, y. */
function paintRobot(g, colour, x, y, size) {
  const u = size / 24;
  const rect = (rx, ry, w, hh, r) => {
    g.beginPath();
    g.roundRect(x + rx * u, y + ry * u, w * u, hh * u, r * u);
    g.fill();
  };
  g.fillStyle = "#fff";
  g.strokeStyle = "#fff";
  g.lineWidth = 2 * u;
  g.lineCap = "round";
  g.beginPath();
  g.moveTo(x + 12 * u, y + 2.5 * u);
  g.lineTo(x + 12 * u, y + 6 * u);
  g.stroke();
  g.beginPath();
  g.arc(x + 12 * u, y + 2.5 * u, 1.6 * u, 0, Math.PI * 2);
  g.fill();
  rect(4, 6, 16, 13, 3.5);
  rect(1.5, 10.5, 2.5, 4.5, 1);
  rect(20, 10.5, 2.5, 4.5, 1);
  g.fillStyle = colour; // the face, cut out in the avatar's colour
  for (const cx of [9, 15]) {
    g.beginPath();
    g.arc(x + cx * u, y + 11.5 * u, 1.8 * u, 0, Math.PI * 2);
    g.fill();
  }
  rect(8.5, 15, 7, 1.8, 0.9);
  g.lineCap = "butt";
}
