// "Your matches" on the home page (issue 31.4): the finished matches this browser's player
// played, private ones too, newest first, each with its result and a link to its page
// (/m/<id>). Only the browser's own identity may list them, so they come over the WebSocket
// (`my_matches`, docs/protocol.md), asked once the connection is ready; "Show older" asks for
// the next ones (`before`: the last one's end).

import { avatar } from "./avatar.js";
import { gameName, h, ht, replace, showError } from "./dom.js";
import { onLanguageChange } from "./i18n.js";
import { hiddenWords } from "./match_page.js";

const PAGE = 20;

export function createMyMatches(app, when) {
  const list = h("ul", { class: "my-matches", id: "my-matches" });
  const more = ht("button", { type: "button", class: "ghost", id: "my-matches-more", hidden: true }, "home.my_matches_more");
  const error = h("p", { class: "field-error", hidden: true });
  const el = h(
    "section",
    { class: "card my-matches-card", id: "my-matches-card", "aria-labelledby": "my-matches-title", hidden: true },
    ht("h2", { id: "my-matches-title" }, "home.my_matches"),
    list,
    more,
    error,
  );
  let matches = [];

  async function ask(before = null) {
    try {
      const data = await app.conn.request("my_matches", { limit: PAGE, before });
      const got = data?.matches || [];
      matches = before === null ? got : [...matches, ...got];
      more.hidden = got.length < PAGE;
      showError(error, null);
      paint();
    } catch (refusal) {
      showError(error, refusal);
    }
  }

  function paint() {
    // A browser that never finished a match has nothing to show: the card stays away.
    el.hidden = !matches.length;
    replace(list, matches.map(row));
  }

  function row(m) {
    const you = m.you || {};
    const players = [...(m.players || [])].sort((a, b) => (a.place ?? 99) - (b.place ?? 99));
    const words = hiddenWords(players);
    const result = you.winner
      ? ht("span", { class: "pill win" }, "home.my_result_won")
      : ht("span", { class: "my-result" }, "home.my_result_place", { place: you.place ?? "?", count: players.length });
    return h(
      "li",
      { class: "my-match", dataset: { match: m.id } },
      h(
        "a",
        { href: `/m/${encodeURIComponent(m.id)}`, class: "my-match-link" },
        h("span", { class: "my-match-head" }, gameName("strong", {}, m.game), " ", h("span", { class: "muted" }, when(m.ended_at))),
        h("span", { class: "my-match-result" }, result, " ", ht("span", { class: "score" }, "home.my_score", { count: you.score ?? 0 })),
      ),
      h(
        "span",
        { class: "my-match-players" },
        players.map((p) => h("span", { class: "my-match-player" }, avatar(p.id, p.name ?? words.get(p.id), { size: "sm", seatColour: p.colour }), " ", p.name ?? words.get(p.id))),
      ),
    );
  }

  more.addEventListener("click", () => ask(matches.at(-1)?.ended_at ?? null));
  const offReady = app.conn.on("ready", () => ask());
  if (app.conn.status === "online") ask(); // else "ready" will
  const offLanguage = onLanguageChange(paint);

  return {
    el,
    destroy() {
      offReady();
      offLanguage();
    },
  };
}
