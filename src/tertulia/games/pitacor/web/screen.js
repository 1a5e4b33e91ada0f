// Pitacor's screen: the board, the clue giver's panel, the guessers' select-then-confirm, the
// clocks, the reveal and the podium. It renders the latest push and asks the server what is
// allowed; it holds no rules of its own. The pieces live in ./pitacor/*.js.

import { h, ht, tx } from "../../js/dom.js";
import { prefs } from "../../js/prefs.js";
import { createBoard } from "./board.js";
import { createGiver } from "./giver.js";
import { createClueBar, createGuessPanel, createHistory, createPodium, createReveal, createScores, createTurns } from "./panels.js";
import { clockText, nameOf } from "./util.js";

const EDGES = "pitacor.edges";

// Sounds (sound.js): the next giver may start the next round while everyone looks at the
// reveal; carrying on, not news, so no beep.
export const quietToDos = ["next_round", "ready"];
// The table's moments that make a sound (sound.js): a clue, a marker landing, the reveal.
export const soundEvents = { "clue.given": "clue", "marker.placed": "land", "round.revealed": "reveal" };

// The line at the top, as tables: (view, push, me) → [i18n key, params]. What this seat has to
// do now (view.you.to_do) comes first; with nothing to do, what the phase is waiting for. The
// end, a giver who is away and a latecomer's wait are the exceptions (status() below).
const TO_DO_STATUS = {
  choose_target: () => ["game.pitacor.to_do.choose_target"],
  give_clue: () => ["game.pitacor.to_do.give_clue"],
  give_clue_or_pass: (v, push) => ["game.pitacor.to_do.give_clue_or_pass", { multiplier: push.room.settings?.pass_multiplier ?? 2 }],
  place_marker: (v) => [v.phase === "guess2" ? "game.pitacor.to_do.place_marker2" : "game.pitacor.to_do.place_marker"],
  next_round: () => ["game.pitacor.to_do.next_round"],
  ready: () => ["game.pitacor.to_do.ready"],
};

const PHASE_STATUS = {
  choose: (v, push) => ["game.pitacor.status.choosing", { name: nameOf(push, v.giver) }],
  clue1: (v, push) => ["game.pitacor.status.clue1", { name: nameOf(push, v.giver) }],
  clue2: (v, push) => ["game.pitacor.status.clue2", { name: nameOf(push, v.giver) }],
  guess1: markersStatus,
  guess2: markersStatus,
  reveal: (v, push) => ["game.pitacor.status.reveal", { cell: v.target ?? "", name: nameOf(push, v.next_giver) }],
};

/** Whose marker the guesses wait for: the one whose turn it is, or everyone still placing. */
function markersStatus(v, push, me) {
  if (push.room.settings?.guess_mode === "turns" && v.turn) return ["game.pitacor.status.turn_of", { name: nameOf(push, v.turn) }];
  const waiting = (v.waiting_for || []).filter((id) => id !== me);
  const key = (v.confirmed || []).includes(me) ? "game.pitacor.status.placed_waiting" : "game.pitacor.status.waiting_markers";
  return [key, { names: waiting.map((id) => nameOf(push, id)).join(", "), count: waiting.length }];
}

