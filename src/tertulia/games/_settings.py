"""A game's ``Settings`` for the lobby: each field's bounds, label and part of the form
(``setting``), and the JSON Schema the settings form is built from (``settings_schema``)."""

from __future__ import annotations

from typing import Any

import msgspec


def settings_schema(settings_type: type[msgspec.Struct]) -> dict[str, Any]:
    """The JSON Schema the lobby builds its settings form from.

    Choices (enums) are written into each field (``enum`` beside ``x-label``) instead of
    behind a ``$ref``, so the browser reads one flat object per field.
    """
    schema = msgspec.json.schema(settings_type)
    defs = schema.get("$defs", {})
    for field in defs.get(settings_type.__name__, {}).get("properties", {}).values():
        ref = field.pop("$ref", None)
        if ref is not None:
            field.update(
                {k: v for k, v in defs[ref.rsplit("/", 1)[-1]].items() if k in ("enum", "type")}
            )
    return schema


def setting(
    default: Any,
    *,
    label: str,
    ge: float | None = None,
    le: float | None = None,
    advanced: bool = False,
    in_public_rooms: Any = None,
) -> Any:
    """Metadata for one settings field: bounds, its i18n label key, basic or advanced part.

    Use as ``goal: Annotated[int, setting(25, label=..., ge=5, le=100)] = 25``; the default is
    repeated in the schema so the lobby can show and restore it. ``in_public_rooms``: the value
    the game uses in a public room whatever the host chose (the form shows it, locked).
    """
    extra: dict[str, Any] = {"x-label": label, "x-advanced": advanced, "default": default}
    if in_public_rooms is not None:
        extra["x-public"] = in_public_rooms
    return msgspec.Meta(ge=ge, le=le, extra_json_schema=extra)
