// "Play now" on the home page: a private room of one's own with computer players, its match
// started at once, one button for each game that has bots (its QUICK_PLAY in /api/games).

import { h, ht, replace, showError } from "./dom.js";
import { has, language, t } from "./i18n.js";
import { hasCard, openCard, wasMet } from "./howto.js";
import { hasPlayed, playedGames } from "./played.js";
import { useMyLanguage } from "./room_language.js";

/** The "Play now" card. `nickname` is the home page's nickname field: `current()` reads it,
 * `missing(slot)` says so beside it when it is empty, and `refuse(error, slot)` shows a
 * refusal where it belongs. `paint(games)` draws the buttons once the games are known. */
export function createQuickPlay(app, nickname) {
  const quickError = h("p", { class: "field-error", id: "quick-error", hidden: true });
  const quickButtons = h("div", { class: "quick-buttons" });
  const el = h(
    "section",
    { class: "card quick-card", "aria-labelledby": "quick-title", hidden: true },
    ht("h2", { id: "quick-title" }, "home.quick_title"),
    ht("p", { class: "hint" }, "home.quick_hint"),
    quickButtons,
    quickError,
  );

  function paint(games) {
    const withBots = games.filter((g) => g.bots);
    el.hidden = !withBots.length;
    replace(
      quickButtons,
      withBots.map((game) => {
        const button = ht("button", { type: "button", class: "primary", id: `quick-${game.name}` }, "home.quick_play", {
          game: has(`games.${game.name}.name`) ? t(`games.${game.name}.name`) : game.name,
        });
        button.addEventListener("click", () => playNow(game));
        return button;
      }),
    );
  }

  async function playNow(game) {
    showError(quickError, null);
    if (nickname.missing(quickError)) return;
    // How many bots sit with you and the settings of a short first match: the game's own
    // choice (its QUICK_PLAY, in /api/games).
    const quick = game.quick_play;
    // A first-timer reads the rules first: the match starts at once, and its clocks with it.
    if (!hasPlayed(game.name) && !wasMet(game.name) && hasCard(game)) await openCard(game.name);
    for (const b of quickButtons.querySelectorAll("button")) b.disabled = true;
    try {
      const data = await app.conn.request("create_room", { game: game.name, nickname: nickname.current(), public: false, played: playedGames() });
      const code = data?.room || app.push?.room?.code;
      app.conn.room = { code, nickname: nickname.current() };
      await useMyLanguage(app.conn, game, game.defaults);
      if (Object.keys(quick.settings).length) await app.conn.request("update_settings", { settings: quick.settings });
      for (let i = 0; i < quick.bots; i++) await app.conn.request("add_bot", { level: "good", language: language() });
      await app.conn.request("start_match");
      app.navigate(`/r/${code}`);
    } catch (error) {
      nickname.refuse(error, quickError);
    } finally {
      for (const b of quickButtons.querySelectorAll("button")) b.disabled = false;
    }
  }

  return { el, paint };
}
