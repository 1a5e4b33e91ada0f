// "Play for them": during a match, a player who dropped out can have a computer player take
// their seat until they come back (Pitacor and Haiclue). The host sees an offer for each
// such player; everyone sees who is played for. Their own return takes the seat back (the
// server's doing: nothing to press).

import { botGlyph } from "./avatar.js";
import { botLanguage } from "./bot_adder.js";
import { h, ht, replace, showError } from "./dom.js";

export function createStandIns(app) {
  const el = h("div", { class: "stand-ins", id: "stand-ins", "aria-live": "polite" });
  let shown = ""; // what is painted, so a push that changes nothing here keeps focus

  function update(push) {
    const room = push.room;
    const playing = room.status === "playing" && room.bots;
    const amHost = room.host === app.conn.player;
    const away = playing ? room.seats.filter((s) => !s.spectator && !s.bot && !s.online && !s.stand_in) : [];
    const played = playing ? room.seats.filter((s) => s.stand_in) : [];
    const offers = amHost ? away : [];
    const key = JSON.stringify([offers.map((s) => [s.id, s.nickname]), played.map((s) => [s.id, s.nickname])]);
    if (key === shown) return;
    shown = key;
    replace(el, offers.map((seat) => offer(room, seat)), played.map((seat) => playingFor(seat)));
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
        await app.conn.request("stand_in", { player: seat.id, level: "good", language: lang });
      } catch (refusal) {
        showError(error, refusal);
        button.disabled = false;
      }
    });
    return h("div", { class: "card stand-in" }, ht("p", {}, "room.stand_in.offer", { name: seat.nickname }), button, error);
  }

  function playingFor(seat) {
    return h(
      "div",
      { class: "card stand-in is-playing", dataset: { player: seat.id } },
      h("p", {}, h("span", { class: "stand-in-glyph" }, botGlyph()), " ", ht("span", {}, "room.stand_in.playing", { name: seat.nickname })),
    );
  }

  return { el, update };
}
