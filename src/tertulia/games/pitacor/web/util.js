// Small helpers shared by Pitacor's screen modules: coordinates, colours and the countdown
// text.

import { clockText, nicknameOf } from "../../js/view_helpers.js";

/** (row, col), zero-based → "H12": the row's letter then the column's number. */
export function cellName(row, col) {
  return String.fromCharCode(65 + row) + String(col + 1);
}

/** "H12" → [7, 11], or null. */
export function parseCell(name) {
  const match = /^([A-Za-z])(\d{1,2})$/.exec(String(name || "").trim());
  if (!match) return null;
  return [match[1].toUpperCase().charCodeAt(0) - 65, Number(match[2]) - 1];
}

/** Black or white text, whichever reads better on `hex`. */
export function inkFor(hex) {
  const value = /^#?([0-9a-f]{6})$/i.exec(String(hex || ""));
  if (!value) return "#000";
  const n = parseInt(value[1], 16);
  const channel = (c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  const lum = 0.2126 * channel((n >> 16) & 255) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255);
  return lum > 0.22 ? "#111" : "#fff";
}

export { clockText };

/** The nickname of seat `id` in this view (falls back to the room's seats). */
export const nameOf = nicknameOf;
