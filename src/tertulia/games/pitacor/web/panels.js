// The panels around the board: the clue bar with its countdown, the guesser's preview and
// confirm, the reveal's results, the scoreboard, the turn order, the podium and the past rounds.

import { h, ht, replace, showError, tx } from "../../js/dom.js";
import { onLanguageChange } from "../../js/i18n.js";
import { recapHead } from "../../js/games/_recap.js";
import { paintCountdown } from "../../js/view_helpers.js";
import { createInset } from "./inset.js";
import { markerLegend, miniBoard, recapPainter } from "./recap.js";
import { cellName, inkFor, nameOf, parseCell } from "./util.js";

// ------------------------------------------------------------------ clue bar and clock

export function createClueBar(ctx) {
  const round = h("span", { class: "pc-round muted", id: "pitacor-round" });
  const clues = h("div", { class: "pc-clues", id: "pitacor-clues", "aria-live": "polite" });
  const clockLabel = h("span", { class: "pc-clock-label" });
  const clockTime = h("span", { class: "pc-clock-time" });
  const clock = h("span", { class: "countdown pc-clock", id: "pitacor-clock", role: "timer", hidden: true }, clockLabel, clockTime);
  const overtime = ht("span", { class: "pill pc-overtime", id: "pitacor-overtime", hidden: true }, "game.pitacor.clock.overtime");
  const el = h("div", { class: "pc-bar" }, h("div", { class: "pc-bar-left" }, round, clues), h("div", { class: "pc-bar-right" }, overtime, clock));
  let deadline = null;
  let lastKey = "";

  function tick() {
    return paintCountdown(clock, deadline, ctx.now(), { text: clockTime });
  }

  function update(push) {
    const v = push.view;
    const playing = push.room.status === "playing" && v.phase !== "ended";
    deadline = playing ? v.deadline ?? null : null;
    tx(round, "game.pitacor.round", { round: v.round });
    const key = v.clock === "giver_away" ? "game.pitacor.clock.giver_away" : `game.pitacor.clock.${v.clock}`;
    tx(clockLabel, key, { name: nameOf(push, v.giver) });
    overtime.hidden = !(playing && v.overtime);
    const sig = JSON.stringify([v.clues, v.passed, v.forfeited, v.phase]);
    if (sig !== lastKey) {
      lastKey = sig;
      const items = (v.clues || []).map((clue, i) =>
        h("span", { class: "pc-clue" }, ht("span", { class: "muted" }, i === 0 ? "game.pitacor.clue1" : "game.pitacor.clue2"), " ", h("q", { class: "pc-clue-text" }, clue)),
      );
      if (v.passed) items.push(ht("span", { class: "pill pc-passed" }, "game.pitacor.passed", { multiplier: push.room.settings?.pass_multiplier ?? 2 }));
      else if (v.forfeited) items.push(ht("span", { class: "pill" }, "game.pitacor.forfeited"));
      if (!items.length && v.phase !== "ended") items.push(ht("span", { class: "muted" }, "game.pitacor.no_clue_yet"));
      replace(clues, items);
    }
    return tick();
  }

  return { el, update, tick };
}

// ------------------------------------------------------------------ the guesser's preview

