// The page of a finished match, /m/<id> (issue 31; docs/protocol.md, "Match pages"): the
// server serves this client's shell there, and this screen asks /api/matches/<id> for the
// match. It shows the final scores in podium order, when and how long, the settings as the
// lobby had them, and the replay (match_replay.js), which opens on the last step: the
// podium with the game's own recap and its "Download image".
//
// A private match's page is reachable only by its link: the page adds a robots "noindex"
// meta (the server sends X-Robots-Tag too, but a crawler that renders a saved copy sees only
// the document) and keeps players' names out of the document's title. A player removed from
// the room who asked to hide their name has no name in the JSON: the page calls them "A
// removed player" ("Removed player 1", "…2" when several), in the reader's language.

import { avatar, setSeats } from "./avatar.js";
import { gameName, h, ht, replace, tx } from "./dom.js";
import { has, language, onLanguageChange, setGameInPlay, t } from "./i18n.js";
import { screenFor } from "./games/index.js";
import { setMatchPage } from "./games/_recap.js";
import { createReplay } from "./match_replay.js";
import { createSettingsForm } from "./settings_form.js";

const NAME_KEYS = new Set(["nickname", "name"]);
const RETRY_MS = 1500;

function cameFromARoom() {
  try {
    const from = new URL(document.referrer);
    return from.origin === location.origin && from.pathname.startsWith("/r/");
  } catch {
    return false;
  }
}

export function mount(main, app, { id }) {
  let destroyed = false;
  let replay = null;
  const cleanups = [];
  const root = h("div", { class: "match-page", id: "match-page" }, ht("p", { class: "loading" }, "common.loading"));
  replace(main, root);
  app.setStatus("match.status_loading");
  setMatchPage(id);
  // Until the match says it is public, the page is treated as private (no names in the title).
  const robots = h("meta", { name: "robots", content: "noindex", dataset: { matchPage: "1" } });
  document.head.append(robots);
  const setTitle = () => (document.title = `${t("match.doc_title")} · ${t("app.title")}`);
  setTitle();
  cleanups.push(onLanguageChange(setTitle));

  load();

  async function load(again = true) {
    let answer;
    try {
      answer = await fetch(`/api/matches/${encodeURIComponent(id)}`);
    } catch {
      return problem("match.offline");
    }
    if (destroyed) return;
    // The match is kept a moment after its podium shows: a page opened from the podium in
    // that moment asks once more (each miss costs a try of the address's room-code budget,
    // so only then).
    if (answer.status === 404 && again && cameFromARoom()) {
      setTimeout(() => load(false), RETRY_MS);
      return;
    }
    if (answer.status === 404) return problem("match.not_kept");
    if (answer.status === 429) return problem("errors.rate.room_codes");
    if (!answer.ok) return problem("match.cannot_show");
    const match = await answer.json();
    if (destroyed) return;
    if (match.public) robots.remove();
    await show(match);
    // A hidden player's words are drawn into the scores and the replay's views: in another
    // language, the page is drawn again (the rest follows by itself, retranslate()).
    if (match.players.some((p) => p.hidden || p.name == null)) {
      cleanups.push(onLanguageChange(() => !destroyed && (replay?.destroy(), show(match))));
    }
  }

  function problem(key) {
    app.setStatus(null);
    replace(
      root,
      h(
        "section",
        { class: "card narrow match-problem", id: "match-problem" },
        ht("h1", {}, "match.problem_title"),
        ht("p", { class: "problem" }, key),
        ht("button", { type: "button", class: "primary", onclick: () => app.navigate("/") }, "room.go_home"),
      ),
    );
  }

  async function show(match) {
    const words = hiddenWords(match.players);
    const players = match.players.map((p) => ({ ...p, shown: p.hidden || p.name == null ? words.get(p.id) : p.name }));
    const seats = players.map((p) => ({ id: p.id, nickname: p.shown, spectator: false, online: true, colour: p.colour, bot: p.bot, host: false }));
    setSeats(`m:${match.id}`, seats);
    setGameInPlay(match.game);
    const games = await app.games().catch(() => []);
    const game = games.find((g) => g.name === match.game);
    if (destroyed) return;
    app.setStatus("match.status", { game: t(`games.${match.game}.name`, {}, match.game) });
    const head = h(
      "header",
      { class: "match-head" },
      h("h1", { id: "match-title" }, ht("span", {}, "match.title", { game: t(`games.${match.game}.name`, {}, match.game) })),
      whenLine(match),
      match.public ? null : ht("p", { class: "hint", id: "match-private" }, "match.private_note"),
    );
    const parts = [head, scoresCard(players), settingsCard(match, game)];
    replace(root, ...parts.filter(Boolean));
    if (!match.replay) {
      root.append(ht("p", { class: "hint", id: "match-no-replay" }, "match.no_replay"));
      return;
    }
    const module = await screenFor(match.game, games);
    if (destroyed) return;
    const placeholders = placeholderNames(match, words);
    const room = (status) => ({
      code: "",
      public: match.public,
      game: match.game,
      status,
      host: null,
      settings: match.settings || {},
      seats,
      bots: false,
      former_colours: {},
      online: seats.map((s) => s.id),
      votes: { allowed: false, running: null },
      match_page: match.id,
    });
    replay = createReplay({ match, module, staticData: game?.static ?? {}, room, rename: (view) => rename(view, placeholders) });
    root.append(replay.el);
  }

  /** "12 March 2026, 18:04 · 23 min · ended: the goal was reached". */
  function whenLine(match) {
    const line = h("p", { class: "match-when muted", id: "match-when" });
    const paint = () => {
      const day = new Intl.DateTimeFormat(language(), { dateStyle: "long", timeStyle: "short" }).format(new Date(match.started_at * 1000));
      const reasonKey = `match.reason.${match.reason}`;
      const bits = [day, duration(match.duration), has(reasonKey) ? t(reasonKey) : null];
      line.textContent = bits.filter(Boolean).join(" · ");
    };
    paint();
    cleanups.push(onLanguageChange(paint));
    return line;
  }

  function scoresCard(players) {
    return h(
      "section",
      { class: "card match-scores-card", "aria-labelledby": "match-scores-title" },
      ht("h2", { id: "match-scores-title" }, "match.scores"),
      h(
        "ol",
        { class: "match-scores", id: "match-scores" },
        players.map((p) =>
          h(
            "li",
            { class: `match-player${p.winner ? " winner" : ""}${p.hidden ? " is-hidden" : ""}`, dataset: { player: p.id } },
            h("span", { class: "match-place" }, String(p.place ?? "")),
            avatar(p.id, p.shown, { size: "sm", seatColour: p.colour }),
            h("span", { class: "name" }, p.shown),
            p.winner ? ht("span", { class: "pill win" }, "home.winner") : null,
            h("span", { class: "score" }, String(p.score ?? "")),
          ),
        ),
      ),
    );
  }

  function settingsCard(match, game) {
    if (!match.settings || !game?.settings_schema) return null;
    const form = createSettingsForm({ schema: game.settings_schema, values: match.settings, isHost: false, idPrefix: "match-setting", send: () => Promise.resolve(), restore: () => Promise.resolve() });
    form.update(match.settings, false);
    return h(
      "details",
      { class: "card match-settings", id: "match-settings" },
      ht("summary", {}, "match.settings"),
      form.el,
    );
  }

  return {
    unmount() {
      destroyed = true;
      replay?.destroy();
      robots.remove();
      setMatchPage(null);
      setGameInPlay(null);
      for (const fn of cleanups) fn();
      document.title = t("app.title");
    },
  };
}

