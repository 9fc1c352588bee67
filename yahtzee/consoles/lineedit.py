"""A line of free text being typed (a name): characters, a cursor, and the keys that edit them."""
from typing import Callable, Optional

from prompt_toolkit.key_binding import KeyPress
from prompt_toolkit.keys import Keys
from prompt_toolkit.utils import get_cwidth

from ..present.keys import LINE_KEYS, Key


class LineEditor:
    """The text typed so far and where the cursor stands; `limit` terminal cells as the player
    sees them (unless the line starts with `unlimited`, as a computer seat's '*gambler Zed'
    does), and `cells` cells at most in any case (the room on the screen)."""

    def __init__(self, text: str = "", limit: "int | None" = None, cells: "int | None" = None,
                 unlimited: str = "") -> None:
        self.text = ""
        self.cursor = 0
        self.limit = limit
        self.cells = cells
        self.unlimited = unlimited
        self.insert(text)

    def press(self, press: KeyPress) -> Optional[Key]:
        """Apply a key press; Enter or a hot key when the line is done, else None."""
        done = LINE_KEYS.get(press.key)
        if done is not None:
            return done
        edit = EDITS.get(press.key)
        if edit is not None:
            edit(self)
        elif not isinstance(press.key, Keys):
            self.insert(press.data)
        return None

    def insert(self, typed: str) -> None:
        """Type characters at the cursor while they fit; anything unprintable types nothing."""
        for char in typed:
            if char.isprintable() and self._fits(char):
                self.text = self.text[:self.cursor] + char + self.text[self.cursor:]
                self.cursor += 1

    def _fits(self, char: str) -> bool:
        limited = not (self.unlimited and self.text.startswith(self.unlimited))
        if limited and self.limit is not None and get_cwidth(self.text + char) > self.limit:
            return False
        return self.cells is None or get_cwidth(self.text + char) <= self.cells

    def _cut(self, start: int, end: int) -> None:
        self.text = self.text[:start] + self.text[end:]
        self.cursor = start

    def backspace(self) -> None:
        """Delete the character before the cursor."""
        if self.cursor:
            self._cut(self.cursor - 1, self.cursor)

    def delete(self) -> None:
        """Delete the character under the cursor."""
        self._cut(self.cursor, min(len(self.text), self.cursor + 1))

    def delete_word(self) -> None:
        """Delete the word before the cursor (Ctrl-W)."""
        start = len(self.text[:self.cursor].rstrip().rpartition(" ")[0])
        self._cut(start + (1 if start else 0), self.cursor)

    def move(self, to: int) -> None:
        """Put the cursor at a position within the text."""
        self.cursor = max(0, min(len(self.text), to))


EDITS: dict[str, Callable[[LineEditor], None]] = {
    Keys.ControlH: LineEditor.backspace,
    Keys.Delete: LineEditor.delete,
    Keys.ControlW: LineEditor.delete_word,
    Keys.ControlU: lambda line: line._cut(0, line.cursor),
    Keys.ControlK: lambda line: line._cut(line.cursor, len(line.text)),
    Keys.Left: lambda line: line.move(line.cursor - 1),
    Keys.ControlB: lambda line: line.move(line.cursor - 1),
    Keys.Right: lambda line: line.move(line.cursor + 1),
    Keys.ControlF: lambda line: line.move(line.cursor + 1),
    Keys.Home: lambda line: line.move(0),
    Keys.ControlA: lambda line: line.move(0),
    Keys.End: lambda line: line.move(len(line.text)),
    Keys.ControlE: lambda line: line.move(len(line.text)),
}
