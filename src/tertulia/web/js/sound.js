// Optional sounds (UI.md, "Motion and sound"): a beep and a short buzz when it becomes your
// turn, two low beeps when your time is almost up. Off by default; one switch in the header
// serves every game. The room calls `alerts.update(push)` with every game push: every game's
// view says what this seat has to do (`you.to_do`) and until when (`deadline`), and a game's
// screen module may name the to-dos that are no news (`quietToDos`). Nothing here knows a game.

import { prefs } from "./prefs.js";

const KEY = "sound";
const TURN_HZ = 880;
const HURRY_HZ = 660;
const HURRY_SECONDS = 10; // "time almost up": this much left on a clock you must beat
const OWN_ACTION_GRACE_MS = 1500; // a to-do that follows your own action is your next step, not news

let audio = null;

export function soundOn() {
  return prefs.get(KEY) === "1";
}

export function setSoundOn(on) {
  prefs.set(KEY, on ? "1" : "0");
  if (on) play("turn"); // what it sounds like; also lets the browser start audio (a click)
}

function tone(hz, at, seconds) {
  const osc = audio.createOscillator();
  const gain = audio.createGain();
  osc.frequency.value = hz;
  gain.gain.setValueAtTime(0.001, at);
  gain.gain.exponentialRampToValueAtTime(0.2, at + 0.02);
  gain.gain.exponentialRampToValueAtTime(0.001, at + seconds);
  osc.connect(gain).connect(audio.destination);
  osc.start(at);
  osc.stop(at + seconds + 0.05);
}

/** "turn" or "hurry", if sounds are on. Never throws: sound is a nicety. */
export function play(kind) {
  if (!soundOn()) return;
  try {
    navigator.vibrate?.(kind === "turn" ? 120 : [60, 60, 60]);
  } catch {
    // Vibration refused: fine.
  }
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    if (audio.state === "suspended") audio.resume().catch(() => {});
    const now = audio.currentTime;
    if (kind === "turn") tone(TURN_HZ, now, 0.25);
    else {
      tone(HURRY_HZ, now, 0.12);
      tone(HURRY_HZ, now + 0.2, 0.12);
    }
  } catch {
    // No audio here: the status line and the announcement still say it.
  }
}

/** Turn and hurry alerts for one game screen. `now()` is the server's clock in seconds;
 * `quietToDos`: the game's "carry on" to-dos, which everyone gets while looking at a reveal
 * (its screen module's `quietToDos`, such as Haiclue's "ready"): no beep for those. */
export function createAlerts(now, { quietToDos = [] } = {}) {
  const noNews = new Set(quietToDos);
  let todo = null;
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
      if (rang) play("turn");
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
