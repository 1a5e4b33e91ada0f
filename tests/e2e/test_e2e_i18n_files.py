"""The four translations of the client agree: same keys, no placeholder English never fills."""

from __future__ import annotations

import json
import re
from pathlib import Path

I18N = Path(__file__).resolve().parents[2] / "src" / "tertulia" / "web" / "i18n"
LANGUAGES = ("en", "pt-BR", "es", "pl")
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def _strings(lang: str) -> dict[str, str]:
    return json.loads((I18N / f"{lang}.json").read_text("utf-8"))


def test_the_four_translations_have_the_same_keys():
    keys = {lang: set(_strings(lang)) for lang in LANGUAGES}
    for lang in LANGUAGES[1:]:
        missing, extra = sorted(keys["en"] - keys[lang]), sorted(keys[lang] - keys["en"])
        assert not missing and not extra, f"{lang}: missing {missing}, extra {extra}"


def test_every_placeholder_of_a_translation_is_one_english_fills_in():
    english = _strings("en")
    for lang in LANGUAGES[1:]:
        for key, text in _strings(lang).items():
            extra = set(PLACEHOLDER.findall(text)) - set(PLACEHOLDER.findall(english[key]))
            assert not extra, f"{lang} {key} uses {extra}, which English never fills in"


def test_every_error_code_of_the_protocol_page_has_a_translation():
    protocol = (I18N.parents[3] / "docs" / "protocol.md").read_text("utf-8")
    table = protocol.split("## Error codes of the platform", 1)[1]
    codes = set(re.findall(r"`([a-z_]+\.[a-z_]+)`", table))
    english = _strings("en")
    assert codes, "no error codes found in docs/protocol.md"
    missing = sorted(code for code in codes if f"errors.{code}" not in english)
    assert not missing, f"no errors.<code> key for {missing}"


def test_every_pitacor_setting_has_a_label_and_every_choice_a_name():
    from tertulia.games.base import settings_schema
    from tertulia.games.pitacor.settings import Settings

    schema = settings_schema(Settings)
    defs = schema["$defs"]
    english = _strings("en")
    for name, field in defs["Settings"]["properties"].items():
        label = field["x-label"]
        assert label in english, f"{name}: no text for {label}"
        if "$ref" in field:
            for value in defs[field["$ref"].rsplit("/", 1)[1]]["enum"]:
                assert f"{label}.{value}" in english, f"{name}: no text for the choice {value}"


def test_every_error_code_the_games_raise_has_a_translation():
    from tertulia.games import base
    from tertulia.games.pitacor import clues, rules, seats

    code = re.compile(r"^[a-z_]+\.[a-z_]+$")
    raised = {
        value
        for module in (base, clues, rules, seats)
        for name, value in vars(module).items()
        if name.isupper() and isinstance(value, str) and code.match(value)
    }
    raised |= {"match.player_count", "action.unknown"}  # raised with literal codes
    english = _strings("en")
    missing = sorted(c for c in raised if f"errors.{c}" not in english)
    assert not missing, f"no errors.<code> key for {missing}"