export function createGuessPanel(ctx, { onSelect, onConfirm }) {
  const magnifier = h("div", { class: "pc-magnifier", "aria-hidden": "true" });
  const picked = h("p", { class: "pc-picked", id: "pitacor-picked" });
  const confirm = h("button", { type: "button", class: "primary big", id: "pitacor-confirm" });
  const error = h("p", { class: "field-error", id: "pitacor-guess-error", hidden: true, role: "alert" });
  const hint = h("p", { class: "hint", id: "pitacor-guess-hint" });
  const el = h(
    "section",
    { class: "card pc-guess", id: "pitacor-guess", "aria-labelledby": "pitacor-picked", hidden: true },
    h("div", { class: "pc-guess-row" }, magnifier, h("div", { class: "pc-guess-text" }, picked, confirm, error, hint)),
  );
  confirm.addEventListener("click", () => onConfirm());
  let last = "";

  function paintMagnifier(cell, colours, board) {
    const at = parseCell(cell);
    const parts = [];
    for (let dr = -1; dr <= 1; dr++) {
      for (let dc = -1; dc <= 1; dc++) {
        const r = at[0] + dr;
        const c = at[1] + dc;
        const inside = r >= 0 && r < board.rows && c >= 0 && c < board.cols;
        if (!inside) {
          parts.push(h("span", { class: "pc-mag-cell outside" }));
          continue;
        }
        const hex = colours ? colours[r * board.cols + c] : null;
        const name = cellName(r, c);
        const style = board.show_colours && hex ? `background: ${hex}; color: ${inkFor(hex)}` : null;
        const button = h(
          "button",
          { type: "button", tabindex: -1, class: `pc-mag-cell${dr === 0 && dc === 0 ? " centre" : ""}${board.show_colours ? "" : " hex-only"}`, style },
          board.show_colours ? null : h("span", { class: "pc-mag-hex" }, hex || ""),
        );
        if (dr || dc) button.addEventListener("click", () => onSelect(name));
        parts.push(button);
      }
    }
    replace(magnifier, parts);
  }

  /** `selected` is this tab's selection (local or from the server). */
  function update(push, colours, selected, error_) {
    const v = push.view;
    const guessing = v.phase === "guess1" || v.phase === "guess2";
    const role = v.you?.role;
    el.hidden = !(guessing && role === "guesser");
    if (el.hidden) {
      last = "";
      return;
    }
    const myTurn = v.you?.to_do === "place_marker";
    const confirmed = (v.confirmed || []).includes(ctx.me);
    const mine = (v.markers || []).filter((m) => m.seat === ctx.me && m.guess === (v.phase === "guess2" ? 2 : 1));
    const sig = JSON.stringify([selected, myTurn, confirmed, mine, v.board, colours ? 1 : 0, v.phase]);
    if (error_ !== undefined) showError(error, error_);
    if (sig === last) return;
    last = sig;
    magnifier.hidden = !selected || confirmed;
    if (selected && !confirmed) paintMagnifier(selected, colours, v.board);
    if (confirmed) {
      tx(picked, mine.length ? "game.pitacor.guess.placed" : "game.pitacor.guess.placed_none", { cell: mine[0]?.cell ?? "" });
      confirm.hidden = true;
      tx(hint, "game.pitacor.guess.wait_others");
    } else if (selected) {
      tx(picked, "game.pitacor.guess.selected", { cell: selected });
      confirm.hidden = false;
      confirm.disabled = !myTurn;
      tx(confirm, "game.pitacor.guess.confirm", { cell: selected });
      tx(hint, myTurn ? "game.pitacor.guess.hint_change" : "game.pitacor.guess.not_your_turn");
    } else {
      tx(picked, myTurn ? "game.pitacor.guess.pick" : "game.pitacor.guess.not_your_turn");
      confirm.hidden = true;
      tx(hint, "game.pitacor.guess.hint_keys");
    }
  }

  return { el, update, showError: (err) => showError(error, err) };
}

// ------------------------------------------------------------------ the reveal

