// Tiny's screen ("Count to ten"): the counter, whose turn it is, your secret word, and three
// buttons to add 1, 2 or 3. The mount contract is in js/games/index.js; the page loads this
// module, style.css and i18n/<lang>.json beside it (the game's web/ folder) by its name.
//
// It renders the latest push only and keeps no state of its own: the server says what the
// counter is, whose turn it is and whether a move was allowed.

import { h, ht, replace, showError, tx } from "../../js/dom.js";

export function mount(element, ctx) {
  const counter = h("p", { class: "tiny-counter", id: "tiny-counter" });
  const secret = h("p", { class: "hint", id: "tiny-secret" });
  const clock = h("span", { class: "countdown", role: "timer", hidden: true });
  const error = h("p", { class: "field-error", id: "tiny-error", hidden: true });
  const buttons = [1, 2, 3].map((amount) =>
    ht("button", { type: "button", class: "primary", "data-amount": amount, onclick: () => add(amount) }, "game.tiny.add", { amount }),
  );
  const podium = h("ol", { class: "tiny-podium", id: "tiny-podium", hidden: true });
  element.append(h("section", { class: "card tiny" }, counter, clock, secret, h("div", { class: "tiny-buttons" }, ...buttons), error, podium));

  let deadline = null;
  const ticker = setInterval(tick, 250);

  // The countdown comes from the server's deadline, never from when a push arrived.
  function tick() {
    clock.hidden = typeof deadline !== "number";
    if (clock.hidden) return;
    const left = Math.max(0, Math.ceil(deadline - ctx.now()));
    clock.textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
    clock.classList.toggle("urgent", left <= 10);
  }

  async function add(amount) {
    showError(error, null);
    try {
      await ctx.send({ type: "add", amount });
    } catch (refusal) {
      showError(error, refusal); // in the player's language: games.tiny.errors.<code>
    }
  }

  function nickname(view, id) {
    return view.players.find((p) => p.id === id)?.nickname ?? "?";
  }

  return {
    update(push) {
      const view = push.view;
      const ended = push.room.status === "ended";
      deadline = ended ? null : view.deadline;
      tick();
      tx(counter, "game.tiny.counter", { counter: view.counter, target: view.target });
      if (view.secret) tx(secret, "game.tiny.secret", { word: view.secret });
      else replace(secret);
      const mine = view.you.to_do === "add";
      for (const button of buttons) button.disabled = !mine;
      if (ended) ctx.setStatus("game.tiny.won", { name: nickname(view, view.winner) });
      else if (mine) ctx.setStatus("game.tiny.your_turn");
      else ctx.setStatus("game.tiny.their_turn", { name: nickname(view, view.turn) });
      ctx.setChatAllowed(view.you.may_chat, "game.tiny.no_chat");
      podium.hidden = !view.ranking;
      if (view.ranking) {
        replace(podium, ...view.ranking.map((p) => h("li", { class: p.winner ? "winner" : "" }, ctx.avatar(p.seat, p.nickname), h("span", {}, p.nickname))));
      }
    },
    unmount() {
      clearInterval(ticker);
      ctx.setChatAllowed(true);
    },
  };
}
