// The home page's lists of what strangers share: the public rooms, each with the button that
// says what coming in does now, and the recent public matches with their results. Kept fresh
// by the server's "rooms" pushes and by asking every few seconds (`list_rooms`, which also
// says where this player has a seat); the HTTP list shows something before the socket is up.

import { avatar } from "./avatar.js";
import { gameName, h, ht, label, replace } from "./dom.js";
import { language, onLanguageChange } from "./i18n.js";
import { hiddenWords, matchLink } from "./match_page.js";

const REFRESH_MS = 5000;
// A public room's button, by its `joining`: [words, accessible name].
const JOINING = {
  play: ["home.join", "home.join_room_named"],
  next_round: ["home.join_next_round", "home.join_next_round_named"],
  watch: ["home.watch", "home.watch_room_named"],
};

/** The public rooms' and recent matches' cards. `join(code)` is the home page's own join;
 * `onSeated(code)` hears where this player has a seat (null: nowhere). `destroy()` stops
 * listening and asking. */
export function createPublicLists(app, { join, onSeated }) {
  const cleanups = [];
  const roomsList = h("ul", { class: "room-list", id: "public-rooms" });
  const roomsCard = h(
    "section",
    { class: "card rooms-card", "aria-labelledby": "rooms-title" },
    ht("h2", { id: "rooms-title" }, "home.public_rooms"),
    roomsList,
  );
  const recentList = h("ul", { class: "recent-list", id: "recent-matches" });
  const recentCard = h(
    "section",
    { class: "card recent-card", "aria-labelledby": "recent-title" },
    ht("h2", { id: "recent-title" }, "home.recent"),
    recentList,
  );
  let lastList = null;

  function paint(message) {
    lastList = message;
    const rooms = message.rooms || [];
    if (!rooms.length) replace(roomsList, ht("li", { class: "empty" }, "home.no_rooms"));
    else replace(roomsList, rooms.map(roomRow));
    const recent = message.recent || [];
    if (!recent.length) replace(recentList, ht("li", { class: "empty" }, "home.no_recent"));
    else replace(recentList, recent.map(recentRow));
  }

  function roomRow(r) {
    // What coming in does now (the server's `joining`): a seat, a seat from the next round,
    // or watching (a full room, a running Haiclue).
    const full = r.max_players != null && r.players >= r.max_players;
    const joining = JOINING[r.joining] ? r.joining : full ? "watch" : "play";
    return h(
      "li",
      { class: "room-row" },
      h(
        "div",
        { class: "room-info" },
        h("strong", { class: "room-game" }, gameName("span", {}, r.game), " ", h("span", { class: "code" }, r.code)),
        h(
          "span",
          { class: "muted" },
          r.host ? ht("span", {}, "home.hosted_by", { name: r.host }) : null,
          " · ",
          ht("span", {}, "home.player_count", { count: r.players, max: r.max_players }),
          " · ",
          ht("span", { class: `pill status-${r.status}` }, `room.status.${r.status}`),
        ),
      ),
      label(
        ht("button", { type: "button", class: joining === "watch" ? "" : "secondary", dataset: { joining }, onclick: () => join(r.code) }, JOINING[joining][0]),
        JOINING[joining][1],
        { code: r.code },
      ),
    );
  }

  function recentRow(m) {
    const players = [...(m.players || [])].sort((a, b) => (a.place ?? 99) - (b.place ?? 99));
    const words = hiddenWords(players); // a removed player who hid their name
    return h(
      "li",
      { class: "recent-row" },
      h(
        "div",
        { class: "recent-head" },
        gameName("strong", {}, m.game),
        h("span", { class: "muted" }, when(m.ended_at)),
        m.id ? matchLink(m.id, "home.open_match", null, { class: "recent-link" }) : null,
      ),
      h(
        "ol",
        { class: "recent-players" },
        players.map((p) =>
          h(
            "li",
            { class: p.winner ? "winner" : "" },
            avatar(p.id, p.name ?? words.get(p.id), { size: "sm", seatColour: p.colour }),
            h("span", { class: "name" }, p.name ?? words.get(p.id)),
            p.winner ? ht("span", { class: "pill win" }, "home.winner") : null,
            h("span", { class: "score" }, String(p.score)),
          ),
        ),
      ),
    );
  }

  function refresh() {
    if (app.conn.status !== "online") return;
    app.conn.request("list_rooms").then(
      (data) => {
        if (data && Array.isArray(data.rooms)) paint(data);
        if (data && "seated" in data) onSeated(data.seated);
      },
      () => {},
    );
  }
  cleanups.push(app.conn.on("rooms", paint));
  cleanups.push(app.conn.on("ready", refresh));
  const timer = setInterval(refresh, REFRESH_MS);
  cleanups.push(() => clearInterval(timer));
  fetch("/api/rooms")
    .then((r) => (r.ok ? r.json() : null))
    .then((data) => {
      if (data && !lastList) paint(data);
    })
    .catch(() => {});
  replace(roomsList, ht("li", { class: "empty" }, "common.loading"));
  refresh();
  cleanups.push(onLanguageChange(() => lastList && paint(lastList)));

  return {
    roomsCard,
    recentCard,
    destroy() {
      for (const fn of cleanups) fn();
    },
  };
}

/** "3 minutes ago", in the interface's language, from a time in seconds. */
export function when(seconds) {
  if (typeof seconds !== "number") return "";
  const diff = Math.round(seconds - Date.now() / 1000);
  const rtf = new Intl.RelativeTimeFormat(language(), { numeric: "auto" });
  const abs = Math.abs(diff);
  if (abs < 60) return rtf.format(diff, "second");
  if (abs < 3600) return rtf.format(Math.round(diff / 60), "minute");
  if (abs < 86400) return rtf.format(Math.round(diff / 3600), "hour");
  return rtf.format(Math.round(diff / 86400), "day");
}
