// Computer players in the lobby: the host's "Add computer player" (with its level), and for a
// game without them (Pintó) a line that says so. Removing one is a button on its seat
// (lobby.js). The room names a new bot and gives it a colour; the page only asks.

import { h, ht, replace, showError, tx } from "./dom.js";
import { has, language } from "./i18n.js";
import { languageField } from "./room_language.js";

export const LEVELS = ["good", "beginner"];

/**
 * The language a bot of this room speaks (Pitacor's clues): the room's words' language when
 * its game has one (Haiclue's deck), else this page's interface language.
 */
export async function botLanguage(app, room) {
  try {
    const game = (await app.games()).find((g) => g.name === room.game);
    const field = languageField(game);
    if (field) return room.settings?.[field.name] ?? field.default ?? language();
  } catch {
    // The games list did not come: the page's language will do.
  }
  return language();
}

export function createBotAdder(app) {
  const level = h(
    "select",
    { id: "bot-level", name: "bot-level" },
    LEVELS.map((value) => ht("option", { value }, `bot.level.${value}`)),
  );
  const add = ht("button", { type: "button", class: "secondary", id: "add-bot" }, "lobby.add_bot");
  const error = h("p", { class: "field-error", id: "bot-error", hidden: true });
  const hint = ht("p", { class: "hint" }, "lobby.bots_hint");
  const adder = h(
    "div",
    { class: "bot-adder", id: "bot-adder" },
    h("label", { for: "bot-level" }, ht("span", {}, "lobby.bot_level"), level),
    add,
  );
  add.setAttribute("aria-describedby", "bot-error");
  const note = h("p", { class: "hint no-bots", id: "no-bots", hidden: true });
  const el = h("div", { class: "bots-box" }, adder, error, hint, note);
  let room = null;

  add.addEventListener("click", async () => {
    if (!room) return;
    add.disabled = true;
    try {
      const lang = await botLanguage(app, room);
      await app.conn.request("add_bot", { level: level.value, language: lang });
      showError(error, null);
    } catch (refusal) {
      showError(error, refusal);
    } finally {
      add.disabled = isFull(room);
    }
  });
  level.addEventListener("change", () => showError(error, null));

  function isFull(r) {
    return r.seats.filter((s) => !s.spectator).length >= r.max_players;
  }

  function update(next, amHost) {
    room = next;
    const lobby = next.status === "lobby";
    const mayAdd = lobby && amHost && next.bots;
    adder.hidden = !mayAdd;
    hint.hidden = !mayAdd;
    if (!mayAdd) showError(error, null);
    add.disabled = isFull(next);
    // "Pintó has no computer players: drawing is for people" (a game's own words first).
    note.hidden = !lobby || next.bots !== false;
    if (!note.hidden) {
      const own = `games.${next.game}.no_bots`;
      tx(note, has(own) ? own : "lobby.no_bots");
    } else {
      replace(note);
    }
  }

  return { el, update };
}
