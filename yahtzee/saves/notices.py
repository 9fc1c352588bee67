"""What the saves folder tells the player: every notice it can give, made safe to show on one
line (the console wraps it), and the reasons a player understands for what the system said."""
import errno
import unicodedata
from dataclasses import replace
from typing import Optional, cast

from ..model.words import N_, Field, Joined, Say, Text
from . import atomic

MAX_DETAIL_CHARS = 400  # a reason is said whole (the console wraps it); only a runaway one is cut

# Every notice the saves folder can give, with the whole reason ({detail}) and the whole name
# of a file kept aside ({kept}); the console wraps it at its width.
SAVING_OFF = N_("saving is off: {name}: {detail}")
READ_ONLY = N_("the saves folder cannot be written: this game's progress will not be kept")
BUSY = N_("another copy of the game has the saved game: this one will not be autosaved")
NOT_IN_HISTORY = N_("this game was not added to the history: {detail}")
SET_ASIDE = N_("damaged {name} kept as {kept}: {detail}")
NOT_SET_ASIDE = N_("{name} could not be set aside: {detail}")
NOT_READ = N_("{name} could not be read: {detail}")
NOT_SAVED = N_("{name} was not saved: {detail}")
HISTORY_REPAIRED = N_("{name}: {count} damaged line(s) skipped; old file kept as {kept}")
HISTORY_NOT_REPAIRED = N_("{name}: {count} damaged line(s) skipped; no repair: {detail}")
HISTORY_TOO_LARGE = N_("{name} over {size} MB, kept as {kept}: new statistics")
NOTICES = (SAVING_OFF, READ_ONLY, BUSY, NOT_IN_HISTORY, SET_ASIDE, NOT_SET_ASIDE, NOT_READ, NOT_SAVED,
           HISTORY_REPAIRED, HISTORY_NOT_REPAIRED, HISTORY_TOO_LARGE)


def fit_notice(template: str, **fields: Field) -> Say:
    """The notice with its fields filled in, safe to show on one line (the console wraps it)."""
    return Say(template).format(**{name: cleaned(value) for name, value in fields.items()})


def cleaned(words: Field) -> Field:
    """Words with every text from outside in them (a name, a system's reason, a file's content)
    made safe to show on one line."""
    if isinstance(words, str):
        return one_line(words, MAX_DETAIL_CHARS)
    if isinstance(words, Say):
        return replace(words, fields=tuple((name, cleaned(value)) for name, value in words.fields))
    if isinstance(words, Joined):
        return Joined(tuple(cast("Text", cleaned(part)) for part in words.parts), words.between)
    return words


_ERRNO_WORDS: dict[Optional[int], str] = {
    errno.ENOSPC: N_("the disk is full"),
    errno.EDQUOT: N_("the disk quota is used up"),
    errno.EROFS: N_("the saves folder is on a read-only disk"),
    errno.EACCES: N_("no permission to write in the saves folder"),
    errno.EPERM: N_("no permission to write in the saves folder"),
    errno.ENOTDIR: N_("the saves folder is not a folder"),
    errno.EEXIST: N_("the saves folder is not a folder"),
}


def describe_os_error(error: OSError) -> Text:
    """A short reason a player understands for an OSError."""
    if isinstance(error, atomic.NotAFile):
        return error.said
    words = _ERRNO_WORDS.get(error.errno)
    return Say(words) if words else error.strerror or error.__class__.__name__


def one_line(text: str, limit: int) -> str:
    """Text safe to show: control characters replaced, cut to `limit` characters."""
    clean = "".join(c if c.isprintable() and unicodedata.category(c) != "Cf" else "?" for c in text)
    return clean if len(clean) <= limit else clean[:limit - 3] + "..."