export function createReveal(ctx) {
  const title = ht("h2", { id: "pitacor-reveal-title" }, "game.pitacor.reveal.title");
  const target = h("p", { class: "pc-reveal-target", id: "pitacor-reveal-target" });
  const list = h("ol", { class: "pc-points", id: "pitacor-points" });
  const next = ht("button", { type: "button", class: "primary big", id: "pitacor-next", hidden: true }, "game.pitacor.reveal.next");
  // "Ready": I have seen it. Once everyone here has, the next round starts (whoever gives).
  const ready = ht("button", { type: "button", class: "primary big", id: "pitacor-ready", hidden: true }, "game.pitacor.reveal.ready");
  const nextError = h("p", { class: "field-error", hidden: true });
  const nextNote = h("p", { class: "hint", id: "pitacor-next-note" });
  // The target and the markers around it, magnified: the board's cells are too small to
  // read the reveal on a phone.
  const inset = createInset(ctx);
  const el = h(
    "section",
    { class: "card pc-reveal", id: "pitacor-reveal", "aria-labelledby": "pitacor-reveal-title", hidden: true },
    title,
    target,
    h("div", { class: "pc-reveal-body" }, inset.el, list),
    next,
    ready,
    nextError,
    nextNote,
  );
  for (const [button, type] of [[next, "next_round"], [ready, "ready"]]) {
    button.addEventListener("click", async () => {
      button.disabled = true;
      try {
        await ctx.send({ type });
        showError(nextError, null);
      } catch (error) {
        showError(nextError, error);
      } finally {
        button.disabled = false;
      }
    });
  }
  let last = "";

  function update(push, colours) {
    const v = push.view;
    const shown = (v.phase === "reveal" || v.phase === "ended") && Boolean(v.target) && Boolean(v.points);
    el.hidden = !shown;
    inset.update(push, colours);
    if (!shown) {
      last = "";
      return;
    }
    const index = parseCell(v.target);
    const hex = colours && index ? colours[index[0] * v.board.cols + index[1]] : null;
    const sig = JSON.stringify([v.round, v.target, v.points, v.awarded, v.phase, v.you?.to_do, hex, v.board.show_colours]);
    next.hidden = v.you?.to_do !== "next_round";
    ready.hidden = v.you?.to_do !== "ready";
    if (v.phase === "reveal" && v.you?.to_do !== "next_round") {
      const waiting = (v.waiting_for || []).map((id) => nameOf(push, id)).join(", ");
      if (v.you?.to_do === "ready" || !waiting) tx(nextNote, "game.pitacor.reveal.next_by", { name: nameOf(push, v.next_giver) });
      else tx(nextNote, "game.pitacor.reveal.waiting_ready", { names: waiting });
    } else nextNote.textContent = "";
    if (sig === last) return;
    last = sig;
    replace(
      target,
      h("span", { class: "pc-swatch", style: hex ? `background: ${hex}; color: ${inkFor(hex)}` : null }),
      ht("span", {}, "game.pitacor.reveal.target", { cell: v.target }),
      hex ? h("span", { class: "muted pc-hex-note" }, hex) : null,
    );
    const rightAway = push.room.settings?.end_mode === "right_away";
    // `awarded` lists what was actually added; in Right away, those after the winner are absent.
    const rows = Object.entries(v.points).map(([id, points]) => ({ id, points, awarded: v.awarded ? v.awarded[id] ?? 0 : points }));
    const order = (v.players || []).map((p) => p.id);
    rows.sort((a, b) => b.points - a.points || order.indexOf(a.id) - order.indexOf(b.id));
    replace(
      list,
      rows.map((row) =>
        h(
          "li",
          { class: `pc-points-row${row.id === ctx.me ? " is-me" : ""}`, dataset: { player: row.id } },
          ctx.avatar(row.id, nameOf(push, row.id), { size: "sm" }),
          h("span", { class: "name" }, nameOf(push, row.id)),
          row.id === v.giver ? ht("span", { class: "pill" }, "game.pitacor.tag.giver") : null,
          // A guesser whose clock ran out before any marker: say so, not just "+0".
          row.id !== v.giver && !(v.markers || []).some((m) => m.seat === row.id) ? ht("span", { class: "pill pc-no-marker" }, "game.pitacor.reveal.no_marker") : null,
          h("span", { class: "score pc-round-points" }, `+${row.points}`),
          rightAway && row.awarded !== row.points ? ht("span", { class: "pill pc-awarded" }, "game.pitacor.reveal.awarded", { points: row.awarded }) : null,
        ),
      ),
    );
  }

  return { el, update };
}

