// The settings form, generated from a game's settings schema (msgspec JSON Schema).
//
// Each property may carry: x-label (an i18n key; enum values are "<x-label>.<value>"),
// x-advanced (goes in the collapsible "Advanced" part), default, minimum/maximum, enum (via a
// $ref to $defs), type boolean/integer/number/string. The host gets controls; a change sends
// just that field. Everyone else sees the values as text. Refusals appear next to the field
// and go away when the field changes.

import { h, ht, replace, showError, tx } from "./dom.js";
import { has } from "./i18n.js";

/** The fields of a settings schema, in order, each with its $ref resolved. */
export function schemaFields(schema) {
  if (!schema) return [];
  const defs = schema.$defs || schema.definitions || {};
  const resolve = (node) => {
    let out = { ...node };
    for (let depth = 0; depth < 8 && out.$ref; depth++) {
      const name = out.$ref.split("/").pop();
      const { $ref, ...rest } = out;
      out = { ...(defs[name] || {}), ...rest };
    }
    if (Array.isArray(out.allOf) && out.allOf.length === 1) {
      const { allOf, ...rest } = out;
      out = { ...resolve(allOf[0]), ...rest };
    }
    if (Array.isArray(out.anyOf)) {
      const options = out.anyOf.filter((o) => o.type !== "null");
      if (options.length === 1) {
        const { anyOf, ...rest } = out;
        out = { ...resolve(options[0]), ...rest, nullable: true };
      }
    }
    return out;
  };
  const root = resolve(schema);
  return Object.entries(root.properties || {}).map(([name, prop]) => {
    const field = resolve(prop);
    let kind = field.type;
    if (Array.isArray(field.enum)) kind = "enum";
    else if (kind === "array") kind = "list"; // a list of short texts (Pintó's own categories)
    else if (Array.isArray(kind)) kind = kind.find((k) => k !== "null");
    return {
      name,
      kind: kind || "string",
      label: field["x-label"] || null,
      advanced: Boolean(field["x-advanced"]),
      default: field.default,
      minimum: field.minimum ?? (field.exclusiveMinimum !== undefined ? field.exclusiveMinimum + 1 : undefined),
      maximum: field.maximum ?? (field.exclusiveMaximum !== undefined ? field.exclusiveMaximum - 1 : undefined),
      options: Array.isArray(field.enum) ? field.enum : null,
      inPublicRooms: field["x-public"] ?? null, // what a public room uses, whatever is chosen
    };
  });
}

