"""The German translation as a player meets it: every screen fits 80x24 in both languages,
every string shown comes from the catalog, and no English is left on a German screen."""
import ast
import gettext
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Callable, Union

import pytest
from helpers import KeyScript, run_game, there, typed
from syntax import parsed, walked

from yahtzee.app import make_context
from yahtzee.coach.services import StrategyServices
from yahtzee.coach.tablekeeper import TableKeeper
from yahtzee.consoles.stops import InputClosed
from yahtzee.model import scoring
from yahtzee.model.dice import LoadedDice, SeededDice
from yahtzee.present.palette import visible_width
from yahtzee.saves.prefs import Prefs
from yahtzee.saves.store import Saves
from yahtzee.screens.context import Settings
from yahtzee.screens.flow import Keeper, run
from yahtzee.screens.prompts import QuitGame
from yahtzee.speech import languages as language

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "yahtzee"
sys.path.insert(0, str(ROOT / "tools"))
import msgfmt  # noqa: E402
import xgettext  # noqa: E402

pytestmark = pytest.mark.slow(13)

GERMAN = msgfmt.read_po((PACKAGE / "locale" / "de" / "LC_MESSAGES" / "yahtzee.po").read_text("utf-8"))
BOXES = ["1", "2", "3", "4", "5", "6", "t", "f", "h", "s", "l", "y"]
# Every screen of a game: the preferences and statistics from the title, the manual, the names,
# the advice page, the quit question, a reroll, thirteen postings with their verify question,
# the review and statistics after the game, the recap, a second game and quitting it.
TOUR = ("k" "p" "x" "s" "x" "y" "\r" "x" "ANN\r" "\r" "y"
        "k" "?" "x" "q" "n" "1" "r" "r" "c" "y"
        + "".join(f"kr{box}y" for box in BOXES)
        + "r" "x" "s" "x" "y" "k" "n" "n" "q" "y")
FACES = [2, 2, 2, 3, 3, 2] + [2, 2, 2, 3, 3] * 12
MANUAL = [f"Zeile {number}" for number in range(60)]  # the manual itself stays English
# Words of the English screens that a German screen never shows.
ENGLISH_WORDS = ("Roll", "Press", "Verify", "Quit", "Sound", "Post", "Player", "Keys", "Please",
                 "Another", "game", "advice", "rolls", "Ready", "Instructions", "Resume", "Page",
                 "statistics", "the", "and", "with", "points", "Upper", "Lower", "total", "turn")


class Recording(gettext.NullTranslations):
    """The German catalog, noting every string asked for that it does not hold."""

    def __init__(self) -> None:
        super().__init__()
        with open(PACKAGE / "locale" / "de" / "LC_MESSAGES" / "yahtzee.mo", "rb") as file:
            self.german = gettext.GNUTranslations(file)
        self.missing: set[str] = set()

    def gettext(self, message: str) -> str:
        if message not in GERMAN and message not in GERMAN.values():
            self.missing.add(message)
        return self.german.gettext(message)

    def pgettext(self, context: str, message: str) -> str:
        if f"{context}\x04{message}" not in GERMAN:
            self.missing.add(message)
        return self.german.pgettext(context, message)

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        if (singular, plural) not in GERMAN:
            self.missing.add(singular)
        return self.german.ngettext(singular, plural, count)


@pytest.fixture
def speaking(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable]:
    """Install a language for one test (a recording catalog for German); English after (by
    the real `use`: a test may have replaced it, and its replacement is undone only later)."""
    use = language.use

    def install(code: Any) -> Any:
        if code == "de":
            recording = Recording()
            german, real = language.Translator("de", recording), language.translator
            monkeypatch.setattr(language, "translator", lambda asked: german if asked == "de" else real(asked))
            language.use("de")
            return recording
        language.use(code)
        return None
    yield install
    use("en")


