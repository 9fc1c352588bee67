"""Compile gettext .po catalogs into GNU .mo files (the standard library reads but cannot
write them): `python tools/msgfmt.py` compiles every catalog under yahtzee/locale."""
import ast
import struct
import sys
from pathlib import Path

LOCALE_DIR = Path(__file__).resolve().parent.parent / "yahtzee" / "locale"
CONTEXT = "\x04"  # joins a msgctxt to its msgid, in the .mo file as in these tools' keys


def read_po(text):
    """The catalog's entries: {msgid (or (msgid, plural)): msgstr or [msgstr per form]}, a
    msgid with a msgctxt keyed as context + CONTEXT + msgid; fuzzy entries are left out, as
    msgfmt leaves them."""
    entries, entry, field, fuzzy = {}, {}, None, False

    def close():
        if "msgid" in entry and not entry.get("fuzzy"):
            msgid = entry["msgctxt"] + CONTEXT + entry["msgid"] if "msgctxt" in entry else entry["msgid"]
            key = (msgid, entry["msgid_plural"]) if "msgid_plural" in entry else msgid
            forms = [entry[name] for name in sorted(entry) if name.startswith("msgstr[")]
            entries[key] = forms if "msgid_plural" in entry else entry.get("msgstr", "")

    for line in (line.strip() for line in text.splitlines()):
        if line.startswith("#,") and "fuzzy" in line:
            fuzzy = True
        elif line.startswith('"') and field:
            entry[field] += ast.literal_eval(line)
        elif line and not line.startswith("#"):
            field, _, value = line.partition(" ")
            if field == "msgctxt" or field == "msgid" and ("msgid" in entry or "msgctxt" not in entry):
                close()
                entry, fuzzy = {"fuzzy": fuzzy}, False
            entry[field] = ast.literal_eval(value)
    close()
    return entries


def mo_bytes(entries):
    """The GNU .mo file of a catalog (untranslated entries left out, keys sorted)."""
    pairs = []
    for key, value in entries.items():
        if isinstance(key, tuple):
            if any(value):
                pairs.append(("\0".join(key), "\0".join(value)))
        elif value or key == "":
            pairs.append((key, value))
    pairs = sorted((k.encode("utf-8"), v.encode("utf-8")) for k, v in pairs)
    count, start = len(pairs), 7 * 4
    keys_at = start + count * 16
    offsets, blob = [], b""
    for key, _ in pairs:
        offsets.append((len(key), keys_at + len(blob)))
        blob += key + b"\0"
    values_at = keys_at + len(blob)
    value_blob = b""
    for _, value in pairs:
        offsets.append((len(value), values_at + len(value_blob)))
        value_blob += value + b"\0"
    header = struct.pack("<7I", 0x950412DE, 0, count, start, start + count * 8, 0, 0)
    table = b"".join(struct.pack("<2I", length, at) for length, at in offsets)
    return header + table + blob + value_blob


def compile_all(locale_dir=LOCALE_DIR):
    """Compile every .po under `locale_dir` into the .mo beside it; the paths written."""
    written = []
    for po in sorted(Path(locale_dir).glob("*/LC_MESSAGES/*.po")):
        po.with_suffix(".mo").write_bytes(mo_bytes(read_po(po.read_text(encoding="utf-8"))))
        written.append(po.with_suffix(".mo"))
    return written


if __name__ == "__main__":
    for path in compile_all(Path(sys.argv[1]) if len(sys.argv) > 1 else LOCALE_DIR):
        print(path)
