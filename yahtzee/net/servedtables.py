"""The tables of a server of tables (hall.py): each open table's share of the logins and what
the page lists of it, and the tables saved in the server's folder, one folder a table, that
one of their players may take up."""
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from ..consoles.keymode import KeyConsole
from ..model.game import MAX_PLAYERS
from ..model.match import SINGLE_GAME
from ..model.session import Session
from ..model.words import Say
from ..saves.atomic import write_atomically
from ..saves.store import AUTOSAVE, Saves
from .hallpage import Listed
from .owners import CODE_LENGTH, CODE_LETTERS, MAX_CODE_CHARS, new_code, plain_code
from .seat import RemoteSeat

JOIN_LINE = Say("Others join this table from the server's page of tables.")
PRIVATE_JOIN_LINE = Say("Others join this private table from the server's page of tables with its code {code}.")
SAVED_DAYS = 30  # a saved table nobody took up for this long is set aside (its folder renamed, not deleted)
MAX_FOLDERS_PER_NAME = 3  # the tables a name hosts, open or saved: its own folder and two more
CODE_FILE = "code"  # a private table's code, kept in its folder: saved, it stays private


class HallTable:
    """One table's share of the hall's logins, as its game sees its server (a SeatServer):
    the players sent to it from the hall, who go back to the page when they leave it."""

    def __init__(self, changed: Callable[[], None], back: Callable[[RemoteSeat], None], code: str = "") -> None:
        self.changed = changed  # the table's game looks around: a player came or went
        self.back = back  # a player's connection back to the page of tables
        self.code = code  # a private table's: joined only with it
        self._seats: list[RemoteSeat] = []  # every player sent here, gone or not
        self._lock = threading.Lock()

    def start(self) -> None:
        """Nothing to start: the hall listens for every table."""

    def add(self, seat: RemoteSeat) -> None:
        """A player from the hall sits down here (or watches)."""
        with self._lock:
            self._seats.append(seat)
        self.changed()

    def discard(self, seat: RemoteSeat) -> None:
        """A player here hosts the table now: their terminal is no longer one of its logins."""
        with self._lock:
            self._seats = [kept for kept in self._seats if kept is not seat]

    def present(self) -> list[RemoteSeat]:
        """The players at this table now."""
        with self._lock:
            return [seat for seat in self._seats if not seat.gone and seat.successor is None]

    def remove(self, name: str, seat: Optional[RemoteSeat]) -> None:
        """The table's host removed `name`: if here, they go back to the page."""
        if seat is not None:
            self.back(seat)

    def how_to_join(self) -> Say:
        """How others find this table: on the server's page of tables (a private one's with its code)."""
        return join_line(self.code)

    def close(self) -> None:
        """The table ended: every player still connected goes back to the page."""
        with self._lock:
            seats = list(self._seats)
        for seat in seats:
            self.back(seat)


@dataclass
class OpenTable:
    """A table of the hall: its number, its host's terminal, the session its game plays, and
    its share of the logins (once its game made its server)."""

    number: int
    host: RemoteSeat
    console: KeyConsole  # the host's, which a stop request reaches first
    folder: str  # its saves' folder's name, under the server's tables/
    session: Callable[[], Session]
    seats: Optional[HallTable] = None
    code: str = ""  # a private table's: joined only with it

    def asks_code_of(self, name: str) -> bool:
        """Whether a login of this name needs the table's code to join it (a private table's, but
        of its own players, whose seats are proved as always)."""
        return bool(self.code) and name.casefold() not in {player.name.casefold() for player in self.session().players}

    def listed(self) -> Listed:
        """This table as the hall lists it: while it waits, the seats taken (its players so far,
        its host, the friends who took one) and how many are free."""
        session = self.session()
        game = session.game
        under_way = game is not None and not game.is_over
        players = [player.name for player in session.players]
        free = None
        if not under_way:
            seated = [seat.name for seat in (self.seats.present() if self.seats else []) if seat.name.casefold()
                      in session.seats]
            players = list({name.casefold(): name for name in [*players, self.host.name, *seated]}.values())
            free = max(0, MAX_PLAYERS - len(players))
        return Listed(self.number, self.host.name, session.rules.describe(), tuple(players),
                      len(session.seats.watchers()), under_way, private=bool(self.code), match=match_of(session),
                      free=free)


