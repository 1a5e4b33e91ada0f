// "Mute for me" (issue 31, done here with the reactions): hide one other person's chat lines
// and reactions on this screen only. Nobody else is told; it is kept for this tab's session of
// that room (sessionStorage), so a reload keeps it and a new visit starts afresh.

import { h, label, tx } from "./dom.js";

const PREFIX = "tertulia.muted.";
const memory = new Map(); // code -> Set of ids, when sessionStorage is refused
const listeners = new Set();

function read(code) {
  try {
    const raw = sessionStorage.getItem(PREFIX + code);
    if (raw !== null) return new Set(JSON.parse(raw));
  } catch {
    // refused or not JSON: the tab's memory
  }
  return new Set(memory.get(code) || []);
}

function write(code, ids) {
  memory.set(code, new Set(ids));
  try {
    sessionStorage.setItem(PREFIX + code, JSON.stringify([...ids]));
  } catch {
    // refused: memory keeps it for this tab
  }
}

export function isMuted(code, id) {
  return Boolean(code && id) && read(code).has(id);
}

export function setMuted(code, id, muted) {
  const ids = read(code);
  if (muted) ids.add(id);
  else ids.delete(id);
  write(code, ids);
  for (const fn of listeners) fn(code, id, muted);
}

/** Called with (code, id, muted) whenever someone is muted or unmuted here. */
export function onMuteChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

const SVG = "http://www.w3.org/2000/svg";

/** A speaker; crossed out while muted (CSS: .mute-button[aria-pressed]). */
function speaker() {
  const root = document.createElementNS(SVG, "svg");
  for (const [k, v] of Object.entries({ viewBox: "0 0 24 24", width: 20, height: 20, fill: "none", stroke: "currentColor", "stroke-width": 2, "stroke-linecap": "round", "aria-hidden": "true" })) {
    root.setAttribute(k, String(v));
  }
  for (const [d, cls] of [["M4 9h4l5-4v14l-5-4H4z", "body"], ["M16 9a4 4 0 0 1 0 6", "wave"], ["M16 9.5l5 5M21 9.5l-5 5", "cross"]]) {
    const path = document.createElementNS(SVG, "path");
    path.setAttribute("d", d);
    path.setAttribute("class", cls);
    root.append(path);
  }
  return root;
}

function paint(button) {
  const { code, player, name } = button.dataset;
  const muted = isMuted(code, player);
  button.setAttribute("aria-pressed", String(muted));
  const key = muted ? "mute.unmute_named" : "mute.mute_named";
  label(button, key, { name });
  tx(button, key, { name }, "title");
}

// Every toggle on the page shows the state it has now (the same person may have two: the
// lobby's list and the chat's).
onMuteChange(() => {
  for (const button of document.querySelectorAll(".mute-button")) paint(button);
});

/** A toggle (aria-pressed) that mutes `seat` in room `code` for this screen. */
export function muteButton(code, seat) {
  const button = h("button", { type: "button", class: "icon-button mute-button", dataset: { code, player: seat.id, name: seat.nickname } }, speaker());
  button.addEventListener("click", () => setMuted(code, seat.id, !isMuted(code, seat.id)));
  paint(button);
  return { el: button };
}