// ------------------------------------------------------------------ the scoreboard

const WAIT_TAGS = {
  choose: "game.pitacor.tag.choosing",
  clue1: "game.pitacor.tag.writing",
  clue2: "game.pitacor.tag.writing",
  guess1: "game.pitacor.tag.placing",
  guess2: "game.pitacor.tag.placing",
};

export function createScores(ctx) {
  const list = h("ol", { class: "scoreboard pc-scores", id: "scoreboard", "aria-labelledby": "pitacor-scores-title" });
  const el = h("section", { class: "card pc-scores-card", "aria-labelledby": "pitacor-scores-title" }, ht("h2", { id: "pitacor-scores-title" }, "game.scores"), list);

  function update(push) {
    const v = push.view;
    const waiting = new Set(v.waiting_for || []);
    const confirmed = new Set(v.confirmed || []);
    const guessing = v.phase === "guess1" || v.phase === "guess2";
    const revealed = (v.phase === "reveal" || v.phase === "ended") && v.points;
    const players = [...(v.players || [])];
    replace(
      list,
      players.map((p) => {
        const offline = p.online === false;
        const tags = [];
        if (p.id === ctx.me) tags.push(ht("span", { class: "pill you" }, "lobby.you"));
        if (p.id === v.giver && v.phase !== "ended") tags.push(ht("span", { class: "pill pc-giver-tag" }, "game.pitacor.tag.giver"));
        if (p.left) tags.push(ht("span", { class: "pill" }, "game.pitacor.tag.left"));
        else if (offline) tags.push(ht("span", { class: "pill" }, "lobby.offline"));
        if (p.plays_from > v.round && !p.left) tags.push(ht("span", { class: "pill" }, "game.pitacor.tag.next_round"));
        if (guessing && confirmed.has(p.id)) tags.push(ht("span", { class: "pill pc-done" }, "game.pitacor.tag.placed"));
        // What we wait for them to do, not a bare "Waiting" (it read as if the giver waited).
        else if (waiting.has(p.id) && WAIT_TAGS[v.phase]) tags.push(ht("span", { class: "pill waiting" }, WAIT_TAGS[v.phase]));
        const gained = revealed && v.points[p.id] !== undefined ? h("span", { class: "pc-gained" }, `+${v.points[p.id]}`) : null;
        return h(
          "li",
          { class: `score-row${p.id === ctx.me ? " is-me" : ""}${p.left ? " left" : ""}`, dataset: { player: p.id } },
          ctx.avatar(p.id, p.nickname, { offline }),
          // The name first, whole; the tags wrap under it when the line is short (a phone
          // cut "Ana" to "A…" beside "You" and "clues").
          h("span", { class: "pc-who" }, h("span", { class: "name" }, p.nickname), h("span", { class: "pc-tags" }, tags)),
          gained,
          h("span", { class: "score" }, String(p.score)),
        );
      }),
    );
  }

  return { el, update };
}

// ------------------------------------------------------------------ turn order (turns mode)

export function createTurns(ctx) {
  const title = h("h2", { id: "pitacor-turns-title" });
  const list = h("ol", { class: "pc-turns", id: "pitacor-turns" });
  const el = h("section", { class: "card pc-turns-card", "aria-labelledby": "pitacor-turns-title", hidden: true }, title, list);

  function update(push) {
    const v = push.view;
    const order = v.turn_order || [];
    const guessing = v.phase === "guess1" || v.phase === "guess2";
    el.hidden = !(guessing && push.room.settings?.guess_mode === "turns" && order.length);
    if (el.hidden) return;
    tx(title, v.phase === "guess2" ? "game.pitacor.turns.second" : "game.pitacor.turns.first");
    const confirmed = new Set(v.confirmed || []);
    replace(
      list,
      order.map((id, i) =>
        h(
          "li",
          { class: `pc-turn${id === v.turn ? " current" : ""}${confirmed.has(id) ? " done" : ""}`, "aria-current": id === v.turn ? "step" : null },
          h("span", { class: "pc-turn-no" }, String(i + 1)),
          ctx.avatar(id, nameOf(push, id), { size: "sm" }),
          h("span", { class: "name" }, nameOf(push, id)),
          id === v.turn ? ht("span", { class: "pill waiting" }, "game.pitacor.turns.now") : null,
        ),
      ),
    );
  }

  return { el, update };
}