def tour(tmp_path: Path, keys: str, faces: list[int] = FACES) -> list[list[str]]:
    """Run the flow in-process with a real advisor on these keys; every screen drawn."""
    saves = Saves(tmp_path / "saves")
    strategy = StrategyServices.over(TableKeeper(Path(os.environ["YAHTZEE_CACHE"])))
    ctx = make_context(Settings(saves.load_prefs()), saves, LoadedDice(faces, SeededDice(1)), strategy)
    ctx.services.manual = MANUAL
    strategy.tables.load(ctx.session.rules)  # ready: the keys typed ahead meet the advice page, not its wait
    script = KeyScript(keys)
    try:
        run(script.console, ctx, Keeper(ctx))
    except (QuitGame, InputClosed):
        pass
    finally:
        script.close()
        there(ctx.services.strategy).close()
        saves.close()
    return script.screens


def screens_of_a_whole_tour(tmp_path: Path) -> list[list[str]]:
    """A game's every screen, then the resume question and the quit question of the next start."""
    screens = tour(tmp_path, TOUR)
    return screens + tour(tmp_path, "y" "q" "y")


@pytest.mark.parametrize("code", ["en", "de"])
def test_every_screen_fits_80x24_in_both_languages(tmp_path: Path, speaking: Callable, code: str) -> None:
    speaking(code)
    screens = screens_of_a_whole_tour(tmp_path)
    text = "\n".join("\n".join(screen) for screen in screens)
    heading = {"en": ("ADVICE for ANN", "Review of the game", "RECAP", "A SAVED GAME IS WAITING",
                      "PREFERENCES", "HALL OF FAME", "Quit the game?", "Post 12 in CHANCE?"),
               "de": ("TIPPS für ANN", "Rückblick auf das Spiel", "ÜBERSICHT",
                      "EIN GESPEICHERTES SPIEL WARTET", "EINSTELLUNGEN", "BESTENLISTE",
                      "Spiel beenden?", "12 in CHANCE eintragen?")}[code]
    assert all(words in text for words in heading)
    too_big = [(number, line) for number, screen in enumerate(screens) for line in screen
               if visible_width(line) > 80] + [(number, len(screen)) for number, screen
                                                in enumerate(screens) if len(screen) > 24]
    assert too_big == []


def placeholders_split(message: str) -> list[str]:
    """The words of a message between its {placeholders}."""
    return [part.strip() for part in re.split(r"\{\w*\}", message)]


def english_left_over(text: str) -> list[Any]:
    """English words and untranslated catalog messages on a German screen."""
    found = [word for word in ENGLISH_WORDS if re.search(rf"\b{word}\b", text)]
    for message, german in GERMAN.items():
        if isinstance(message, tuple) or not message or message == german:
            continue
        found += [part for part in placeholders_split(message)
                  if len(part.split()) >= 2 and len(part) >= 10 and part not in german
                  and part in text]
    return found


def test_a_german_game_in_key_mode_shows_only_the_catalogs_german(tmp_path: Path, speaking: Callable) -> None:
    recording = speaking("de")
    screens = screens_of_a_whole_tour(tmp_path)
    assert recording.missing == set()
    german = "\n".join("\n".join(screen) for screen in screens)
    assert english_left_over(german) == []
    assert "KNIFFEL" in german and "Dreierpasch" in german and "Endsumme".upper() in german


