// The shared screen's lobby (tv.js): read from across the room, what a newcomer needs to
// join — the room's code, huge, its link and a QR code to scan — and who is here already.
// During a match the same invitation shrinks to a corner (tv.js), so latecomers still can.

import { avatar } from "./avatar.js";
import { gameName, h, ht, replace, tx } from "./dom.js";

/** The room's link without its scheme ("tertulia.example/r/KF7QX"): what one types. */
export function joinLink(code) {
  return `${location.host}/r/${code}`;
}

export function qrImage(code, attrs = {}) {
  return tx(h("img", { src: `/r/${encodeURIComponent(code)}/qr.svg`, class: "tv-qr", ...attrs }), "lobby.qr_alt", { code }, "alt");
}

export function createTvLobby() {
  const codeBox = h("p", { class: "tv-code", id: "tv-code" });
  const link = h("p", { class: "tv-link", id: "tv-link" });
  const qrSlot = h("div", { class: "tv-qr-slot" });
  const game = h("p", { class: "tv-lobby-game", id: "tv-lobby-game" });
  const seatsTitle = h("h2", { id: "tv-seats-title" });
  const seats = h("ul", { class: "tv-seats", id: "tv-seats", "aria-labelledby": "tv-seats-title" });
  const waiting = h("p", { class: "tv-waiting", id: "tv-waiting" });
  const el = h(
    "section",
    { class: "tv-lobby", id: "tv-lobby", "aria-labelledby": "tv-join-title" },
    h(
      "div",
      { class: "tv-join" },
      ht("h1", { id: "tv-join-title", class: "tv-join-title" }, "tv.join_title"),
      qrSlot,
      h("div", { class: "tv-join-words" }, ht("p", { class: "tv-join-how" }, "tv.join_how"), link, ht("p", { class: "tv-code-label" }, "tv.code_label"), codeBox),
    ),
    h("div", { class: "tv-room" }, game, seatsTitle, seats, waiting),
  );
  let shownCode = null;

  function update(push) {
    const room = push.room;
    if (shownCode !== room.code) {
      shownCode = room.code;
      replace(qrSlot, qrImage(room.code, { width: 360, height: 360 }));
      // Read out letter by letter; shown as one big word.
      replace(codeBox, h("span", { "aria-hidden": "true" }, room.code), ht("span", { class: "visually-hidden" }, "room.code_spoken", { code: room.code.split("").join(" ") }));
      link.textContent = joinLink(room.code);
    }
    replace(game, gameName("span", {}, room.game));
    const players = room.seats.filter((s) => !s.spectator);
    tx(seatsTitle, "lobby.players_title", { count: players.length, max: room.max_players });
    replace(
      seats,
      room.seats.map((seat) =>
        h(
          "li",
          { class: `tv-seat${seat.spectator ? " spectator" : ""}`, dataset: { player: seat.id } },
          avatar(seat.id, seat.nickname, { size: "lg", offline: !seat.bot && seat.online === false }),
          h("span", { class: "name" }, seat.nickname),
          seat.spectator ? ht("span", { class: "pill" }, "lobby.spectator") : null,
        ),
      ),
    );
    const host = room.seats.find((s) => s.id === room.host)?.nickname ?? "";
    const missing = Math.max(0, (room.min_players || 0) - players.length);
    if (missing > 0) tx(waiting, "tv.need_players", { count: missing });
    else tx(waiting, "lobby.status.waiting_host", { name: host });
  }

  return { el, update };
}
