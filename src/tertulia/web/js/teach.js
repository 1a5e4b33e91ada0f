// One short line of what to do now, right above the game, for a step (a view's
// `you.to_do`) this browser has never done in this game (issue 29, teaching first-timers):
// "Tap the board to zoom in, tap a cell, then Confirm." It goes once the player has done that
// step once: they acted while it was their to-do and the to-do then moved on (kept per game in
// localStorage, played.js). A game words its lines as "game.<game>.teach.<to_do>" in its own
// strings; a to-do without one shows nothing.

import { tx } from "./dom.js";
import { has } from "./i18n.js";
import { hasDone, noteDone } from "./played.js";

export function createTeacher(tip) {
  let game = null;
  let todo = null;
  let acted = null; // the to-do the player acted on, done once it moves on

  function paint() {
    const key = game && todo ? `game.${game}.teach.${todo}` : null;
    const show = Boolean(key) && has(key) && !hasDone(game, todo);
    tip.hidden = !show;
    if (show) tx(tip, key);
  }

  return {
    /** Every game push (null: no game on screen). */
    update(push) {
      const playing = push?.room?.status === "playing";
      const next = playing ? push.view?.you?.to_do || null : null;
      game = push?.room?.game ?? null;
      if (acted && next !== acted) noteDone(game, acted);
      if (next !== todo) acted = null;
      todo = next;
      paint();
    },
    /** The player's own action was accepted while `todo` was theirs. */
    acted() {
      if (todo) acted = todo;
    },
    /** The language changed, or the lines of a game arrived. */
    refresh: paint,
    stop() {
      game = null;
      todo = null;
      paint();
    },
  };
}
