"""The host's page of who is at the table: each friend's seat or watch, where they came from
and how they proved themselves, numbered for the host to remove one."""
from collections.abc import Sequence
from dataclasses import dataclass

from ..model.checks import NAME_CELLS
from ..model.words import Say, Text
from ..present.look import Look, View, framed
from ..present.palette import cut_to_cells, pad
from .owners import by_code

FINGERPRINT_CHARS = 16  # of a key's fingerprint, enough to tell two keys apart on the page


@dataclass(frozen=True)
class Present:
    """Someone at the table: a friend at a seat (here or away) or a watcher."""

    name: str
    seated: bool  # plays a seat (else watches)
    here: bool  # connected now (a seat's friend may be away)
    proof: str  # their key's fingerprint, their seat's code proof, or '' (the password)
    address: str = ""  # where they came from ('' while away)


def roster_view(people: Sequence[Present], how_to_join: Text) -> View:
    """The page, with how friends join under the list and a question under it."""
    def listed(look: Look) -> list[str]:
        lines = [look.words(Say("Who is at the table")), ""]
        lines += [f"{number:>2}  {entry_line(look, person)}" for number, person in enumerate(people, 1)]
        if not people:
            lines.append(look.words(Say("Nobody has joined over SSH.")))
        return [*lines, "", look.words(how_to_join), ""]
    return framed(listed)


def entry_line(look: Look, person: Present) -> str:
    """One person's line: name, seat or watch, where from, and how they logged in."""
    role = Say("plays") if person.seated else Say("watches")
    where = Say("here from {address}").format(address=person.address) if person.here else Say("away")
    return "  ".join([pad(person.name, NAME_CELLS), pad(look.words(role), 8),
                      pad(cut_to_cells(look.words(where), 26), 26), look.words(proved_by(person.proof))])


def proved_by(proof: str) -> Text:
    """How someone logged in, as the page says it."""
    if by_code(proof):
        return Say("password, rejoin code")
    if proof:
        return Say("key {fingerprint}").format(fingerprint=proof[:FINGERPRINT_CHARS] + "...")
    return Say("password")
