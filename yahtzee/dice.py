"""Where the dice come from: true randomness, a seed reseeded every turn, or a loaded file."""
import random
from .checks import is_int

FACES = range(1, 7)
MAX_DICE_FILE_BYTES = 1_000_000


class DiceFileError(ValueError):
    """A loaded-dice file that cannot be used, with the reason for the player."""


class RandomDice:
    """Truly random dice from the operating system."""

    seed = None

    def __init__(self, rng=None):
        self._rng = rng or random.SystemRandom()

    def start_turn(self, game, round_, seat):
        """Nothing to reseed: every roll is fresh randomness."""

    def roll(self, count):
        """`count` new faces."""
        return [self._rng.randint(1, 6) for _ in range(count)]

    def to_dict(self):
        """The source as JSON data."""
        return {"kind": "random"}

    def __eq__(self, other):
        return isinstance(other, RandomDice)


class SeededDice:
    """Reproducible dice, reseeded at the start of every player's turn."""

    def __init__(self, seed, turn=(1, 1, 0), drawn=0):
        self.seed = seed
        self.start_turn(*turn)
        self.roll(drawn)

    def start_turn(self, game, round_, seat):
        """Reseed from (seed, game, round, seat), as the original reseeded every turn."""
        self.turn = (game, round_, seat)
        self.drawn = 0
        self._rng = random.Random(f"{self.seed}/{game}/{round_}/{seat}")

    def roll(self, count):
        """`count` faces, continuing this turn's stream."""
        self.drawn += count
        return [self._rng.randint(1, 6) for _ in range(count)]

    def to_dict(self):
        """The seed and how far this turn's stream has gone."""
        return {"kind": "seeded", "seed": self.seed, "turn": list(self.turn), "drawn": self.drawn}

    def __eq__(self, other):
        return isinstance(other, SeededDice) and self.to_dict() == other.to_dict()


class LoadedDice:
    """Faces read from a file, one per rolled die; then another source takes over."""

    def __init__(self, faces, fallback=None):
        self.faces = list(faces)
        self.fallback = fallback or RandomDice()

    @property
    def seed(self):
        """The seed of the source that follows the loaded faces."""
        return self.fallback.seed

    def start_turn(self, game, round_, seat):
        """Pass the new turn on to the source that follows."""
        self.fallback.start_turn(game, round_, seat)

    def roll(self, count):
        """The next loaded faces, then the fallback's."""
        taken, self.faces = self.faces[:count], self.faces[count:]
        return taken + self.fallback.roll(count - len(taken))

    def to_dict(self):
        """The faces not yet used and the source that follows them."""
        return {"kind": "loaded", "faces": list(self.faces), "fallback": self.fallback.to_dict()}

    def __eq__(self, other):
        return isinstance(other, LoadedDice) and self.to_dict() == other.to_dict()


def dice_from_dict(data):
    """Rebuild a source saved by its to_dict; ValueError if the data is not one."""
    kind = data.get("kind") if isinstance(data, dict) else None
    if kind == "random":
        return RandomDice()
    if kind == "seeded":
        seed, turn, drawn = data.get("seed"), data.get("turn"), data.get("drawn")
        if (is_int(seed) and isinstance(turn, list) and len(turn) == 3
                and all(is_int(t) and t >= 0 for t in turn) and is_int(drawn) and 0 <= drawn <= 1000):
            return SeededDice(seed, tuple(turn), drawn)
    if kind == "loaded":
        faces = data.get("faces")
        if isinstance(faces, list) and all(is_int(f) and f in FACES for f in faces):
            return LoadedDice(faces, dice_from_dict(data.get("fallback")))
    raise ValueError("the saved dice source is not valid")




def parse_faces(text, origin="dice file"):
    """The faces in a whitespace-separated text; DiceFileError names the first bad one."""
    faces = []
    for position, word in enumerate(text.split(), start=1):
        if word not in ("1", "2", "3", "4", "5", "6"):
            shown = word if len(word) <= 12 and word.isprintable() else word[:12].encode("unicode_escape").decode()
            raise DiceFileError(f"{origin}: '{shown}' (entry {position}) is not a die face 1-6")
        faces.append(int(word))
    if not faces:
        raise DiceFileError(f"{origin}: holds no dice faces")
    return faces


def read_dice_file(path):
    """The faces of a loaded-dice file; DiceFileError says plainly what is wrong."""
    try:
        with open(path, "rb") as file:
            data = file.read(MAX_DICE_FILE_BYTES + 1)
    except OSError as error:
        raise DiceFileError(f"dice file {path}: {error.strerror or error}") from None
    if len(data) > MAX_DICE_FILE_BYTES:
        raise DiceFileError(f"dice file {path}: larger than {MAX_DICE_FILE_BYTES} bytes")
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError:
        raise DiceFileError(f"dice file {path}: holds characters other than faces and spaces") from None
    return parse_faces(text, f"dice file {path}")


def restore_source(source, data):
    """Put a source back in the state its to_dict gave, in place (the session shares it)."""
    source.__dict__.update(dice_from_dict(data).__dict__)
