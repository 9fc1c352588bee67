"""Where the dice come from: true randomness, a seed reseeded every turn, duplicate dice
shared by every seat, or faces loaded from a text (yahtzee.saves.dicefile reads the file)."""
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Optional, Protocol, Union

from .words import N_, Refusal, Say, Text

# The one source of these two facts of the game: five dice, faces 1 to 6.
DICE_COUNT = 5
FACES = range(1, 7)
FACE_DIGITS = frozenset(str(face) for face in FACES)  # a face as a dice file and the move log write it
MAX_DRAWN_SEED = 10 ** 9
DUPLICATE_LINE = N_("Dice: duplicate, every player rolls the same dice")


class DiceFileError(Refusal):
    """A loaded-dice file that cannot be used, with the reason for the player."""


@dataclass(frozen=True)
class RandomState:
    """Truly random dice: nothing to keep."""

    def source(self) -> "RandomDice":
        """Dice in this state."""
        return RandomDice()


@dataclass(frozen=True)
class SeededState:
    """Seeded dice: the seed, the turn (game, round, seat) last reseeded for, the faces drawn since."""

    seed: int
    turn: tuple[int, int, int]
    drawn: int

    def source(self) -> "SeededDice":
        """Dice in this state."""
        return SeededDice(self.seed, self.turn, self.drawn)


@dataclass(frozen=True)
class LoadedState:
    """Loaded dice: the faces not yet used and the state of the dice that follow them."""

    faces: tuple[int, ...]
    fallback: "CountingState"

    def source(self) -> "LoadedDice":
        """Dice in this state."""
        return LoadedDice(self.faces, self.fallback.source())


@dataclass(frozen=True)
class DuplicateState:
    """Duplicate dice: the seed, the turn, how often each die has been thrown in it, and whether
    the seed was drawn for the session."""

    seed: int
    turn: tuple[int, int, int]
    thrown: tuple[int, ...]
    random_seed: bool

    def source(self) -> "DuplicateDice":
        """Dice in this state."""
        return DuplicateDice(self.seed, self.turn, self.thrown, self.random_seed)


# The states of the dice that roll by count, and of any dice.
CountingState = Union[RandomState, SeededState, LoadedState]
DiceState = Union[CountingState, DuplicateState]


class DiceSource(Protocol):
    """What the game asks of the dice: a seed (None: none), a new turn, faces, and the state to
    keep. Duplicate dice are the one source that rolls by place instead (see throw and Source)."""

    @property
    def seed(self) -> Optional[int]: ...

    @property
    def state(self) -> CountingState: ...

    def start_turn(self, game: int, round_: int, seat: int) -> None: ...

    def roll(self, count: int) -> list[int]: ...


class RandomDice:
    """Truly random dice from the operating system."""

    seed = None

    def __init__(self, rng: Optional[random.Random] = None) -> None:
        self._rng = rng or random.SystemRandom()

    def start_turn(self, game: int, round_: int, seat: int) -> None:
        """Nothing to reseed: every roll is fresh randomness."""

    def roll(self, count: int) -> list[int]:
        """`count` new faces."""
        return [self._rng.choice(FACES) for _ in range(count)]

    @property
    def state(self) -> RandomState:
        """Nothing to keep."""
        return RandomState()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RandomDice)


class SeededDice:
    """Reproducible dice, reseeded at the start of every player's turn."""

    def __init__(self, seed: int, turn: tuple[int, int, int] = (1, 1, 0), drawn: int = 0) -> None:
        self.seed = seed
        self.start_turn(*turn)
        self.roll(drawn)

    def start_turn(self, game: int, round_: int, seat: int) -> None:
        """Reseed from (seed, game, round, seat), as the original reseeded every turn."""
        self.turn = (game, round_, seat)
        self.drawn = 0
        self._rng = random.Random(f"{self.seed}/{game}/{round_}/{seat}")

    def roll(self, count: int) -> list[int]:
        """`count` faces, continuing this turn's stream."""
        self.drawn += count
        return [self._rng.choice(FACES) for _ in range(count)]

    @property
    def state(self) -> SeededState:
        """The seed and how far this turn's stream has gone."""
        return SeededState(self.seed, self.turn, self.drawn)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SeededDice) and self.state == other.state