def test_a_german_game_in_plain_mode_shows_only_the_catalogs_german(tmp_path: Path, speaking: Callable,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from test_plain import interleave, play_plain, turn
    recording = speaking("de")
    boxes = ["1", "2", "3", "4", "5", "6", "t", "f", "h", "s", "l", "y", "c"]
    lines, faces = interleave([turn([2, 2, 2, 3, 3], box, extra=["?", "x", "b"]) for box in boxes])
    script = ["", "s", "x", "n", "ANN", "", "y"] + lines + ["r", "x", "y", "", "y", "q", "y"]
    speak = language.use
    monkeypatch.setattr(language, "use", lambda code: speak("de"))  # keep the recording catalog
    code, out, records = play_plain(tmp_path, monkeypatch, script, faces)
    assert code == 0 and len(records) == 1
    assert recording.missing == set()
    assert english_left_over(out) == []
    assert "ANN trägt 12 in CHANCE ein." in out and "Noch ein Spiel? (Y/N) oder R Rückblick" in out


def marked_messages() -> set[Union[tuple[str, str], str]]:
    """Every literal the package passes to _(), N_() or ngettext()."""
    return set(xgettext.messages(PACKAGE))


def test_every_marked_string_has_a_german_translation_and_the_catalog_no_stale_one() -> None:
    marked = marked_messages()
    untranslated = [key for key in marked if not GERMAN.get(key) or
                    isinstance(key, tuple) and not all(GERMAN[key])]
    assert untranslated == []
    assert set(GERMAN) - {""} - marked == set()
    english = msgfmt.read_po((PACKAGE / "locale" / "en" / "LC_MESSAGES" / "yahtzee.po").read_text("utf-8"))
    assert set(english) - {""} == marked  # the source strings themselves: every msgstr empty


def test_the_german_placeholders_are_the_english_ones() -> None:
    def fields(text: str) -> Any:
        return set(re.findall(r"\{(\w*)\}", text))
    wrong = [key for key in marked_messages()
             if (fields("".join(key)) if isinstance(key, tuple) else fields(key))
             != fields("".join(GERMAN[key]) if isinstance(key, tuple) else GERMAN[key])]
    assert wrong == []


# Strings in the package that are not for a player: messages of faults that never reach the
# screen, type hints, the dice's pip patterns and the advisor's labels as files keep them.
INTERNAL = {"end of input", "the output is gone", "the input is gone", "the terminal is gone",
            "the saved dice source is not valid", "the saved duplicate dice are not valid",
            "str | None", "int | None", "KeyPress | None", "o o", "reroll all", "extra turn",
            "extra turn +", "Computer Yahtzee ", " is not a number", "not a resume point: ",
            "module  has no attribute ", "python -m yahtzee", "the console is gone",
            "the Windows console reader runs only on Windows",
            "DSA is deprecated",  # a library's warning, matched to be filtered out
            "python3 -m venv .venv && .venv/bin/python -m pip install -e ."}  # commands, said as they are
MARKERS = ("_", "N_", "ngettext", "NC_", "pgettext", "Say", "plurals")
SOLVER = ("solver.py", "builder.py", "batch.py", "build_cache.py", "statespace.py", "stages.py",
          "dicemath.py", "position.py", "team.py", "levels.py")


def unmarked_strings(path: Path) -> Iterator[str]:
    """String literals of two words or more that are neither marked nor docstrings."""
    tree = parsed(path)
    skip: set[int] = set()
    for node in walked(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) in MARKERS:
            skip.update(id(arg) for arg in node.args)
        if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "record":  # the table's log: a file,
            skip.update(id(inner) for arg in node.args for inner in walked(arg))  # English as the saves are
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body and \
                isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant):
            skip.add(id(node.body[0].value))
        if isinstance(node, ast.JoinedStr):
            skip.update(id(value) for value in node.values)
    for node in walked(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.JoinedStr):
            text = "".join(str(v.value) for v in node.values if isinstance(v, ast.Constant))  # (str: an f-string's)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
        else:
            continue
        if sum(word.isalpha() for word in text.split()) >= 2 and text not in INTERNAL:
            yield f"{path.relative_to(ROOT)}:{node.lineno}: {text!r}"


def test_no_sentence_for_a_player_is_left_out_of_the_catalog() -> None:
    paths = [path for path in sorted(PACKAGE.rglob("*.py")) if path.name not in SOLVER]
    assert [line for path in paths for line in unmarked_strings(path)] == []


