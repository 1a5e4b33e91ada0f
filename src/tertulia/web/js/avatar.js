// Player identity = colour + initial + shape, never colour alone (UI.md).
// Both come from the public player id, so a player looks the same on every screen and every
// device, in the lobby and in any game. Game screens import `avatar` and `identity`.

import { h } from "./dom.js";

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

/** The colour and shape of player `id`, and the initial of `nickname`. */
export function identity(id, nickname) {
  const n = hash(String(id || nickname || "?"));
  const initial = Array.from(String(nickname || "?").trim())[0] || "?";
  return {
    colour: COLOURS[n % COLOURS.length],
    shape: SHAPES[Math.floor(n / COLOURS.length) % SHAPES.length],
    initial: initial.toLocaleUpperCase(),
  };
}

/**
 * A small avatar element. The nickname is not inside it (it sits next to it as text), so the
 * avatar is decorative for screen readers.
 */
export function avatar(id, nickname, { size = "md", offline = false } = {}) {
  const { colour, shape, initial } = identity(id, nickname);
  const el = h("span", {
    class: `avatar avatar-${size} shape-${shape}${offline ? " offline" : ""}`,
    "aria-hidden": "true",
    style: `--avatar-colour: ${colour}`,
  });
  el.append(h("span", { class: "avatar-initial" }, initial));
  return el;
}
