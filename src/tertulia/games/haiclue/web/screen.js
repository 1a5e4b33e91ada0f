// Haiclue's screen. Everyone builds a clue from their own word tiles at once, then the clues are
// read one by one; everyone but the author guesses which of the four target words it points
// at; the reveal shows the guesses, the author's card and the points.
//
// Renders the latest push only (the view of views.py); the one local state is the clue being
// built (builder.js), which the server keeps as this player's draft. Cards: this seat's own
// card comes in view.card while secret; another player's card is only ever drawn from a scored
// result (view.results), never before.

import { bringIntoView, h, ht, replace, showError, tx } from "../../js/dom.js";
import { createBuilder } from "./builder.js";
import { createRecap } from "./recap.js";
import { clueTiles, currentResult, paintHistory, paintPlayers, resultRows, targetWord, waitingFor } from "./panels.js";
import { paintCountdown } from "../../js/view_helpers.js";
import { colourChip, keepFocus, paintMeter, paintPodium, paintTargets } from "./parts.js";

// Sounds (sound.js): "ready" comes to everyone looking at a reveal; carrying on, not news, so
// no beep.
export const quietToDos = ["ready"];
// The table's moments that make a sound (sound.js): a clue read out, a guess, its reveal.
export const soundEvents = { "clue.read": "clue", "guess.made": "land", "clue.scored": "reveal" };

// The line at the top while this seat has something to do (view.you.to_do), as a table:
// (view, nick, me) → [i18n key, params]. The end, watching, and waiting (status()) are the rest.
const TO_DO_STATUS = {
  build_clue: (v) => ["game.haiclue.status.build", { word: targetWord(v, v.card) }],
  guess: (v, nick) => ["game.haiclue.status.guess", { name: nick(v.reading?.author) }],
  ready: (v, nick, me) => [v.reading?.author === me ? "game.haiclue.status.ready_yours" : "game.haiclue.status.ready", { name: nick(v.reading?.author) }],
};