def test_no_module_that_translates_binds_the_name_of_the_translator() -> None:
    bound = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = parsed(path)
        for node in walked(tree):
            names = [n for n in walked(node) if isinstance(n, ast.Name) and n.id == "_"
                     and isinstance(n.ctx, ast.Store)] if isinstance(node, ast.FunctionDef) else []
            calls = any(isinstance(n, ast.Call) and getattr(n.func, "id", "") == "_"
                        for n in walked(node)) if names else False
            if names and calls:
                assert isinstance(node, ast.FunctionDef)  # (names are looked for in one only)
                bound.append(f"{path.name}: {node.name}")
    assert bound == []


def one_turn(tmp_path: Path, environ: dict[str, str], *options: Any) -> str:
    """The real program through pipes in this environment: one turn, then quit; what it printed."""
    keys = typed(["", "n", "ANN", "", "y", "", "r", "c", "y", "q", "y"])
    env = {key: value for key, value in os.environ.items()
           if key not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    env.update(environ)
    done = run_game(["--seed", "3", "--saves", str(tmp_path), *options], input=keys, env=env)
    assert done.returncode == 0 and done.stderr == ""
    return done.stdout


def test_the_program_speaks_german_when_asked_with_lang(tmp_path: Path) -> None:
    out = one_turn(tmp_path, {"LANG": "en_US.UTF-8"}, "--plain", "--lang", "de")
    assert "Computer-Kniffel" in out and "Wohin eintragen?" in out and "in CHANCE ein." in out
    assert english_left_over(out) == []


def test_the_program_speaks_german_when_the_environment_does(tmp_path: Path) -> None:
    out = one_turn(tmp_path, {"LANG": "de_DE.UTF-8"})
    assert "Bereit zum Spielen? (Y/N)" in out and "Das Spiel ist gespeichert" in out
    english = one_turn(tmp_path / "en", {"LANG": "de_DE.UTF-8", "LC_ALL": "C"})
    assert "Ready to play? (Y/N)" in english


def test_the_language_preference_is_kept_and_lang_outranks_it_for_one_run(tmp_path: Path) -> None:
    Saves(tmp_path).save_prefs(Prefs(language="de"))
    assert "Bereit zum Spielen?" in one_turn(tmp_path, {"LANG": "C"})
    (tmp_path / "autosave.json").unlink()  # the game it kept is not this run's subject
    assert "Ready to play?" in one_turn(tmp_path, {"LANG": "C"}, "--lang", "en")
    assert Saves(tmp_path).load_prefs().language == "de"


def test_the_german_help_is_german(tmp_path: Path) -> None:
    env = {**os.environ, "LANGUAGE": "de"}
    done = run_game(["--help"], env=env)
    assert "die Bestenliste und die Spielerstatistik zeigen" in done.stdout


def test_files_and_json_are_the_same_in_either_language(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from test_plain import interleave, play_plain, turn
    boxes = ["1", "2", "3", "4", "5", "6", "t", "f", "h", "s", "l", "y", "c"]
    lines, faces = interleave([turn([2, 2, 2, 3, 3], box) for box in boxes])
    kept = {}
    for code in ("en", "de"):
        folder = tmp_path / code
        folder.mkdir()
        script = ["", "n", "ANN", "", "y"] + lines + ["n"]
        _, _, records = play_plain(folder, monkeypatch, script, faces, "--lang", code)
        review = run_game(["--review", "--json", "--lang", code, "--saves", str(folder / "saves")], in_process=True)
        assert review.returncode == 0
        kept[code] = ([{k: v for k, v in r.items() if k != "finished"} for r in records], review.stdout)
    language.use("en")
    assert kept["de"] == kept["en"]
    assert '{"kind": "post", "box": "chance", "points": 12}' in kept["de"][1]  # values, in no language


def test_an_approximate_tables_note_is_said_in_the_readers_language_and_kept_in_english(speaking: Callable) -> None:
    from yahtzee.model.rules import HASBRO
    from yahtzee.model.words import source_text
    from yahtzee.strategy.exact.table import heuristic_note
    note = heuristic_note(HASBRO.with_options(bank=2), HASBRO)
    speaking("de")
    assert language.text(note).startswith("Die Tipps für ") and "sind Näherungen" in language.text(note)
    assert source_text(note).startswith("Advice for ") and "is approximate" in source_text(note)


@pytest.mark.parametrize("code", ["en", "de"])
def test_the_widest_play_screen_fits_in_both_languages(speaking: Callable, code: str) -> None:
    from helpers import loaded_session

    from yahtzee.model.game import Player
    from yahtzee.model.match import parse_match
    from yahtzee.model.rules import rules_named
    from yahtzee.present import render
    from yahtzee.screens import playscreen
    speaking(code)
    session = loaded_session([6] * 5, rules=rules_named("yahtc").with_options(rolls=4, bank=3),
                             match=parse_match("race 300"))
    session.players.extend(Player(name) for name in ("ANNIKA", "BERTHA", "CLAUDE", "DOMINI"))
    game = session.new_game()
    game.roll()
    legal = game.legal_boxes()
    hints = {box: (game.points_for(box), True) for box in legal}
    match = render.match_lines(session.match.describe(),
                               {p.name: 1000 for p in game.players})
    prompts = [playscreen.dice_prompt(game, hold) for hold in (True, False)] + [
        playscreen.posting_prompt(game, legal), playscreen.posting_question(game, legal[0]),
        *playscreen.dice_brief(game), playscreen.posting_note(game.post(legal[0]))]
    for prompt in prompts:
        lines = render.play_lines(game, True, True, prompt, keys={b: "X" for b in legal},
                                  hints=hints, match=match, par=True)
        assert len(lines) <= 24 and max(visible_width(line) for line in lines) <= 80, prompt


@pytest.mark.parametrize("code", ["en", "de"])
def test_the_advice_pages_columns_line_up_in_both_languages(speaking: Callable, code: str) -> None:
    from yahtzee.model.choices import Option, OptionKind
    from yahtzee.model.game import Game, Player
    from yahtzee.model.scoring import Category
    from yahtzee.present import render
    from yahtzee.present.palette import visible_width
    speaking(code)
    game = Game.start([Player("ANN")])
    game.turn.dice, game.turn.rolls = (1, 2, 3, 4, 5), 1
    game.turn.marked = (True, False, True, False, False)
    widest = Option(OptionKind.KEEP, 250.5, reroll=(False, True, False, True, True), kept=(1, 3))  # toggles 1-5
    ranked = [(widest, 0.4), (Option(OptionKind.KEEP, 1.5, reroll=(True,) * 5), 1.0),
              (Option(OptionKind.BOX, 200.0, box=Category.LARGE_STRAIGHT, points=40), 0.0),
              (Option(OptionKind.BOX, 210.0, box=Category.THREE_OF_A_KIND, yahtzee_bonus=100,
                     blank=True), 0.5)]  # Acorn
    lines = render.advice_lines(ranked, game.turn)
    values = [language.number(option.value, ".2f") for option, _chance in ranked]
    ends = {visible_width(line[:line.index(value)]) + len(value) for line, value in zip(lines[1:], values)}
    assert ("250,50" in values) == (code == "de")
    assert len(ends) == 1 and all(visible_width(line) <= 80 for line in lines)
    assert render.advice_keys(widest, game.turn, False).endswith("1 2 3 4 5 R")


def test_box_names_are_capitals_in_german_too_and_the_sheet_row_is_not(speaking: Callable) -> None:
    from yahtzee.model.scoring import Category
    speaking("de")
    titles = [language.text(box.title) for box in Category]
    assert all(title == title.upper() for title in titles) and language.text(Category.YAHTZEE.title) == "KNIFFEL"
    assert language._(scoring.SHEET_LABELS[Category.YAHTZEE]) == "Kniffel"
    speaking("en")
    assert (language.text(Category.YAHTZEE.title), language._(scoring.SHEET_LABELS[Category.YAHTZEE])) == (
        "YAHTZEE", "YAHTZEE")