// ------------------------------------------------------------------ the podium

export function createPodium(ctx) {
  const steps = h("div", { class: "pc-podium", id: "pitacor-podium" });
  const rest = h("ol", { class: "podium pc-rest" });
  const reason = h("p", { class: "hint" });
  const el = h("section", { class: "card pc-podium-card podium-card", "aria-labelledby": "podium-title", hidden: true }, ht("h2", { id: "podium-title" }, "game.podium"), reason, steps, rest);
  let last = "";

  function update(push) {
    const ranking = push.view?.ranking;
    el.hidden = !Array.isArray(ranking) || !ranking.length;
    if (el.hidden) return;
    const sig = JSON.stringify([ranking, push.view.end_reason]);
    if (sig === last) return;
    last = sig;
    if (push.view.end_reason) tx(reason, `game.pitacor.end.${push.view.end_reason}`);
    const places = [...new Set(ranking.map((p) => p.place))].sort((a, b) => a - b);
    const top = places.slice(0, 3);
    // Drawn 2nd, 1st, 3rd like a real podium; tied players share their step.
    const layout = top.length === 3 ? [top[1], top[0], top[2]] : top.length === 2 ? [top[1], top[0]] : top;
    replace(
      steps,
      layout.map((place) => {
        const rank = top.indexOf(place) + 1;
        const who = ranking.filter((p) => p.place === place);
        return h(
          "div",
          { class: `pc-step step-${rank}`, dataset: { place } },
          h(
            "ul",
            { class: "pc-step-players" },
            who.map((p) =>
              h(
                "li",
                { class: `podium-row${p.winner ? " winner" : ""}` },
                ctx.avatar(p.seat, p.nickname, { size: rank === 1 ? "lg" : "md" }),
                h("span", { class: "name" }, p.nickname),
                h("span", { class: "score" }, String(p.score)),
                p.winner ? ht("span", { class: "pill win" }, "home.winner") : null,
              ),
            ),
          ),
          h("div", { class: "pc-step-block" }, ht("span", { class: "place" }, "game.pitacor.place", { place })),
        );
      }),
    );
    const others = ranking.filter((p) => !top.includes(p.place));
    rest.hidden = !others.length;
    replace(
      rest,
      others.map((p) =>
        h("li", { class: "podium-row" }, h("span", { class: "place" }, String(p.place)), ctx.avatar(p.seat, p.nickname), h("span", { class: "name" }, p.nickname), h("span", { class: "score" }, String(p.score))),
      ),
    );
  }

  return { el, update };
}

// ------------------------------------------------------------------ past rounds

/** Every finished round, newest first: who gave the clues, the target, the clues, every
 * marker on a small board, and who scored. Folded away while playing (the board needs the
 * room on a phone); open on the podium, where it is the match's recap, with a button that
 * saves it as an image. */