export function mount(element, ctx) {
  const roundText = h("p", { class: "hc-round", id: "hc-round" });
  const sideBadge = h("span", { class: "hc-side-badge", id: "hc-side" });
  const clockLabel = h("span", { class: "hc-clock-label" });
  const clock = h("span", { class: "countdown", role: "timer", id: "hc-clock" });
  const clockBox = h("span", { class: "hc-clock", hidden: true }, clockLabel, clock);
  const head = h("div", { class: "hc-head" }, h("div", { class: "hc-head-text" }, roundText, sideBadge), clockBox);
  const flash = h("div", { class: "hc-flash", id: "hc-flash", role: "status", hidden: true });

  const endBox = h("section", { class: "card hc-end", id: "hc-end", hidden: true, "aria-labelledby": "hc-end-title" });
  const meterBox = h("section", { class: "card hc-coop", id: "hc-coop", hidden: true, "aria-labelledby": "hc-meter-title" });
  const readingBox = h("section", { class: "card hc-reading", id: "hc-reading", hidden: true, "aria-labelledby": "hc-reading-title" });
  const targetsPrompt = h("p", { class: "hc-prompt", id: "hc-prompt" });
  const targetsList = h("ul", { class: "hc-targets", id: "hc-targets", "aria-labelledby": "hc-targets-title" });
  const guessError = h("p", { class: "field-error", id: "hc-guess-error", hidden: true });
  const targetsCard = h(
    "section",
    { class: "card hc-targets-card", "aria-labelledby": "hc-targets-title" },
    ht("h2", { id: "hc-targets-title" }, "game.haiclue.targets.title"),
    targetsPrompt,
    targetsList,
    guessError,
  );
  const builder = createBuilder(ctx);
  const doneBox = h("section", { class: "card hc-done", id: "hc-done", hidden: true, "aria-labelledby": "hc-done-title" });
  const revealBox = h("section", { class: "card hc-reveal", id: "hc-reveal", hidden: true, "aria-labelledby": "hc-reveal-title" });
  const readyError = h("p", { class: "field-error", id: "hc-ready-error", hidden: true });
  const playersList = h("ol", { class: "hc-players", id: "hc-players", "aria-labelledby": "hc-players-title" });
  const playersBox = h(
    "section",
    { class: "card hc-players-card", "aria-labelledby": "hc-players-title" },
    ht("h2", { id: "hc-players-title" }, "game.haiclue.players.title"),
    playersList,
  );
  const historyBox = h("section", { class: "card hc-history", id: "hc-history", hidden: true, "aria-labelledby": "hc-history-title" });

  // The end: every round of the match, downloadable as an image.
  const recap = createRecap(ctx);
  const main = h("div", { class: "hc-main" }, endBox, meterBox, recap.el, readingBox, targetsCard, builder.el, doneBox, revealBox);
  const side = h("div", { class: "hc-side" }, playersBox, historyBox);
  const columns = h("div", { class: "hc-columns" }, main, side);
  const root = h("div", { class: "haiclue", id: "haiclue" }, head, flash, columns);
  element.append(root);

  let push = null;
  let prev = null; // the view painted before, to notice flips, passes and reveals
  let flashInfo = null; // {round, kind, from}
  let guessing = null; // the colour being sent
  let lastStatusKey = null;
  let readyBusy = false;
  let readingSignature = null;
  let podiumSignature = null;
  const ticker = setInterval(tick, 250);

  // ---------------------------------------------------------------- helpers
  const view = () => push?.view || {};
  function nick(id) {
    return view().players?.find((p) => p.id === id)?.nickname ?? push?.room?.seats?.find((s) => s.id === id)?.nickname ?? "?";
  }
  function names(ids) {
    return ids.map(nick).join(", ");
  }

  // ---------------------------------------------------------------- clock
  function tick() {
    const v = view();
    const deadline = push?.room?.status === "playing" ? v.deadline : null;
    paintCountdown(clock, deadline, ctx.now(), { box: clockBox });
  }

  // ---------------------------------------------------------------- head, flash
  function paintHead(v, ended) {
    sideBadge.hidden = ended;
    if (ended) return void tx(roundText, "game.haiclue.rounds_played", { count: v.total_rounds });
    tx(roundText, "game.haiclue.round", { round: v.round, total: v.total_rounds });
    tx(sideBadge, `game.haiclue.side.${v.side}`);
    sideBadge.className = `hc-side-badge side-${v.side}`;
    if (v.clock && v.clock !== "none") tx(clockLabel, `game.haiclue.clock.${v.clock}`);
  }

  /** Notice a flip (white→black) or a flip and pass (black→white, new round) since `prev`. */
  function noticeTurnover(v) {
    if (!prev || v.phase === "ended" || prev.round === v.round) return null;
    if (prev.side === "white" && v.side === "black") return { round: v.round, kind: "flip" };
    if (prev.side === "black" && v.side === "white") {
      const seated = (v.players || []).filter((p) => !p.left);
      const i = seated.findIndex((p) => p.id === ctx.me);
      const from = i >= 0 && seated.length > 1 ? seated[(i - 1 + seated.length) % seated.length] : null;
      const to = i >= 0 && seated.length > 1 ? seated[(i + 1) % seated.length] : null;
      return { round: v.round, kind: "pass", from: from?.nickname ?? "", to: to?.nickname ?? "", swap: seated.length === 2 };
    }
    return null;
  }

  function flashKey(info) {
    if (info.kind === "flip") return "game.haiclue.flash.flip";
    return info.swap ? "game.haiclue.flash.swap" : "game.haiclue.flash.pass";
  }

  function paintFlash(v) {
    const show = flashInfo && flashInfo.round === v.round && v.phase === "build";
    flash.hidden = !show;
    if (!show) return;
    flash.className = `hc-flash kind-${flashInfo.kind}`;
    replace(flash, ht("span", {}, flashKey(flashInfo), { from: flashInfo.from, to: flashInfo.to, round: v.round }));
  }

  // ---------------------------------------------------------------- reading, guessing, reveal
  function paintReading(v) {
    const reading = v.reading;
    readingBox.hidden = !reading || !["guess", "reveal"].includes(v.phase);
    if (readingBox.hidden) {
      readingSignature = null;
      return void replace(readingBox);
    }
    const mine = reading.author === ctx.me;
    const result = currentResult(v);
    const signature = JSON.stringify([v.round, v.phase, reading, v.guessed, result, nick(reading.author)]);
    if (signature === readingSignature) return;
    readingSignature = signature;
    const parts = [
      h(
        "div",
        { class: "hc-reading-head" },
        ctx.avatar(reading.author, nick(reading.author)),
        h(
          "div",
          {},
          ht("h2", { id: "hc-reading-title" }, mine ? "game.haiclue.reading.yours" : "game.haiclue.reading.title", { name: nick(reading.author) }),
          ht("p", { class: "muted hc-reading-index" }, "game.haiclue.reading.index", { index: reading.index + 1, of: reading.of }),
        ),
      ),
      clueTiles(reading.words, v.side, { id: "hc-read-clue", dataset: { author: reading.author } }),
    ];
    if (v.phase === "guess") {
      const guessed = v.guessed || [];
      const guessers = (v.players || []).filter((p) => !p.left && p.id !== reading.author);
      if (mine) parts.push(ht("p", { class: "hc-note hc-author-note", id: "hc-author-note" }, "game.haiclue.guess.author_note"));
      parts.push(
        h(
          "div",
          { class: "hc-guessed", id: "hc-guessed" },
          ht("span", { class: "muted" }, "game.haiclue.guess.progress", { done: guessed.length, count: guessers.length }),
          h("span", { class: "hc-avatars" }, guessers.map((p) => h("span", { class: `hc-mini${guessed.includes(p.id) ? " done" : ""}`, title: p.nickname }, ctx.avatar(p.id, p.nickname, { size: "sm", offline: !guessed.includes(p.id) })))),
        ),
      );
    } else if (result) {
      const right = Object.values(result.guesses).filter((c) => c === result.card).length;
      parts.push(
        h(
          "p",
          { class: "hc-card-line", id: "hc-card-line", dataset: { cardOf: result.author, colour: result.card } },
          ht("span", {}, result.author === ctx.me ? "game.haiclue.reveal.card_line_yours" : "game.haiclue.reveal.card_line", { name: nick(result.author), word: targetWord(v, result.card) }),
          " ",
          colourChip(result.card),
        ),
        ht("p", { class: "hc-right-count" }, "game.haiclue.reveal.right", { count: right }),
      );
    }
    replace(readingBox, parts);
    // A new clue is read: bring it into view if it is off screen (a phone scrolled to its rack).
    if (v.phase === "guess" && prev && (prev.phase !== "guess" || prev.reading?.index !== reading.index)) {
      const top = readingBox.getBoundingClientRect().top;
      if (top < 0 || top > window.innerHeight * 0.6) {
        const smooth = !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
        readingBox.scrollIntoView({ block: "start", behavior: smooth ? "smooth" : "auto" });
      }
    }
  }

  async function pick(colour) {
    if (guessing) return;
    guessing = colour;
    showError(guessError, null);
    render();
    try {
      await ctx.send({ type: "guess", colour });
    } catch (error) {
      showError(guessError, error);
    } finally {
      guessing = null;
      render();
    }
  }

  function paintTargetsCard(v, anim) {
    const result = currentResult(v);
    const canGuess = v.phase === "guess" && v.you?.to_do === "guess" && !guessing;
    const guesses = {};
    if (result) {
      for (const [seat, colour] of Object.entries(result.guesses)) (guesses[colour] ||= []).push({ id: seat, nickname: nick(seat) });
    }
    keepFocus(targetsCard, () =>
      paintTargets(targetsList, ctx, v.targets || [], {
        mine: v.card,
        // Guessing someone else's clue, your card is only a reminder: it must not look like
        // the answer you chose (that is "Your guess").
        mineQuiet: v.phase !== "build" && v.reading?.author !== ctx.me,
        card: result ? { colour: result.card, author: result.author, name: nick(result.author) } : null,
        guesses,
        myGuess: v.phase === "guess" ? (v.my_guess ?? guessing) : null,
        pick: canGuess ? pick : null,
        side: v.side,
        anim,
      }),
    );
    targetsList.classList.toggle("picking", canGuess);
    let prompt = null;
    if (v.phase === "build" && v.card) prompt = ["game.haiclue.targets.your_card", { word: targetWord(v, v.card) }];
    else if (canGuess) prompt = ["game.haiclue.guess.prompt", { name: nick(v.reading?.author) }];
    else if (v.phase === "guess" && v.my_guess) prompt = ["game.haiclue.guess.picked", { word: targetWord(v, v.my_guess) }];
    targetsPrompt.hidden = !prompt;
    if (prompt) tx(targetsPrompt, prompt[0], prompt[1]);
    if (v.phase !== "guess") showError(guessError, null);
  }

  function paintReveal(v) {
    const result = currentResult(v);
    revealBox.hidden = !result;
    if (!result) return void replace(revealBox);
    const rows = resultRows(ctx, v, result);
    const iAmReady = (v.ready || []).includes(ctx.me);
    const last = v.reading && v.reading.index + 1 >= v.reading.of;
    const finalRound = v.round >= v.total_rounds;
    const readyKey = !last ? "game.haiclue.reveal.ready_next_clue" : finalRound ? "game.haiclue.reveal.ready_end" : "game.haiclue.reveal.ready_next_round";
    const playing = v.you?.role === "player";
    const button = ht("button", { type: "button", class: "primary big", id: "hc-ready", disabled: iAmReady || readyBusy || !playing }, iAmReady ? "game.haiclue.reveal.ready_done" : readyKey);
    button.dataset.focus = "ready";
    button.addEventListener("click", async () => {
      readyBusy = true;
      button.disabled = true;
      try {
        await ctx.send({ type: "ready" });
        showError(readyError, null);
      } catch (error) {
        showError(readyError, error);
      } finally {
        readyBusy = false;
        render();
      }
    });
    const waiting = waitingFor(v).filter((id) => id !== ctx.me);
    keepFocus(revealBox, () =>
      replace(
        revealBox,
        ht("h2", { id: "hc-reveal-title" }, v.cooperative ? "game.haiclue.reveal.team_title" : "game.haiclue.reveal.title", { count: v.cooperative ? (result.points.team ?? 0) : 0 }),
        h("ol", { class: "hc-results", id: "hc-results" }, rows),
        playing ? button : null,
        readyError,
        waiting.length ? ht("p", { class: "hint", id: "hc-ready-waiting" }, "game.haiclue.waiting_for", { names: names(waiting), count: waiting.length }) : null,
      ),
    );
  }

  function paintDone(v) {
    const show = v.phase === "build" && (v.my_clue || v.you?.role !== "player");
    doneBox.hidden = !show;
    if (!show) return void replace(doneBox);
    const waiting = waitingFor(v);
    replace(
      doneBox,
      ht("h2", { id: "hc-done-title" }, v.my_clue ? "game.haiclue.done.title" : "game.haiclue.done.spectator_title"),
      v.my_clue ? clueTiles(v.my_clue, v.side, { id: "hc-my-clue" }) : null,
      v.my_clue ? ht("p", { class: "hint" }, "game.haiclue.done.final") : null,
      waiting.length ? ht("p", { class: "hc-note", id: "hc-done-waiting" }, "game.haiclue.done.waiting", { names: names(waiting), count: waiting.length }) : null,
    );
  }

  // ---------------------------------------------------------------- players, history, end
  // ---------------------------------------------------------------- status and announcements
  function status(v, turnover) {
    const waiting = waitingFor(v).filter((id) => id !== ctx.me);
    const todo = v.you?.to_do;
    const author = v.reading?.author;
    let key;
    let params = {};
    if (push.room.status === "ended" || v.phase === "ended") {
      if (v.cooperative) {
        key = v.team_score >= v.team_perfect ? "game.haiclue.status.team_perfect" : v.team_score >= v.team_goal ? "game.haiclue.status.team_won" : "game.haiclue.status.team_lost";
        params = { score: v.team_score, goal: v.team_goal };
      } else {
        const winners = (v.ranking || []).filter((p) => p.winner).map((p) => p.nickname);
        key = "game.haiclue.status.winners";
        params = { names: winners.join(", "), count: winners.length };
      }
    } else if (v.you?.role !== "player") {
      // The shared screen says what the table is doing, not "you're watching".
      key = `game.haiclue.status.${ctx.screen ? "screen" : "watching"}_${v.phase}`;
      params = { name: nick(author) };
    } else if (todo && TO_DO_STATUS[todo]) {
      [key, params] = TO_DO_STATUS[todo](v, nick, ctx.me);
    } else {
      // Nothing to do: waiting for the others (the author of the clue being guessed, too).
      key = v.phase === "guess" && author === ctx.me ? "game.haiclue.status.author" : `game.haiclue.status.waiting_${v.phase}`;
      params = { names: names(waiting), count: waiting.length };
    }
    ctx.setStatus(key, params);

    // Say what matters once: the flip or pass, a clue being read, a reveal, your turn, the end.
    if (turnover) ctx.announce(flashKey(turnover), { from: turnover.from, to: turnover.to, round: v.round });
    const moment = `${v.round}|${v.phase}|${v.reading?.index ?? ""}|${todo ?? ""}`;
    if (moment === lastStatusKey) return;
    const before = lastStatusKey;
    lastStatusKey = moment;
    if (!before || turnover) return; // the first paint, or the flip said it already
    if (v.phase === "ended") ctx.announce(key, params);
    else if (v.phase === "guess" && (!prev || prev.phase !== "guess" || prev.reading?.index !== v.reading?.index)) {
      ctx.announce(author === ctx.me ? "game.haiclue.announce.your_clue_read" : "game.haiclue.announce.clue_read", { name: nick(author), clue: v.reading.words.join(" ") });
    } else if (v.phase === "reveal" && prev?.phase !== "reveal") {
      const result = currentResult(v);
      if (result) {
        const right = Object.values(result.guesses).filter((c) => c === result.card).length;
        ctx.announce("game.haiclue.announce.reveal", { name: nick(result.author), word: targetWord(v, result.card), count: right });
      }
    } else if (todo === "build_clue" && prev?.phase !== "build") ctx.announce(key, params);
  }

  // ---------------------------------------------------------------- render
  function render() {
    if (!push) return;
    const v = view();
    if (!v || v.game !== "haiclue") return;
    const turnover = noticeTurnover(v);
    if (turnover) flashInfo = turnover;
    const ended = v.phase === "ended" || push.room.status === "ended";
    root.dataset.phase = v.phase;
    root.dataset.round = String(v.round);
    root.dataset.side = v.side;
    root.dataset.todo = v.you?.to_do ?? "";
    root.dataset.reading = v.reading ? String(v.reading.index) : "";
    root.classList.toggle("coop", Boolean(v.cooperative));

    paintHead(v, ended);
    paintFlash(v);
    endBox.hidden = !ended;
    const podium = ended ? JSON.stringify([v.ranking, v.team_score]) : null;
    if (ended && podium !== podiumSignature) paintPodium(endBox, ctx, v);
    podiumSignature = podium;
    meterBox.hidden = !v.cooperative;
    if (v.cooperative) paintMeter(meterBox, v);
    paintReading(v);
    targetsCard.hidden = ended;
    if (!ended) paintTargetsCard(v, turnover?.kind ?? null);
    const building = v.phase === "build" && v.you?.to_do === "build_clue" && Array.isArray(v.rack);
    builder.el.hidden = !building;
    if (Array.isArray(v.rack)) {
      builder.update({
        words: v.rack,
        roundSide: v.side,
        minTiles: push.room.settings?.min_clue_tiles ?? 2,
        round: v.round,
        anim: turnover?.kind ?? null,
        myDraft: v.my_draft,
        clockEnds: v.clock === "clue" && typeof v.deadline === "number" ? v.deadline : null,
      });
    }
    paintDone(v);
    paintReveal(v);
    playersBox.hidden = ended;
    if (!ended) paintPlayers(playersList, ctx, v);
    paintHistory(historyBox, ctx, v, nick);
    recap.update(push, nick);
    if (ended && !recap.el.hidden) historyBox.hidden = true; // the recap has every round
    // At the end the side column is empty: the podium and the recap take its width.
    side.hidden = playersBox.hidden && historyBox.hidden;
    columns.classList.toggle("no-side", side.hidden);
    if (v.you && typeof v.you.may_chat === "boolean") ctx.setChatAllowed(v.you.may_chat);
    status(v, turnover);
    tick();
    // A new step (the guesses, the next clue's reading, the reveal, the end): on a phone, its
    // round line and clock come into view.
    const step = (x) => `${x?.round}|${x?.phase}|${x?.reading?.index ?? ""}`;
    if (prev && step(prev) !== step(v)) bringIntoView(root);
    prev = v;
  }

  return {
    update(next) {
      push = next;
      render();
    },
    unmount() {
      clearInterval(ticker);
      builder.destroy();
      ctx.setChatAllowed(true);
    },
  };
}
