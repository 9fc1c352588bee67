"""Gather the player-visible strings (the literals passed to _(), N_(), ngettext(), Say() and Say.plurals()) from
the package into yahtzee/locale/yahtzee.pot, and bring each language's .po in step with it
(translations kept, new strings added untranslated, strings no longer used dropped):
`python tools/xgettext.py`, then translate, then `python tools/msgfmt.py`."""
import ast
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from msgfmt import CONTEXT, LOCALE_DIR, read_po  # noqa: E402

PACKAGE = LOCALE_DIR.parent
HEADER = {"en": "Plural-Forms: nplurals=2; plural=(n != 1);",
          "de": "Plural-Forms: nplurals=2; plural=(n != 1);"}


def literal(node):
    """The string a call argument holds, or None when it is not a plain literal."""
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def messages(package=PACKAGE):
    """{msgid, context + CONTEXT + msgid or (singular, plural): [files]} in the order the
    package first uses them."""
    found = {}
    for path in sorted(Path(package).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call)]
        for node in sorted(calls, key=lambda node: (node.lineno, node.col_offset)):
            args = [literal(arg) for arg in node.args]
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            context = next((literal(k.value) for k in node.keywords if k.arg == "context"), None)
            if name == "plurals" and len(args) == 3 and None not in args[:2]:
                key = (args[0], args[1])
            elif not isinstance(node.func, ast.Name):
                continue
            elif name == "Say" and args and args[0] is not None:
                key = (context + CONTEXT + args[0]) if context else args[0]
            elif name in ("_", "N_") and len(args) == 1 and args[0] is not None:
                key = args[0]
            elif name in ("pgettext", "NC_") and len(args) == 2 and None not in args:
                key = args[0] + CONTEXT + args[1]
            elif name == "ngettext" and len(args) == 3 and None not in args[:2]:
                key = (args[0], args[1])
            else:
                continue
            places = found.setdefault(key, [])
            place = str(path.relative_to(package.parent))  # no line numbers: fewer merge conflicts
            places += [] if place in places else [place]
    return found


def quoted(text):
    """A .po string literal."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def po_text(found, language=None, known=None):
    """The template (language None) or a language's catalog, keeping `known` translations."""
    known = known or {}
    header = ("Project-Id-Version: computer-yahtzee\\n" "Content-Type: text/plain; charset=UTF-8\\n"
              f"Language: {language or ''}\\n" f"{HEADER.get(language, HEADER['en'])}\\n")
    lines = ['msgid ""', f'msgstr "{header}"', ""]
    for key, places in found.items():
        lines.append("#: " + " ".join(places))
        if isinstance(key, tuple):
            forms = known.get(key) or ["", ""]
            lines += [f"msgid {quoted(key[0])}", f"msgid_plural {quoted(key[1])}",
                      *[f"msgstr[{n}] {quoted(form)}" for n, form in enumerate(forms)]]
        else:
            context, _, msgid = key.rpartition(CONTEXT)
            lines += [f"msgctxt {quoted(context)}"] if context else []
            lines += [f"msgid {quoted(msgid)}", f"msgstr {quoted(known.get(key, ''))}"]
        lines.append("")
    return "\n".join(lines)


def update(locale_dir=LOCALE_DIR):
    """Write the template and bring every language's catalog in step with the package."""
    found = messages()
    (locale_dir / "yahtzee.pot").write_text(po_text(found), encoding="utf-8")
    for po in sorted(locale_dir.glob("*/LC_MESSAGES/yahtzee.po")):
        known = read_po(po.read_text(encoding="utf-8"))
        po.write_text(po_text(found, po.parent.parent.name, known), encoding="utf-8")
    return found


if __name__ == "__main__":
    print(f"{len(update())} messages")