@dataclass(frozen=True)
class SavedTable:
    """A table saved in the server's folder that nobody plays now: its folder's name, what the
    page lists of it, and the players who may take it up (folded names)."""

    folder: str
    listed: Listed
    players: frozenset[str]
    code: str = ""  # a private table's


def saved_tables(tables: Path, open_folders: Iterable[str], first_number: int,
                 now: Optional[float] = None) -> list[SavedTable]:
    """The tables saved under `tables` whose folders no open table uses, numbered on from
    `first_number` in their folders' order (a damaged save is set aside, as at any start; one
    saved more than SAVED_DAYS ago too: its folder renamed NAME.expired-TIME)."""
    busy, found, now = set(open_folders), list[SavedTable](), time.time() if now is None else now
    folders = sorted(path for path in tables.glob("*") if path.name not in busy and "." not in path.name
                     and (path / AUTOSAVE).is_file())
    for path in folders:
        saved_at = (path / AUTOSAVE).stat().st_mtime
        if now - saved_at > SAVED_DAYS * 24 * 3600:
            path.rename(path.with_name(f"{path.name}.expired-{int(saved_at)}"))
            continue
        loaded = Saves(path).load_session()
        if loaded is None or not loaded[0].players:
            continue
        session = loaded[0]
        humans = [player.name for player in session.players if not player.is_computer]
        code = kept_code(path)
        listed = Listed(first_number + len(found), humans[0] if humans else "-", session.rules.describe(),
                        tuple(player.name for player in session.players), 0, False, saved=True, private=bool(code),
                        match=match_of(session))
        found.append(SavedTable(path.name, listed, frozenset(name.casefold() for name in humans), code))
    return found


def match_of(session: Session) -> Optional[Say]:
    """A session's match in a few words, where it plays one (a single game: None)."""
    return None if session.match == SINGLE_GAME else session.match.describe()


def keep_code(folder: Path, code: str) -> None:
    """A table's code kept in its folder, or none (a table that is not private)."""
    path = folder / CODE_FILE
    if not code:
        path.unlink(missing_ok=True)
        return
    folder.mkdir(parents=True, exist_ok=True)
    write_atomically(path, code.encode())


def kept_code(folder: Path) -> str:
    """The code kept in a table's folder ('' for none); one that cannot be read is replaced by a
    new one, kept: a private table never opens to all."""
    path = folder / CODE_FILE
    if not path.exists():
        return ""
    try:
        code = plain_code(path.read_bytes()[:MAX_CODE_CHARS].decode("ascii"))
    except (OSError, UnicodeDecodeError):
        code = ""
    if len(code) != CODE_LENGTH or any(char not in CODE_LETTERS for char in code):
        code = new_code()
        keep_code(folder, code)
    return code


def join_line(code: str) -> Say:
    """How others join a table: from the page, and with its code if it has one."""
    return PRIVATE_JOIN_LINE.format(code=code) if code else JOIN_LINE


def folder_name(name: str) -> str:
    """A login name as a folder's name: letters and digits kept, every other character as its code."""
    return "".join(char if char.isascii() and char.isalnum() else f"_{ord(char):x}" for char in name.casefold())


def new_table_folder(name: str, busy: Iterable[str]) -> Optional[str]:
    """The folder of a table `name` starts: their own, unless an open table uses it, then one of
    MAX_FOLDERS_PER_NAME in all (so a name keeps that many saved tables at most); None when
    every one is open."""
    taken, base = set(busy), folder_name(name)
    candidates = (base, *(f"{base}-{n}" for n in range(2, MAX_FOLDERS_PER_NAME + 1)))
    return next((candidate for candidate in candidates if candidate not in taken), None)
