// The generic game view, for a game whose own screen is not written yet: the status line
// from view.you.to_do / view.waiting_for, the scoreboard from view.players, the podium from
// view.ranking. Only what the server sent; no game knowledge and no actions.

import { h, ht, replace, tx } from "../dom.js";
import { has } from "../i18n.js";
import { nicknameOf, paintCountdown } from "../view_helpers.js";

export function mount(element, ctx) {
  const round = h("p", { class: "round muted" });
  const board = h("ol", { class: "scoreboard", id: "scoreboard", "aria-labelledby": "scores-title" });
  const podium = h("section", { class: "card podium-card", "aria-labelledby": "podium-title", hidden: true });
  const clock = h("span", { class: "countdown", role: "timer", hidden: true });
  const scores = h(
    "section",
    { class: "card scores-card", "aria-labelledby": "scores-title" },
    ht("h2", { id: "scores-title" }, "game.scores"),
    h("div", { class: "game-head" }, round, clock),
    board,
  );
  let deadline = null;
  let lastTodo = null;
  const ticker = setInterval(tick, 250);

  function tick() {
    paintCountdown(clock, deadline, ctx.now());
  }
  const note = ht("p", { class: "hint generic-note" }, "game.generic_note");
  element.append(h("div", { class: "generic-game" }, podium, scores, note));

  const name = nicknameOf;

  function status(push) {
    const view = push.view || {};
    const game = push.room.game;
    if (push.room.status === "ended") {
      const winners = (view.ranking || []).filter((p) => p.winner).map((p) => p.nickname);
      if (winners.length) return ctx.setStatus("game.status.winners", { names: winners.join(", "), count: winners.length });
      return ctx.setStatus("game.status.ended");
    }
    const todo = view.you?.to_do;
    const announce = todo && todo !== lastTodo;
    lastTodo = todo || null;
    if (todo) {
      let key = has(`game.${game}.to_do.${todo}`) ? `game.${game}.to_do.${todo}` : `game.to_do.${todo}`;
      if (!has(key)) key = "game.to_do.something";
      if (announce) ctx.announce(key, { action: todo });
      return ctx.setStatus(key, { action: todo });
    }
    const waiting = (view.waiting_for || []).filter((id) => id !== ctx.me);
    if (waiting.length) {
      return ctx.setStatus("game.status.waiting_for", { names: waiting.map((id) => name(push, id)).join(", "), count: waiting.length });
    }
    if (view.you?.role === "spectator") return ctx.setStatus("game.status.spectating");
    return ctx.setStatus("game.status.playing");
  }

  function scoreboard(push) {
    const view = push.view || {};
    const waiting = new Set(view.waiting_for || []);
    const list = Array.isArray(view.players) ? view.players : [];
    if (typeof view.round === "number") tx(round, "game.round", { round: view.round });
    else round.textContent = "";
    replace(
      board,
      list.map((p) => {
        const id = p.id ?? p.seat;
        const offline = p.online === false;
        return h(
          "li",
          { class: `score-row${id === ctx.me ? " is-me" : ""}${p.left ? " left" : ""}` },
          ctx.avatar(id, p.nickname, { offline }),
          h("span", { class: "name" }, p.nickname),
          id === ctx.me ? ht("span", { class: "pill you" }, "lobby.you") : null,
          offline ? ht("span", { class: "pill" }, "lobby.offline") : null,
          waiting.has(id) ? ht("span", { class: "pill waiting" }, "game.waiting_tag") : null,
          h("span", { class: "score" }, p.score === undefined ? "" : String(p.score)),
        );
      }),
    );
  }

  function paintPodium(push) {
    const ranking = push.view?.ranking;
    podium.hidden = !Array.isArray(ranking) || !ranking.length;
    if (podium.hidden) return;
    replace(
      podium,
      ht("h2", { id: "podium-title" }, "game.podium"),
      h(
        "ol",
        { class: "podium" },
        ranking.map((p) =>
          h(
            "li",
            { class: `podium-row place-${Math.min(p.place, 4)}${p.winner ? " winner" : ""}` },
            h("span", { class: "place" }, String(p.place)),
            ctx.avatar(p.seat ?? p.id, p.nickname),
            h("span", { class: "name" }, p.nickname),
            p.winner ? ht("span", { class: "pill win" }, "home.winner") : null,
            h("span", { class: "score" }, String(p.score)),
          ),
        ),
      ),
    );
  }

  return {
    update(push) {
      deadline = push.room.status === "playing" ? push.view?.deadline ?? null : null;
      tick();
      status(push);
      scoreboard(push);
      paintPodium(push);
      if (push.view?.you && typeof push.view.you.may_chat === "boolean") ctx.setChatAllowed(push.view.you.may_chat);
    },
    unmount() {
      clearInterval(ticker);
      ctx.setChatAllowed(true);
    },
  };
}
