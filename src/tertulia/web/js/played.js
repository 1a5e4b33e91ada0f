// What this browser knows of each game (localStorage), for teaching first-timers (issue 29):
//
// - the games it has played: sent as `played` with create_room and join_room (and the
//   automatic rejoin), so the server never makes a first-timer the first clue giver or artist.
//   A game is added when this browser sees a match of it end while seated in it, as the
//   server counts (a finished how-to card is not a match played);
// - per game, the steps (a view's `you.to_do`) the player has done at least once: until then
//   the step shows one short line of what to do (teach.js).

import { local } from "./prefs.js";

const PLAYED = "tertulia.played";
const LEARNED = "tertulia.learned."; // + game: the to-dos done once

function list(key) {
  const value = local.get(key);
  return Array.isArray(value) ? value.filter((x) => typeof x === "string") : [];
}

/** The games this browser has played a match of to its end. */
export function playedGames() {
  return list(PLAYED);
}

export function hasPlayed(game) {
  return playedGames().includes(game);
}

/** A match of `game` ended while this browser was seated in it. */
export function notePlayed(game) {
  if (!game || hasPlayed(game)) return;
  local.set(PLAYED, [...playedGames(), game]);
}

/** Has the player done step `todo` of `game` at least once? */
export function hasDone(game, todo) {
  return list(LEARNED + game).includes(todo);
}

export function noteDone(game, todo) {
  if (!game || !todo || hasDone(game, todo)) return;
  local.set(LEARNED + game, [...list(LEARNED + game), todo]);
}
