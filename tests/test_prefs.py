"""The preferences as a value: decoded from prefs.json's dict at the file's edge, encoded back
there; the command line's settings for one run over them; the rules and match they choose."""
import json
from dataclasses import FrozenInstanceError, fields, replace
from pathlib import Path
from typing import Any, Optional, Union

import pytest
from helpers import clock

from yahtzee.model.dice import DuplicateDice, SeededDice, is_duplicate
from yahtzee.model.match import parse_match
from yahtzee.model.rules import RULES, rules_named
from yahtzee.model.session import Session
from yahtzee.present.palette import DEFAULT_THEME, THEMES
from yahtzee.saves.documents import PREFS_VERSION, prefs_from_save, prefs_to_dict
from yahtzee.saves.prefs import BY_KEY, DEFAULTS, PREFERENCES, Prefs, RunSettings, game_settings
from yahtzee.saves.store import PREFS, Saves
from yahtzee.saves.strict import DamagedSave
from yahtzee.screens.context import Context, Services, Settings
from yahtzee.screens.lobby import change_pref
from yahtzee.speech.languages import text
from yahtzee.speech.locales import LANGUAGES

EVERY_CHOICE = [(p.key, choice) for p in PREFERENCES for choice in p.choices]


def saved(**entries: Any) -> dict[str, Any]:
    """A prefs.json document of this version."""
    return {"version": PREFS_VERSION, **entries}


# The value and its choices

def test_each_preference_is_a_field_and_its_default_is_its_first_choice() -> None:
    assert [p.key for p in PREFERENCES] == [f.name for f in fields(Prefs) if f.name != "unknown"]
    assert all(p.of(DEFAULTS) == p.choices[0] and p.allows(p.of(DEFAULTS)) for p in PREFERENCES)
    assert Prefs() == DEFAULTS and DEFAULTS.rules == "hasbro" and DEFAULTS.verify is True


def test_the_preferences_are_frozen_and_changed_by_replace() -> None:
    with pytest.raises(FrozenInstanceError):
        DEFAULTS.hints = True  # type: ignore[misc]  # the point: the frozen preferences refuse it
    assert replace(DEFAULTS, hints=True).hints is True and DEFAULTS.hints is False


def test_the_choices_that_other_modules_own_are_taken_from_them() -> None:
    assert BY_KEY["rules"].choices == tuple(RULES)
    assert BY_KEY["theme"].choices == tuple(THEMES) and DEFAULTS.theme == DEFAULT_THEME
    assert BY_KEY["language"].choices == ("auto", *LANGUAGES)


def test_the_rules_cycle_in_the_order_the_settings_screen_always_showed() -> None:
    assert BY_KEY["rules"].choices == ("hasbro", "yahtc", "acorn", "fiveoak", "freejoker", "nobonus")


def test_a_preference_cycles_to_its_next_choice_and_back_to_the_first() -> None:
    hints = BY_KEY["hint_threshold"]
    prefs = DEFAULTS
    seen = []
    for _ in hints.choices:
        seen.append(prefs.hint_threshold)
        prefs = hints.cycled(prefs)
    assert tuple(seen) == hints.choices and prefs == DEFAULTS


# Decoding and encoding prefs.json

@pytest.mark.parametrize("key, choice", EVERY_CHOICE)
def test_every_choice_round_trips_through_the_file(key: str, choice: Any) -> None:
    prefs = replace(DEFAULTS, **{key: choice})
    document = json.loads(json.dumps(prefs_to_dict(prefs)))
    back = prefs_from_save(document)
    assert back == prefs and type(BY_KEY[key].of(back)) is type(choice)


def test_the_document_lists_every_preference_in_order_then_the_version() -> None:
    assert list(prefs_to_dict(DEFAULTS)) == [*(p.key for p in PREFERENCES), "version"]


def test_an_old_file_without_the_later_preferences_still_loads() -> None:
    assert prefs_from_save(saved(verify=False, sound=True)) == Prefs(verify=False)
    assert prefs_from_save(saved()) == DEFAULTS