/** Each hidden player's words: "A removed player", or numbered when there are several. */
export function hiddenWords(players) {
  const hidden = players.filter((p) => p.hidden || p.name == null);
  const words = new Map();
  hidden.forEach((p, i) => words.set(p.id, hidden.length === 1 ? t("match.removed_player") : t("match.removed_player_n", { n: i + 1 })));
  return words;
}

/** The placeholder nicknames the views give hidden players ("?1"), mapped to the page's words:
 * found beside the player's id in the first and last views. */
function placeholderNames(match, words) {
  const found = new Map();
  const visit = (node) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== "object") return;
    const who = node.id ?? node.seat ?? node.player;
    if (words.has(who)) for (const key of NAME_KEYS) if (typeof node[key] === "string") found.set(node[key], words.get(who));
    Object.values(node).forEach(visit);
  };
  visit(match.replay?.start);
  visit(match.recap);
  return found;
}

/** `view` with every placeholder nickname replaced by the page's words (a new object). */
function rename(view, placeholders) {
  if (!placeholders.size) return view;
  const walk = (node) => {
    if (Array.isArray(node)) return node.map(walk);
    if (!node || typeof node !== "object") return node;
    const out = {};
    for (const [key, value] of Object.entries(node)) {
      out[key] = NAME_KEYS.has(key) && typeof value === "string" && placeholders.has(value) ? placeholders.get(value) : walk(value);
    }
    return out;
  };
  return walk(view);
}

/** "45 s", "23 min", "1 h 05 min". */
function duration(seconds) {
  if (typeof seconds !== "number") return null;
  if (seconds < 60) return t("match.seconds", { count: Math.max(1, Math.round(seconds)) });
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return t("match.minutes", { count: minutes });
  return t("match.hours", { hours: Math.floor(minutes / 60), minutes: String(minutes % 60).padStart(2, "0") });
}

/** An anchor to a match's page. */
export function matchLink(id, key, params = null, attrs = {}) {
  return tx(h("a", { href: `/m/${encodeURIComponent(id)}`, ...attrs }), key, params);
}
