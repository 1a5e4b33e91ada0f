// Sounds (UI.md, "Motion and sound"; issue 29): your turn and time almost up (this seat's
// to-do and clock), and the table's moments: a clue given, markers or guesses landing, a
// reveal, a win (each game's screen names its events for them: `soundEvents`). Made in code
// (synth.js): no files. Nothing here knows a game.
//
// - On a phone or laptop (a seat) sounds are off by default: a table of phones all chiming
//   the same reveal a few milliseconds apart is noise, and people play in buses and offices;
//   one switch in the header turns them on, remembered. The shared screen (tv.js) is the
//   room's loudspeaker: on by default there, remembered apart, with its own volume.
// - The browser lets a page start audio only after a gesture (a click, a key, a tap): no
//   AudioContext is made before one, and a sound asked for before is simply not played.
//   `navigator.vibrate` (your turn, where there is one) waits for a gesture too.

import { prefs } from "./prefs.js";
import { SOUNDS } from "./synth.js";

const HURRY_SECONDS = 10; // "time almost up": this much left on a clock you must beat
const OWN_ACTION_GRACE_MS = 1500; // a to-do that follows your own action is your next step, not news
// Of several moments in one push, the one worth hearing.
const RANK = ["land", "clue", "reveal", "win"];
const GESTURES = ["pointerdown", "keydown", "touchend"];

let audio = null;
let master = null;
let screenMode = false;
let allowed = Boolean(navigator.userActivation?.hasBeenActive);
const unlockListeners = new Set();

function onGesture() {
  allowed = true;
  for (const type of GESTURES) window.removeEventListener(type, onGesture, true);
  if (audio?.state === "suspended") audio.resume().catch(() => {});
  for (const fn of unlockListeners) fn();
}
if (!allowed) for (const type of GESTURES) window.addEventListener(type, onGesture, true);

/** Has the browser been given the gesture it needs before any audio? */
export function audioAllowed() {
  return allowed;
}

/** `fn()` once audio is allowed (at once if it is). */
export function whenAudioAllowed(fn) {
  if (allowed) fn();
  else unlockListeners.add(fn);
  return () => unlockListeners.delete(fn);
}

/** The shared screen's page: its own switch (on by default) and volume. */
export function useScreenSounds() {
  screenMode = true;
}

const onKey = () => (screenMode ? "tv.sound" : "sound");

export function soundOn() {
  const stored = prefs.get(onKey());
  return screenMode ? stored !== "0" : stored === "1";
}

export function setSoundOn(on) {
  prefs.set(onKey(), on ? "1" : "0");
  if (on) play(screenMode ? "clue" : "turn"); // what it sounds like (and a click allows audio)
}

/** The volume, 0 to 1 (remembered; 0.8 until changed). */
export function volume() {
  const stored = Number(prefs.get("volume"));
  return prefs.get("volume") !== null && Number.isFinite(stored) ? Math.min(1, Math.max(0, stored)) : 0.8;
}

export function setVolume(value) {
  prefs.set("volume", String(Math.min(1, Math.max(0, value))));
  if (master) master.gain.value = volume();
}

/** Play sound `kind` (synth.js SOUNDS), if sounds are on and the browser allows audio. Never
 * throws: sound is a nicety, and the status line and announcements say everything too. */
export function play(kind) {
  if (!soundOn() || !allowed || !SOUNDS[kind]) return;
  if (kind === "turn" && !screenMode) {
    try {
      navigator.vibrate?.(120);
    } catch {
      // Vibration refused: fine.
    }
  }
  try {
    if (!audio) {
      audio = new (window.AudioContext || window.webkitAudioContext)();
      master = audio.createGain();
      master.connect(audio.destination);
    }
    master.gain.value = volume();
    if (audio.state === "suspended") audio.resume().catch(() => {});
    SOUNDS[kind](audio, master, audio.currentTime + 0.01);
  } catch {
    // No audio here.
  }
}

/** The table's moment in `push` worth a sound: its events named by the game's screen
 * (`soundEvents`: event kind → sound), and the end of the match (a win). */
export function momentOf(push, soundEvents = {}, previousStatus = null) {
  let best = -1;
  for (const event of push?.events || []) best = Math.max(best, RANK.indexOf(soundEvents[event.kind]));
  if (previousStatus === "playing" && push?.room?.status === "ended") best = RANK.indexOf("win");
  return best >= 0 ? RANK[best] : null;
}

/** Turn and hurry alerts, and the table's moments, for one game screen. `now()` is the
 * server's clock in seconds; `quietToDos`: the game's "carry on" to-dos, which everyone gets
 * while looking at a reveal (its screen module's `quietToDos`, such as Haiclue's "ready"): no
 * beep for those; `soundEvents`: its events that make a sound (its module's `soundEvents`). */
export function createAlerts(now, { quietToDos = [], soundEvents = {} } = {}) {
  const noNews = new Set(quietToDos);
  let todo = null;
  let status = null;
  let deadline = null;
  let hurried = false;
  let ownActionAt = -Infinity;

  function check() {
    if (hurried || todo === null || deadline === null) return;
    const left = deadline - now();
    if (left > 0 && left <= HURRY_SECONDS) {
      hurried = true;
      play("hurry");
    }
  }
  const timer = setInterval(check, 500);

  return {
    /** Call when the player sends an action: the to-do it leads to is no news. */
    acted() {
      ownActionAt = performance.now();
    },
    /** Every game push. `quiet`: take it in without a sound (a reload, a rejoin mid-match:
     * the to-do was already there before this page saw it). */
    update(push, { quiet = false } = {}) {
      const view = push?.view || {};
      const next = push?.room?.status === "playing" ? view.you?.to_do || null : null;
      const news = next !== null && next !== todo && !noNews.has(next);
      const rang = news && !quiet && performance.now() - ownActionAt > OWN_ACTION_GRACE_MS;
      // Your turn says it all; else the moment (a clue, a marker, a reveal, the end), if any.
      const moment = quiet ? null : momentOf(push, soundEvents, status);
      status = push?.room?.status ?? null;
      if (rang) play("turn");
      else if (moment) play(moment);
      const nextDeadline = next !== null && typeof view.deadline === "number" ? view.deadline : null;
      if (nextDeadline !== deadline) {
        // One warning per clock, and only for a clock long enough for "almost up" to be news
        // (a 10-second pause after a reveal is not).
        hurried = nextDeadline === null || nextDeadline - now() <= 2 * HURRY_SECONDS;
      }
      todo = next;
      deadline = nextDeadline;
      // A to-do that comes with little time left: its own beep says it, not two beeps more.
      if (rang && deadline !== null && deadline - now() <= HURRY_SECONDS) hurried = true;
      check();
    },
    stop() {
      clearInterval(timer);
    },
  };
}
