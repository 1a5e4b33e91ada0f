// The room's rules card (howto.js): a button in the room's head, in the lobby and during a
// match, and, for a player who never met the room's game, an offer above the room (issue 29:
// a first-timer is offered the card before their first round, any way in).

import { h, replace } from "./dom.js";
import { cardButton, markMet, offerCard } from "./howto.js";
import { hasPlayed } from "./played.js";

export function createRoomHowto(app) {
  let gameInfo = null;
  let alive = true;
  const howto = cardButton(() => gameInfo, { id: "room-howto" });
  howto.el.hidden = true;
  const offerSlot = h("div", { class: "howto-offer-slot" });
  let offeredFor = null; // "<game>|lobby" or "<game>|match": where the offer was last made

  function update(room) {
    app.games().then(
      (games) => {
        if (!alive) return;
        gameInfo = games.find((g) => g.name === room.game) ?? null;
        howto.update();
        const here = `${room.game}|${room.status === "lobby" ? "lobby" : "match"}`;
        if (offeredFor === here) return;
        // Offered in the lobby, before the first round; a match begun with it unanswered
        // counts as met. A first-timer who comes into a match already under way (a public
        // room, a link) is offered it above the game: the server never makes them the first
        // giver or artist, so there is a round to read it in.
        if (offeredFor?.endsWith("|lobby") && offerSlot.firstChild) markMet(offeredFor.split("|")[0]);
        offeredFor = here;
        const wanted = room.status === "lobby" || (room.status === "playing" && !hasPlayed(room.game));
        replace(offerSlot, wanted ? offerCard(gameInfo) : null);
      },
      () => {},
    );
  }

  return {
    button: howto.el,
    offerSlot,
    update,
    destroy() {
      alive = false;
    },
  };
}