class DuplicateDice:
    """Duplicate dice: the k-th throw of die i in a round shows the same face for every seat,
    so the same choices give the same results."""

    def __init__(self, seed: int, turn: tuple[int, int, int] = (1, 1, 0), thrown: Iterable[int] = (0,) * DICE_COUNT,
                 random_seed: bool = False) -> None:
        self.seed = seed
        self.turn = turn
        self.thrown = list(thrown)
        # The seed was drawn for this session rather than given with --seed.
        self.random_seed = random_seed

    @classmethod
    def drawn(cls, rng: Optional[random.Random] = None) -> "DuplicateDice":
        """Duplicate dice from a seed of their own, drawn at random (saved with the game)."""
        return cls((rng or random.SystemRandom()).randrange(1, MAX_DRAWN_SEED), random_seed=True)

    def start_turn(self, game: int, round_: int, seat: int) -> None:
        """A new player's turn: each die's throws in this round are counted from the first."""
        self.turn = (game, round_, seat)
        self.thrown = [0] * DICE_COUNT

    def roll_places(self, places: Iterable[int]) -> list[int]:
        """The faces of the dice at `places` (0-4), each the next throw of its own stream."""
        faces = []
        for place in places:
            self.thrown[place] += 1
            faces.append(self.face(place, self.thrown[place]))
        return faces

    def face(self, place: int, throw: int) -> int:
        """The face of die `place`'s `throw`-th throw (from 1) in this round, for every seat."""
        game, round_, _ = self.turn
        return random.Random(f"duplicate/{self.seed}/{game}/{round_}/{place}/{throw}").choice(FACES)

    @property
    def state(self) -> DuplicateState:
        """The seed, the turn and how often each die has been thrown in it."""
        return DuplicateState(self.seed, self.turn, tuple(self.thrown), self.random_seed)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DuplicateDice) and self.state == other.state


# Any source the game rolls: duplicate dice roll by place, every other source by count.
Source = Union[DiceSource, DuplicateDice]


class LoadedDice:
    """Faces read from a file, one per rolled die; then another source takes over."""

    def __init__(self, faces: Iterable[int], fallback: Optional[DiceSource] = None) -> None:
        self.faces = list(faces)
        self.fallback = fallback or RandomDice()

    @property
    def seed(self) -> Optional[int]:
        """The seed of the source that follows the loaded faces."""
        return self.fallback.seed

    def start_turn(self, game: int, round_: int, seat: int) -> None:
        """Pass the new turn on to the source that follows."""
        self.fallback.start_turn(game, round_, seat)

    def roll(self, count: int) -> list[int]:
        """The next loaded faces, then the fallback's."""
        taken, self.faces = self.faces[:count], self.faces[count:]
        return taken + self.fallback.roll(count - len(taken))

    @property
    def state(self) -> LoadedState:
        """The faces not yet used and the state of the source that follows them."""
        return LoadedState(tuple(self.faces), self.fallback.state)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LoadedDice) and self.state == other.state


def rewind(source: Source, state: DiceState) -> None:
    """Put a source back in a state it was in, in place: the session and its game share it."""
    vars(source).update(vars(state.source()))


def throw(source: Source, places: Sequence[int]) -> list[int]:
    """The faces for the dice at `places`: duplicate dice are told which dice they are."""
    if isinstance(source, DuplicateDice):
        return source.roll_places(places)
    return source.roll(len(places))


def is_loaded(source: Source) -> bool:
    """The dice came from a file (a practice game)."""
    return isinstance(source, LoadedDice)


def is_duplicate(source: Source) -> bool:
    """Every seat rolls the same dice."""
    return isinstance(source, DuplicateDice)


def with_duplicate(source: Source, duplicate: bool) -> Source:
    """The session's source with duplicate dice turned on or off: the seed stays where there
    is one; loaded dice stay as they are (their faces come in file order)."""
    if isinstance(source, LoadedDice) or duplicate == is_duplicate(source):
        return source
    if isinstance(source, DuplicateDice):
        return RandomDice() if source.random_seed else SeededDice(source.seed)
    return DuplicateDice(source.seed) if source.seed is not None else DuplicateDice.drawn()


def parse_faces(text: str, origin: Optional[Text] = None) -> list[int]:
    """The faces in a whitespace-separated text; DiceFileError names the first bad one."""
    faces = []
    for position, word in enumerate(text.split(), start=1):
        if word not in FACE_DIGITS:
            shown = word if len(word) <= 12 and word.isprintable() else word[:12].encode("unicode_escape").decode()
            raise DiceFileError(Say("{origin}: '{word}' (entry {position}) is not a die face 1-6").format(
                origin=origin or Say("dice file"), word=shown, position=position))
        faces.append(int(word))
    if not faces:
        raise DiceFileError(Say("{origin}: holds no dice faces").format(origin=origin or Say("dice file")))
    return faces
