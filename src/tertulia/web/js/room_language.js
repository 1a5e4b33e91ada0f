// The language a room's words are in (Haiclue's word tiles, Pintó's categories and judging):
// by default the host's interface language, and said plainly in the lobby.
//
// No game says "this is my language setting" in so many words, and none needs to: a setting
// whose choices are exactly the interface languages is one. When the host makes a room, picks
// another game or restores the defaults, their page sets it to the language they are using
// (the engines keep English as their default, so old rooms and logs mean what they meant).
// Only the host's page does it, through the ordinary update_settings request, so the lobby
// shows it to everyone, and the host can change it like any setting.

import { h, ht, replace } from "./dom.js";
import { LANGUAGES, has, language } from "./i18n.js";
import { schemaFields } from "./settings_form.js";

const CODES = LANGUAGES.map((l) => l.code);

/** The field of `game` (an entry of /api/games) that holds its words' language, or null. */
export function languageField(game) {
  for (const field of schemaFields(game?.settings_schema)) {
    const options = field.options || [];
    if (field.kind === "enum" && options.length === CODES.length && CODES.every((c) => options.includes(c))) return field;
  }
  return null;
}

/**
 * As the host of a room in the lobby playing `game`: set its language to this page's
 * interface language, if it is not that already. Resolves either way (a refusal leaves the
 * setting as it was, which the lobby shows).
 */
export async function useMyLanguage(conn, game, settings) {
  const field = languageField(game);
  if (!field) return;
  const lang = language();
  if ((settings?.[field.name] ?? field.default) === lang) return;
  try {
    await conn.request("update_settings", { settings: { [field.name]: lang } });
  } catch (error) {
    console.warn(`could not set the room's ${field.name} to ${lang}`, error);
  }
}

/** A line for the lobby, "Word tiles in: Polski", or null when the game has no language. */
export function languageLine(game, settings) {
  const field = languageField(game);
  if (!field) return null;
  const value = settings?.[field.name] ?? field.default;
  const choice = `${field.label}.${value}`;
  const fallback = LANGUAGES.find((l) => l.code === value)?.name ?? String(value);
  return h(
    "p",
    { class: "room-language", id: "room-language", dataset: { lang: value } },
    h("span", { class: "room-language-icon", "aria-hidden": "true" }),
    field.label && has(field.label) ? h("span", { class: "muted" }, ht("span", {}, field.label), ":") : null,
    " ",
    has(choice) ? ht("strong", {}, choice) : h("strong", {}, fallback),
  );
}

/** Replace `slot`'s content with the language line (empty when there is none). */
export function paintLanguageLine(slot, game, settings) {
  const line = languageLine(game, settings);
  slot.hidden = !line;
  replace(slot, line);
}
