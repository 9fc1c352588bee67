"""The seats of a game played from friends' own terminals, as a model value: what a proof makes
of a seat (a table of cases), whose the seats stay, and the snapshot another thread reads."""
import pytest

from yahtzee.model.game import MAX_PLAYERS
from yahtzee.model.seatowners import Claim, Seats, SeatsSnapshot


@pytest.mark.parametrize(("owners", "proof", "may_take", "claim"), [
    ({"bob": "SHA256:Bob"}, "SHA256:Bob", False, Claim.YOURS),
    ({"bob": "SHA256:Bob"}, "SHA256:Eve", True, Claim.NOT_YOURS),
    ({"bob": "SHA256:Bob"}, "", True, Claim.NOT_YOURS),  # the password does not prove a key's seat
    ({"bob": ""}, "code:abc", False, Claim.OPEN),  # a saved game's seat not yet proved: even in play
    ({}, "", True, Claim.OPEN),  # before the game, a name is a seat to come
    ({}, "SHA256:Bob", False, Claim.NONE),  # once the game is under way, a new name watches
    ({"ann": "a", "cat": "c", "dan": "d", "eve": "e"}, "", True, Claim.NONE),  # every seat taken
])
def test_a_proof_makes_of_a_seat_what_the_seat_contract_says(owners: dict[str, str], proof: str, may_take: bool,
                                                              claim: Claim) -> None:
    assert Seats(owners).claim("bob", proof, may_take) is claim


def test_the_seats_taken_freed_and_kept_are_those_the_game_asks_for() -> None:
    seats = Seats()
    for key in ("ann", "bob", "cat"):
        seats.take(key, f"SHA256:{key}")
    seats.free("cat")
    assert seats.owners() == {"ann": "SHA256:ann", "bob": "SHA256:bob"} and "cat" not in seats
    seats.keep_only({"bob", "dan"})
    assert seats.owners() == {"bob": "SHA256:bob"} and seats.owner("bob") == "SHA256:bob"
    assert seats.owner("ann") is None and MAX_PLAYERS == 4


def test_a_snapshot_is_the_seats_as_they_stood_and_later_changes_leave_it_alone() -> None:
    seats = Seats({"bob": "SHA256:Bob"})
    seats.remove(("eve", "@127.0.0.2"))
    before = seats.snapshot()
    seats.take("cat", "")
    seats.remove(("dan", "SHA256:Dan"))
    assert before == SeatsSnapshot({"bob": "SHA256:Bob"}, frozenset({("eve", "@127.0.0.2")}))
    assert before.proof_of("BOB") == "SHA256:Bob" and before.proof_of("cat") == ""
    assert seats.snapshot().removed == {("eve", "@127.0.0.2"), ("dan", "SHA256:Dan")}


def test_removals_carry_to_the_game_that_replaces_a_saved_game_set_aside() -> None:
    offered, new = Seats({"bob": "SHA256:Bob"}), Seats()
    offered.remove(("bob", "SHA256:Bob"))
    new.carry_removals(offered)
    assert new.snapshot() == SeatsSnapshot({}, frozenset({("bob", "SHA256:Bob")}))

