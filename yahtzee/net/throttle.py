"""The host's notices from the server, held to a few: not the same line again within a gap, nor
more than a few lines of one kind (a flood of refusals is a few lines, not a flood of lines;
the log keeps every one)."""
import collections

from ..model.words import Say, Text

NOTICES_OF_A_KIND = 3  # the most lines of one kind (one message, whatever its names and numbers) in NOTICE_GAP
NOTICE_GAP = 5.0  # seconds before the host is told the same line again


def kind_of(line: Text) -> object:
    """What a notice says whatever its names and numbers: its message."""
    return line.code if isinstance(line, Say) else line


class NoticeThrottle:
    """The lines told lately, oldest first, and when."""

    def __init__(self) -> None:
        self._told: collections.OrderedDict[Text, float] = collections.OrderedDict()

    def __len__(self) -> int:
        """How many lines it remembers (none older than the gap)."""
        return len(self._told)

    def lets_through(self, line: Text, now: float) -> bool:
        """Whether `line` is told at `now` (remembered, if so); every kind of line gets through."""
        while self._told and now - next(iter(self._told.values())) >= NOTICE_GAP:
            self._told.popitem(last=False)  # the oldest first: what is left was told within the gap
        kind = kind_of(line)
        if line in self._told or sum(kind_of(told) == kind for told in self._told) >= NOTICES_OF_A_KIND:
            return False
        self._told[line] = now
        return True