export function mount(element, ctx) {
  let push = null;
  // Each board's cell colours, from Pitacor's static data (views.static_data): {classic: {cols,
  // rows, cells: ["#RRGGBB", …]}, ultra_hard: …}. Without them the board is drawn uncoloured.
  const palettes = ctx.staticData?.boards ?? null;
  if (!palettes) console.error("Pitacor: no board colours in the game's static data");
  let local = null; // a selection sent but not yet in a push
  let lastTodo = null;
  let lastPhase = null;
  let lastRound = null;
  let statusSig = "";
  let showBoardAtEnd = false;

  const bar = createClueBar(ctx);
  const giver = createGiver(ctx);
  const reveal = createReveal(ctx);
  const scores = createScores(ctx);
  const turns = createTurns(ctx);
  const podium = createPodium(ctx);
  const history = createHistory(ctx);
  const board = createBoard(ctx, { onActivate: activate });
  const guess = createGuessPanel(ctx, { onSelect: (cell) => select(cell), onConfirm: confirm });

  const notice = h("p", { class: "pc-notice", id: "pitacor-notice", hidden: true });
  let missedAt = null; // round|phase in which the guess clock ran out on this player

  // Option: coordinates along the edges (for colour-blind players). Sounds are the header's
  // switch, for every game (sound.js).
  const edges = h("input", { type: "checkbox", id: "pitacor-edges", class: "switch", role: "switch" });
  edges.checked = prefs.get(EDGES) === "1";
  edges.addEventListener("change", () => {
    prefs.set(EDGES, edges.checked ? "1" : "0");
    render();
  });
  const options = h(
    "div",
    { class: "pc-options" },
    h("div", { class: "pc-option" }, edges, ht("label", { for: "pitacor-edges" }, "game.pitacor.options.edges")),
  );
  const showBoard = ht("button", { type: "button", class: "ghost pc-show-board", id: "pitacor-show-board", hidden: true }, "game.pitacor.show_board");
  showBoard.addEventListener("click", () => {
    showBoardAtEnd = true;
    render();
  });
  const boardArea = h("div", { class: "pc-board-area" }, board.el);

  const screen = h(
    "div",
    { class: "pc-screen", id: "pitacor" },
    bar.el,
    notice,
    podium.el,
    giver.el,
    reveal.el,
    showBoard,
    boardArea,
    guess.el,
    h("div", { class: "pc-side" }, turns.el, scores.el),
    history.el,
    options,
  );
  element.append(screen);

  const ticker = setInterval(() => {
    if (!push) return;
    const left = bar.tick();
    if (push.view?.clock === "giver_away") status(left);
  }, 250);

  // ------------------------------------------------------------------ actions

  function myTurn() {
    return push?.view?.you?.to_do === "place_marker";
  }

  function selected() {
    return local || push?.view?.selection || null;
  }

  function activate(cell, { keyboard }) {
    const v = push?.view;
    if (!v || v.you?.role !== "guesser" || !(v.phase === "guess1" || v.phase === "guess2")) return;
    if ((v.confirmed || []).includes(ctx.me)) return;
    if (keyboard && cell === selected() && myTurn()) confirm();
    else {
      if (keyboard) board.showZoomed(cell); // on a phone, previewed large like a tap's
      select(cell);
    }
  }

  async function select(cell) {
    guess.showError(null);
    local = cell;
    render();
    try {
      await ctx.send({ type: "select_cell", cell });
    } catch (error) {
      if (local === cell) local = null;
      render();
      guess.showError(error);
    }
  }

  async function confirm() {
    guess.showError(null);
    const focusWasOnBoard = board.hasFocus();
    try {
      await ctx.send({ type: "confirm" });
    } catch (error) {
      guess.showError(error);
    }
    if (focusWasOnBoard && selected()) board.focusCell(selected());
  }

  // ------------------------------------------------------------------ status line

  function status(giverLeft = null) {
    const v = push.view;
    const todo = v.you?.to_do;
    let key;
    let params = {};
    if (push.room.status === "ended" || v.phase === "ended") {
      const names = (v.winners || []).map((id) => nameOf(push, id));
      key = names.length ? "game.pitacor.status.winners" : "game.status.ended";
      params = { names: names.join(", "), count: names.length };
    } else if (v.clock === "giver_away") {
      const left = giverLeft ?? (typeof v.deadline === "number" ? v.deadline - ctx.now() : 0);
      key = "game.pitacor.status.giver_away";
      params = { name: nameOf(push, v.giver), time: clockText(left) };
    } else if (todo) {
      [key, params = {}] = TO_DO_STATUS[todo]?.(v, push, ctx.me) ?? [`game.pitacor.to_do.${todo}`];
    } else if (v.you?.role === "waiting") {
      key = "game.pitacor.status.next_round";
    } else {
      [key, params = {}] = PHASE_STATUS[v.phase]?.(v, push, ctx.me) ?? ["game.status.playing"];
    }
    const sig = JSON.stringify([key, params]);
    if (sig !== statusSig) {
      statusSig = sig;
      ctx.setStatus(key, params);
    }
    return { key, params, todo };
  }

  function announce(v, said) {
    if (said.todo && said.todo !== lastTodo) {
      ctx.announce(said.key, said.params);
    }
    lastTodo = said.todo || null;
    const phase = v.phase;
    if (phase !== lastPhase || v.round !== lastRound) {
      if ((phase === "reveal" || phase === "ended") && v.target && v.points && lastPhase !== null) {
        const mine = v.points[ctx.me];
        ctx.announce(mine === undefined ? "game.pitacor.announce.reveal_watch" : "game.pitacor.announce.reveal", { cell: v.target, points: mine ?? 0, count: mine ?? 0 });
      }
      if (phase === "ended" && lastPhase !== null) ctx.announce(said.key, said.params);
    }
    lastPhase = phase;
    lastRound = v.round;
  }

  // ------------------------------------------------------------------ render

  /** On a laptop the giver's panel sits above the board: the board shrinks to what is left
   * of the screen under it, so its bottom rows are not below the fold (css: .giving). */
  function fitBoardUnderGiver() {
    const giving = !giver.el.hidden;
    screen.classList.toggle("giving", giving);
    if (!giving) return;
    const room = `${Math.round(boardArea.getBoundingClientRect().top + window.scrollY + 16)}px`;
    // Set only when it moves: a new value restyles the whole board.
    if (screen.style.getPropertyValue("--giver-room") !== room) screen.style.setProperty("--giver-room", room);
  }

  function render() {
    if (!push) return;
    const v = push.view;
    if (!v || v.game !== "pitacor") return;
    if (local && (v.selection === local || !(v.phase === "guess1" || v.phase === "guess2") || (v.confirmed || []).includes(ctx.me))) local = null;
    if (v.phase !== lastPhase || v.round !== lastRound) {
      local = null;
      if (lastPhase !== null) board.unzoom(); // a new step starts on the whole board
    }
    const colours = palettes?.[v.board.id]?.cells ?? null;
    const ended = push.room.status === "ended" || v.phase === "ended";
    screen.classList.toggle("ended", ended);
    if (!ended) showBoardAtEnd = false;
    const interactive = v.you?.role === "guesser" && (v.phase === "guess1" || v.phase === "guess2") && !(v.confirmed || []).includes(ctx.me);
    // A shared screen always has them: the room reads cells off it aloud ("mine is F12"),
    // and nobody is at it to switch them on.
    board.render(v, colours, { local, interactive, edges: ctx.screen || edges.checked });
    boardArea.hidden = ended && !showBoardAtEnd;
    showBoard.hidden = !(ended && !showBoardAtEnd);
    bar.update(push);
    giver.update(v, push);
    fitBoardUnderGiver();
    guess.update(push, colours, selected());
    reveal.update(push, colours);
    scores.update(push);
    turns.update(push);
    podium.update(push);
    history.update(push, colours);
    const role = v.you?.role;
    const step = `${v.round}|${v.phase}`;
    if ((push.events || []).some((e) => e.kind === "guess.missed" && e.seat === ctx.me)) {
      missedAt = step; // the clock ran out on this guesser with nothing selected
      ctx.announce("game.pitacor.notice.missed");
    }
    const missed = missedAt === step && !ended;
    notice.hidden = !(missed || role === "waiting" || role === "spectator") || ended || ctx.screen;
    if (missed) tx(notice, "game.pitacor.notice.missed");
    else if (!notice.hidden) tx(notice, role === "waiting" ? "game.pitacor.notice.next_round" : "game.pitacor.notice.spectator");
    if (v.you && typeof v.you.may_chat === "boolean") {
      ctx.setChatAllowed(v.you.may_chat, "game.pitacor.chat_closed");
    }
    announce(v, status());
  }

  return {
    update(next) {
      push = next;
      render();
    },
    unmount() {
      clearInterval(ticker);
      history.destroy();
      ctx.setChatAllowed(true);
    },
  };
}
