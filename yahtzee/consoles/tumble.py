"""Rolling dice: the faces the rolled dice show while they tumble (pure, given a random source).

The dice are decided before they tumble; the tumbling faces come from a random source of their
own, so the game's dice are the same whatever the speed.
"""
import random
from collections.abc import Iterator, Sequence

from ..model.dice import FACES

# Speed: (frames, seconds each): about 0.3 s fast, 0.8 s slow.
SPEEDS = {"fast": (6, 0.05), "slow": (10, 0.08), "off": (0, 0.0)}


def tumbling_dice(dice: Sequence[int], rolled: Sequence[int], frames: int,
                  faces: random.Random) -> Iterator[tuple[int, ...]]:
    """The dice of each frame: the dice at the places `rolled` show random faces, the last
    frame shows them settled; the others keep their faces throughout."""
    for _ in range(max(0, frames - 1)):
        yield tuple(faces.choice(FACES) if place in rolled else face
                    for place, face in enumerate(dice))
    if frames:
        yield tuple(dice)
