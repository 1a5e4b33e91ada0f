// "Play for them": during a match, a player who dropped out can have a computer player take
// their seat until they come back (Pitacor and Haiclue). The host sees an offer for each
// such player; everyone sees who is played for. Their own return takes the seat back (the
// server's doing: nothing to press); the host may also end a stand-in by hand ("Stop playing
// for X"): the seat then waits for them, as after their drop.

import { botGlyph } from "./avatar.js";
import { botLanguage, LEVELS } from "./bot_adder.js";
import { h, ht, replace, showError } from "./dom.js";

export function createStandIns(app) {
  const el = h("div", { class: "stand-ins", id: "stand-ins", "aria-live": "polite" });
  let shown = ""; // what is painted, so a push that changes nothing here keeps focus
  // The host's choice of how well the computer player plays for them (issue 32.6): one
  // choice for every offer, kept while the page is open.
  const level = h("select", { id: "stand-in-level" }, LEVELS.map((value) => ht("option", { value }, `bot.level.${value}`)));
  const levelBox = h("label", { class: "stand-in-level", for: "stand-in-level" }, ht("span", {}, "room.stand_in.level"), level);

  function update(push) {
    const room = push.room;
    const playing = room.status === "playing" && room.bots;
    const amHost = room.host === app.conn.player;
    const away = playing ? room.seats.filter((s) => !s.spectator && !s.bot && !s.online && !s.stand_in) : [];
    const played = playing ? room.seats.filter((s) => s.stand_in) : [];
    const offers = amHost ? away : [];
    const key = JSON.stringify([amHost, offers.map((s) => [s.id, s.nickname]), played.map((s) => [s.id, s.nickname])]);
    if (key === shown) return;
    shown = key;
    replace(el, offers.length ? levelBox : null, offers.map((seat) => offer(room, seat)), played.map((seat) => playingFor(seat, amHost)));
  }

  function offer(room, seat) {
    const error = h("p", { class: "field-error", hidden: true });
    const button = ht("button", { type: "button", class: "secondary stand-in-button", dataset: { player: seat.id } }, "room.stand_in.button", {
      name: seat.nickname,
    });
    button.addEventListener("click", async () => {
      button.disabled = true;
      try {
        const lang = await botLanguage(app, room);
        await app.conn.request("stand_in", { player: seat.id, level: level.value, language: lang });
      } catch (refusal) {
        showError(error, refusal);
        button.disabled = false;
      }
    });
    return h("div", { class: "card stand-in" }, ht("p", {}, "room.stand_in.offer", { name: seat.nickname }), button, error);
  }

  /** "A computer player plays for X", and for the host the way to end it ("Stop playing for
   * X") in the same card: the button belongs to the card it ends, and on a phone it wraps
   * under the sentence rather than floating on a row of its own. */
  function playingFor(seat, amHost) {
    return h(
      "div",
      { class: "card stand-in is-playing", dataset: { player: seat.id } },
      h("p", {}, h("span", { class: "stand-in-glyph" }, botGlyph()), " ", ht("span", {}, "room.stand_in.playing", { name: seat.nickname })),
      amHost ? endControls(seat) : null,
    );
  }

  /** The host's "Stop playing for X" and its error slot: the seat waits for its player again. */
  function endControls(seat) {
    const error = h("p", { class: "field-error", hidden: true });
    const button = ht("button", { type: "button", class: "secondary stand-in-end", dataset: { player: seat.id } }, "room.stand_in.end", {
      name: seat.nickname,
    });
    button.addEventListener("click", async () => {
      button.disabled = true;
      try {
        await app.conn.request("end_stand_in", { player: seat.id });
      } catch (refusal) {
        showError(error, refusal);
        button.disabled = false;
      }
    });
    return [button, error];
  }

  return { el, update };
}