export function createHistory(ctx) {
  const summary = h("summary", { id: "pitacor-history-title" });
  const list = h("ol", { class: "pc-history recap-rounds", id: "pitacor-history", "aria-labelledby": "pitacor-history-title" });
  let current = null; // {push, colours}: what the image is painted from, when asked
  const head = recapHead(ctx, {
    game: "pitacor",
    id: "pitacor-recap",
    downloadKey: "game.pitacor.recap.download",
    failedKey: "game.pitacor.recap.failed",
    paint: (sheet) => recapPainter(ctx, current.push, current.colours)(sheet),
  });
  head.el.hidden = true;
  const el = h("details", { class: "card pc-history-card", id: "pitacor-history-card", hidden: true }, summary, head.el, list);
  let last = "";
  let wasEnded = false;
  // The small boards' words are in their aria-labels, which a language change does not
  // repaint by itself: paint the rounds again.
  const forget = onLanguageChange(() => {
    last = "";
    if (current) update(current.push, current.colours);
  });

  function row(push, r, colours) {
    const v = push.view;
    const index = r.target ? parseCell(r.target) : null;
    const hex = colours && index ? colours[index[0] * v.board.cols + index[1]] : null;
    // What was added to the scores (in Right away, nothing after the winner crossed the goal).
    const scored = Object.entries(r.awarded || r.points || {})
      .filter(([, points]) => points > 0)
      .sort((a, b) => b[1] - a[1]);
    const what = r.void
      ? [ht("span", { class: "muted" }, "game.pitacor.history.void")]
      : r.unfinished && !r.target
        ? [ht("span", { class: "muted" }, "game.pitacor.history.unfinished")]
        : [
          h("span", { class: "pc-swatch", style: hex ? `background: ${hex}; color: ${inkFor(hex)}` : null, "aria-hidden": "true" }),
          h("span", { class: "pc-history-cell" }, r.target ?? "?"),
          ...r.clues.map((clue) => h("q", { class: "pc-history-clue" }, clue)),
          r.passed ? ht("span", { class: "pill pc-passed" }, "game.pitacor.passed", { multiplier: push.room.settings?.pass_multiplier ?? 2 }) : null,
          r.unfinished ? ht("span", { class: "muted" }, "game.pitacor.history.unfinished") : null,
        ];
    const board = r.target && !r.void ? h("div", { class: "pc-recap-board" }, miniBoard(ctx, push, r, colours), markerLegend(ctx, push, r)) : null;
    return h(
      "li",
      { class: "pc-history-round recap-round", dataset: { round: r.round } },
      h(
        "div",
        { class: "pc-history-head" },
        ht("span", { class: "pc-history-no" }, "game.pitacor.round", { round: r.round }),
        ctx.avatar(r.giver, nameOf(push, r.giver), { size: "sm" }),
        h("span", { class: "name" }, nameOf(push, r.giver)),
      ),
      h("div", { class: "pc-history-what" }, what),
      board,
      h(
        "ul",
        { class: "pc-history-points" },
        r.unfinished
          ? null
          : scored.length
          ? scored.map(([id, points]) => h("li", { dataset: { player: id } }, h("span", { class: "name" }, nameOf(push, id)), h("span", { class: "score" }, `+${points}`)))
          : ht("li", { class: "muted" }, "game.pitacor.history.nobody"),
      ),
    );
  }

  function update(push, colours) {
    const v = push.view;
    const rounds = v.history || [];
    el.hidden = !rounds.length;
    const ended = v.phase === "ended";
    if (ended && !wasEnded) el.open = true;
    wasEnded = ended;
    current = { push, colours };
    el.classList.toggle("recap", ended);
    head.el.hidden = !ended;
    if (el.hidden) {
      last = "";
      return;
    }
    const names = rounds.flatMap((r) => [r.giver, ...Object.keys(r.points || {}), ...Object.keys(r.markers || {})]).map((id) => nameOf(push, id));
    const sig = JSON.stringify([rounds, names, Boolean(colours), push.room.settings?.pass_multiplier, ended, v.board]);
    if (sig === last) return;
    last = sig;
    tx(summary, ended ? "game.pitacor.recap.title" : "game.pitacor.history.title", { count: rounds.length });
    replace(list, [...rounds].reverse().map((r) => row(push, r, colours)));
  }

  return { el, update, destroy: forget };
}