def test_an_unknown_key_is_ignored_and_written_back_as_it_was() -> None:
    prefs = prefs_from_save(saved(hints=True, later_option=[1, 2]))
    assert prefs == Prefs(hints=True)
    assert prefs_to_dict(replace(prefs, par=True))["later_option"] == [1, 2]
    assert "version" not in dict(prefs.unknown)


@pytest.mark.parametrize("entries", [
    {"verify": "off"}, {"sound": 0}, {"hints": 1}, {"hint_threshold": 7}, {"hint_threshold": 60.0},
    {"computer_delay": 0}, {"rules": "bogus"}, {"theme": "neon"}, {"marking": None}, {"language": "fr"},
])
def test_a_value_that_is_none_of_its_choices_makes_the_file_damaged(
        entries: dict[str, Optional[Union[int, float, str]]]) -> None:
    with pytest.raises(DamagedSave):
        prefs_from_save(saved(**entries))


@pytest.mark.parametrize("data", [None, [], "prefs", {}, {"version": 2}, {"version": "1"}, {"version": True}])
def test_a_file_of_another_version_or_shape_is_damaged(
        data: Optional[Union[dict[str, int], dict[str, bool], str, dict[str, str]]]) -> None:
    with pytest.raises(DamagedSave):
        prefs_from_save(data)


def test_a_bad_value_falls_back_to_every_default(tmp_path: Path) -> None:
    (tmp_path / PREFS).write_text(json.dumps(saved(hints=True, rolls=5)))
    saves = Saves(tmp_path)
    assert saves.load_prefs() == DEFAULTS
    assert len(saves.notices) == 1 and PREFS in text(saves.notices[0])


# This run's settings and the game they choose

def test_the_run_settings_outrank_the_preferences_for_this_run_only() -> None:
    prefs = Prefs(rules="acorn", match="race 500", rolls=4)
    assert RunSettings().over(prefs) == prefs
    run = RunSettings(rules="yahtc", match="single", duplicate=True)
    assert run.over(prefs) == replace(prefs, rules="yahtc", match="single", duplicate=True)
    assert run.without("rules") == RunSettings(match="single", duplicate=True)
    assert run.without("rolls") == run


def test_the_preferences_choose_the_rules_with_their_options_and_the_match() -> None:
    rules, match = game_settings(Prefs(rules="yahtc", rolls=4, bank=2, match="challenge 3"))
    assert rules == rules_named("yahtc").with_options(rolls=4, bank=2)
    assert match == parse_match("challenge 3")


def test_a_game_setting_changed_on_the_settings_screen_outranks_the_command_lines() -> None:
    ctx = Context(Session([], source=SeededDice(3)), Services(clock),
                  Settings(Prefs(), RunSettings(rules="acorn", duplicate=True)))
    ctx.apply_game_settings()
    assert ctx.session.rules.name == "acorn" and isinstance(ctx.session.source, DuplicateDice)
    change_pref(ctx, BY_KEY["match"])
    assert ctx.session.match == parse_match("challenge 3") and ctx.session.rules.name == "acorn"
    change_pref(ctx, BY_KEY["rules"])  # hasbro -> yahtc, and --rules no longer counts
    assert ctx.settings.prefs.rules == "yahtc" and ctx.session.rules.name == "yahtc"
    assert ctx.settings.run_settings == RunSettings(duplicate=True)
    change_pref(ctx, BY_KEY["duplicate"])  # off -> on, and then on -> off: the preference decides
    change_pref(ctx, BY_KEY["duplicate"])
    assert ctx.settings.prefs.duplicate is False and not is_duplicate(ctx.session.source)
    assert ctx.settings.run_settings == RunSettings()


def test_the_preferences_kept_take_verify_and_sound_from_the_session() -> None:
    ctx = Context(Session([], verify=False, sound=False), Services(clock), Settings(Prefs(hints=True)))
    assert ctx.prefs_to_keep() == Prefs(hints=True, verify=False, sound=False)
