// Player identity = colour + initial + shape, never colour alone (UI.md).
// In a room, colour and shape come from the seat's colour number, which the server gives at
// join (the lowest free one): the first eight people never share a colour, on every screen
// and every device; a player who left during the match keeps theirs (`room.former_colours`).
// Anyone else (the home page's recent matches) gets them from a hash of the public id. Game
// screens import `avatar` and `identity`.

import { h } from "./dom.js";
import { t } from "./i18n.js";

// Computer players' ids start so (rooms/bot_members.py): the home page's recent matches know
// a bot without its room's seats.
const BOT_PREFIX = "bot-";

// Eight colours that stay apart for common colour-vision deficiencies and carry white text;
// six shapes, so two players sharing a colour still differ.
const COLOURS = ["#1f6feb", "#c2410c", "#15803d", "#9333ea", "#b91c1c", "#0e7490", "#a16207", "#be185d"];
const SHAPES = ["circle", "square", "diamond", "hexagon", "triangle", "shield"];

function hash(text) {
  // FNV-1a, 32 bits: small, stable, good enough to spread ids.
  let value = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    value ^= text.charCodeAt(i);
    value = Math.imul(value, 0x01000193) >>> 0;
  }
  return value;
}

// The room's seats' colour numbers, by player id (kept for the room: a player who leaves
// keeps their look on the scoreboards that still show them).
let seatColours = new Map();
let seatRoom = null;
let botSeats = new Set(); // the room's computer players, by id

/**
 * Called by the room with every push: `room.code`, `room.seats` (each with `colour`) and
 * `room.former_colours` (player id → colour, for those who left during the match).
 */
export function setSeats(code, seats, formerColours = {}) {
  if (code !== seatRoom) {
    seatRoom = code;
    seatColours = new Map();
    botSeats = new Set();
  }
  for (const [id, colour] of Object.entries(formerColours || {})) {
    if (Number.isInteger(colour)) seatColours.set(id, colour);
  }
  for (const seat of seats || []) {
    if (Number.isInteger(seat.colour)) seatColours.set(seat.id, seat.colour);
    if (seat.bot) botSeats.add(seat.id);
  }
}

/** Whether player `id` is a computer player. */
export function isBot(id) {
  return botSeats.has(id) || String(id || "").startsWith(BOT_PREFIX);
}

/**
 * The colour and shape of player `id`, and the initial of `nickname`; `colour`, when given, is
 * their seat colour number in a room other than the current one (the home page's recent matches).
 */
export function identity(id, nickname, colour = null) {
  const initial = (Array.from(String(nickname || "?").trim())[0] || "?").toLocaleUpperCase();
  const seat = Number.isInteger(colour) ? colour : seatColours.get(id);
  if (seat !== undefined) {
    return { colour: COLOURS[seat % COLOURS.length], shape: SHAPES[seat % SHAPES.length], initial };
  }
  const n = hash(String(id || nickname || "?"));
  return {
    colour: COLOURS[n % COLOURS.length],
    shape: SHAPES[Math.floor(n / COLOURS.length) % SHAPES.length],
    initial,
  };
}

/**
 * A small avatar element. The nickname is not inside it (it sits next to it as text), so the
 * avatar is decorative for screen readers — except a computer player's, which shows a robot
 * and is named ("computer player"): every screen that shows a player shows an avatar beside
 * the name, so the bot mark is everywhere a bot's name is.
 */
export function avatar(id, nickname, { size = "md", offline = false, seatColour = null } = {}) {
  const { colour, shape, initial } = identity(id, nickname, seatColour);
  const bot = isBot(id);
  const el = h("span", {
    class: `avatar avatar-${size} shape-${shape}${offline ? " offline" : ""}${bot ? " is-bot" : ""}`,
    style: `--avatar-colour: ${colour}`,
    ...(bot ? { role: "img", "aria-label": t("bot.mark"), title: t("bot.mark") } : { "aria-hidden": "true" }),
  });
  // A bot's robot takes the initial's place: a badge beside it would be cut by the shapes'
  // clip-path, and colour + shape + the name beside it still tell two bots apart.
  el.append(bot ? h("span", { class: "avatar-initial avatar-bot" }, botGlyph()) : h("span", { class: "avatar-initial" }, initial));
  return el;
}

const SVG = "http://www.w3.org/2000/svg";

/** A small robot head, drawn (an emoji needs a font many machines lack), in currentColor. */
export function botGlyph() {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", "bot-glyph");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const parts = [
    ["line", { x1: 12, y1: 2.5, x2: 12, y2: 6, "stroke-width": 2, "stroke-linecap": "round" }],
    ["circle", { cx: 12, cy: 2.5, r: 1.6 }],
    ["rect", { x: 4, y: 6, width: 16, height: 13, rx: 3.5 }],
    ["rect", { x: 1.5, y: 10.5, width: 2.5, height: 4.5, rx: 1 }],
    ["rect", { x: 20, y: 10.5, width: 2.5, height: 4.5, rx: 1 }],
  ];
  for (const [tag, attrs] of parts) {
    const part = document.createElementNS(SVG, tag);
    for (const [name, value] of Object.entries(attrs)) part.setAttribute(name, String(value));
    part.setAttribute(tag === "line" ? "stroke" : "fill", "currentColor");
    svg.append(part);
  }
  // The face: eyes and a mouth cut out in the avatar's colour.
  for (const [cx, cy] of [[9, 11.5], [15, 11.5]]) {
    const eye = document.createElementNS(SVG, "circle");
    eye.setAttribute("cx", String(cx));
    eye.setAttribute("cy", String(cy));
    eye.setAttribute("r", "1.8");
    eye.setAttribute("fill", "var(--avatar-colour, #555)");
    svg.append(eye);
  }
  const mouth = document.createElementNS(SVG, "rect");
  for (const [name, value] of Object.entries({ x: 8.5, y: 15, width: 7, height: 1.8, rx: 0.9, fill: "var(--avatar-colour, #555)" })) {
    mouth.setAttribute(name, String(value));
  }
  svg.append(mouth);
  return svg;
}