function humanise(name) {
  const text = name.replace(/_/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Label a field (or an enum value) through i18n, with a readable fallback. */
function fieldLabel(el, field, value = undefined) {
  if (value === undefined) {
    if (field.label && has(field.label)) return tx(el, field.label);
    el.textContent = humanise(field.name);
    return el;
  }
  const key = field.label ? `${field.label}.${value}` : null;
  if (key && has(key)) return tx(el, key);
  el.textContent = humanise(String(value));
  return el;
}

function valueText(el, field, value) {
  if (field.kind === "boolean") return tx(el, value ? "common.yes" : "common.no");
  if (field.kind === "list") {
    el.textContent = Array.isArray(value) && value.length ? value.join(", ") : "—";
    return el;
  }
  if (field.kind === "enum") return fieldLabel(el, field, value);
  el.textContent = value === null || value === undefined ? "—" : String(value);
  return el;
}

/**
 * Build the form. `send(field, value)` and `restore()` return promises (rejected with the
 * server's error). Returns {el, update(values, isHost)}.
 */
// `shownElsewhere`: a field the page already states in its own line (the room's language): the
// read-only view leaves it out rather than say it twice; the host's controls keep it.
export function createSettingsForm({ schema, values, isHost, isPublic = false, send, restore, idPrefix = "setting", shownElsewhere = null }) {
  const fields = schemaFields(schema);
  const controls = new Map(); // name -> {input, error, read}
  let editable = isHost;

  const basic = h("div", { class: "settings-fields" });
  const advancedBody = h("div", { class: "settings-fields" });
  const advanced = h(
    "details",
    { class: "advanced" },
    ht("summary", {}, "settings.advanced"),
    advancedBody,
  );
  const restoreError = h("p", { class: "field-error", hidden: true });
  const restoreButton = ht(
    "button",
    { type: "button", class: "ghost", id: "restore-defaults" },
    "settings.restore_defaults",
  );
  restoreButton.addEventListener("click", async () => {
    showError(restoreError, null);
    restoreButton.disabled = true;
    try {
      await restore();
    } catch (error) {
      showError(restoreError, error);
    } finally {
      restoreButton.disabled = false;
    }
  });
  const footer = h("div", { class: "settings-footer" }, restoreButton, restoreError);
  const el = h("div", { class: "settings-form" }, basic, advanced, footer);

  function build() {
    controls.clear();
    replace(basic);
    replace(advancedBody);
    for (const field of fields) {
      if (!editable && field.name === shownElsewhere) continue;
      const row = editable ? controlRow(field) : readRow(field);
      (field.advanced ? advancedBody : basic).append(row);
    }
    advanced.hidden = !advancedBody.childElementCount;
    footer.hidden = !editable;
  }

  function controlRow(field) {
    const id = `${idPrefix}-${field.name}`;
    const error = h("p", { class: "field-error", id: `${id}-error`, hidden: true });
    let input;
    if (field.kind === "boolean") {
      input = h("input", { type: "checkbox", id, role: "switch", class: "switch" });
    } else if (field.kind === "enum") {
      input = h(
        "select",
        { id },
        field.options.map((value) => fieldLabel(h("option", { value: String(value) }), field, value)),
      );
    } else if (field.kind === "integer" || field.kind === "number") {
      input = h("input", {
        type: "number",
        id,
        inputmode: field.kind === "integer" ? "numeric" : "decimal",
        step: field.kind === "integer" ? 1 : "any",
        min: field.minimum,
        max: field.maximum,
      });
    } else if (field.kind === "list") {
      // One entry per line; saved when the box loses focus.
      input = h("textarea", { id, rows: 3, class: "setting-list" });
    } else {
      input = h("input", { type: "text", id });
    }
    input.name = field.name;
    input.setAttribute("aria-describedby", `${id}-error${hintKey(field) ? ` ${id}-hint` : ""}`);
    const labelEl = fieldLabel(h("label", { for: id }), field);
    const hint = hintKey(field) ? tx(h("span", { class: "hint", id: `${id}-hint` }), hintKey(field), hintParams(field)) : null;
    input.addEventListener("input", () => showError(error, null));
    input.addEventListener("change", () => commit(field, input, error));
    controls.set(field.name, { input, error });
    const row = h(
      "div",
      { class: `setting setting-${field.kind}`, dataset: { field: field.name } },
      h("div", { class: "setting-text" }, labelEl, hint),
      input,
      error,
    );
    return row;
  }

  function readRow(field) {
    const value = h("dd", { class: "setting-value" });
    controls.set(field.name, { read: value });
    return h(
      "dl",
      { class: "setting setting-read", dataset: { field: field.name } },
      fieldLabel(h("dt"), field),
      value,
    );
  }

  async function commit(field, input, error) {
    let value;
    if (field.kind === "boolean") value = input.checked;
    else if (field.kind === "integer") value = input.value === "" ? NaN : Number(input.value);
    else if (field.kind === "number") value = Number(input.value);
    else if (field.kind === "enum") {
      const original = field.options.find((o) => String(o) === input.value);
      value = original === undefined ? input.value : original;
    } else if (field.kind === "list") {
      value = input.value.split("\n").map((line) => line.trim()).filter(Boolean);
    } else value = input.value;
    if (typeof value === "number" && !Number.isFinite(value)) {
      showError(error, { code: "settings.invalid", message: "That value is not allowed.", params: {} });
      return;
    }
    showError(error, null);
    try {
      await send(field.name, value);
    } catch (err) {
      showError(error, err);
      input.focus();
    }
  }

  function update(values, isHostNow) {
    if (isHostNow !== editable) {
      editable = isHostNow;
      build();
    }
    for (const field of fields) {
      const control = controls.get(field.name);
      if (!control) continue;
      const locked = isPublic && field.inPublicRooms !== null;
      const value = locked ? field.inPublicRooms : values?.[field.name] ?? field.default;
      if (control.read) {
        valueText(control.read, field, value);
        continue;
      }
      const { input } = control;
      // Never overwrite what the host is typing right now.
      if (document.activeElement === input && input.type !== "checkbox" && input.tagName !== "SELECT") continue;
      input.disabled = locked; // the hint says why: "Always on in public rooms"
      if (field.kind === "boolean") input.checked = Boolean(value);
      else if (field.kind === "list") input.value = Array.isArray(value) ? value.join("\n") : "";
      else input.value = value === null || value === undefined ? "" : String(value);
    }
  }

  build();
  update(values, isHost);
  return { el, update, fields };
}

/** Seconds fields get "0 means no limit" when the game's translations say so. */
function hintKey(field) {
  if (field.label && has(`${field.label}.hint`)) return `${field.label}.hint`;
  if (field.kind === "integer" && field.minimum !== undefined && field.maximum !== undefined) return "settings.range";
  return null;
}

function hintParams(field) {
  return { min: field.minimum, max: field.maximum, default: field.default };
}
