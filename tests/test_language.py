"""The player's language: how it is chosen, and the catalogs that carry it."""
import sys
from pathlib import Path
from typing import Optional, Union

import pytest

from yahtzee.speech import languages as language
from yahtzee.speech import locales

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import msgfmt  # noqa: E402
import xgettext  # noqa: E402


@pytest.mark.parametrize("flag, pref, environ, chosen", [
    ("de", "en", {"LANG": "en_US.UTF-8"}, "de"),
    ("EN", "de", {"LANG": "de_DE.UTF-8"}, "en"),
    (None, "de", {"LANG": "en_US.UTF-8"}, "de"),
    (None, "en", {"LANGUAGE": "de"}, "en"),
    (None, "auto", {"LANG": "de_DE.UTF-8"}, "de"),
    (None, None, {"LANG": "de_AT"}, "de"),
    (None, "auto", {"LANGUAGE": "de:en", "LANG": "en_GB.UTF-8"}, "de"),
    (None, "auto", {"LANGUAGE": ":en", "LC_ALL": "de_DE"}, "en"),
    (None, "auto", {"LANGUAGE": "", "LC_ALL": "de_CH.UTF-8", "LANG": "en_US"}, "de"),
    (None, "auto", {"LC_ALL": "", "LC_MESSAGES": "de_DE@euro", "LANG": "C"}, "de"),
    (None, "auto", {"LC_ALL": "C.UTF-8", "LANG": "de_DE.UTF-8"}, "en"),
    (None, "auto", {"LANG": "POSIX"}, "en"),
    (None, "auto", {"LANG": "fr_FR.UTF-8"}, "en"),
    (None, "auto", {"LANG": "deutsch"}, "en"),
    (None, "auto", {}, "en"),
])
def test_the_flag_then_the_preference_then_the_environment_choose_the_language(
        flag: Optional[str], pref: Optional[str], environ: dict[str, str], chosen: str) -> None:
    assert locales.choose(flag, pref, environ) == chosen


def test_an_unknown_lang_code_is_a_one_line_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    from yahtzee.cli import main
    with pytest.raises(SystemExit) as stop:
        main(["--lang", "fr", "--stats"])
    assert stop.value.code == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_the_committed_mo_files_are_what_the_po_files_compile_to() -> None:
    catalogs = sorted((ROOT / "yahtzee" / "locale").glob("*/LC_MESSAGES/yahtzee.po"))
    assert [po.parent.parent.name for po in catalogs] == ["de", "en"]
    for po in catalogs:
        entries = msgfmt.read_po(po.read_text(encoding="utf-8"))
        assert po.with_suffix(".mo").read_bytes() == msgfmt.mo_bytes(entries)


def test_the_compiled_catalog_translates_plurals_through_gettext(tmp_path: Path) -> None:
    import gettext
    import io
    entries = {"": "Content-Type: text/plain; charset=UTF-8\nPlural-Forms: nplurals=2; "
                   "plural=(n != 1);\n",
               "Roll": "Würfeln", ("{} die", "{} dice"): ["{} Würfel", "{} Würfel!"], "Quit": ""}
    catalog = gettext.GNUTranslations(io.BytesIO(msgfmt.mo_bytes(entries)))
    assert catalog.gettext("Roll") == "Würfeln"
    assert catalog.gettext("Quit") == "Quit"  # untranslated: the source string
    entries["box\x04Roll"] = "Wurf"  # a context: the same English, other German
    catalog = gettext.GNUTranslations(io.BytesIO(msgfmt.mo_bytes(entries)))
    assert (catalog.pgettext("box", "Roll"), catalog.gettext("Roll")) == ("Wurf", "Würfeln")
    assert [catalog.ngettext("{} die", "{} dice", n) for n in (1, 2)] == ["{} Würfel", "{} Würfel!"]


def test_the_po_reader_takes_what_the_catalog_writer_writes() -> None:
    found = {"plain": ["a:1"], 'with "quotes"\nand a line': ["b:2"], ("one", "many"): ["c:3"],
             "box\x04YAHTZEE": ["d:4"], "YAHTZEE": ["e:5"]}
    known = {"plain": "schlicht", 'with "quotes"\nand a line': "mit", ("one", "many"): ["1", "2"],
             "box\x04YAHTZEE": "KNIFFEL", "YAHTZEE": "Kniffel"}
    entries = msgfmt.read_po(xgettext.po_text(found, "de", known))
    assert {key: value for key, value in entries.items() if key} == known


def test_the_template_holds_exactly_the_strings_the_package_marks() -> None:
    template = msgfmt.read_po((ROOT / "yahtzee" / "locale" / "yahtzee.pot").read_text("utf-8"))
    assert set(template) - {""} == set(xgettext.messages())


@pytest.mark.parametrize("value, spec, english, german", [
    (1234.5, ",.1f", "1,234.5", "1.234,5"), (0.483, ".1%", "48.3%", "48,3%"), (250.0, ".2f", "250.00", "250,00"),
    (12, "", "12", "12"), (200000, ",", "200,000", "200.000"),
])
def test_numbers_are_written_as_the_language_writes_them(
        value: Union[float, int], spec: str, english: str, german: str) -> None:
    try:
        language.use("de")
        assert language.number(value, spec) == german
    finally:
        language.use("en")
    assert language.number(value, spec) == english
