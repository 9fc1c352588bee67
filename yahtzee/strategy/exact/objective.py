"""What a player maximises, named without the solver's arithmetic (so the game can ask which
table it wants without loading numpy)."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Objective:
    """What a player maximises: expected score, or a risk-shaped or Yahtzee-loving variant.

    risk > 0 dislikes spread and risk < 0 likes it (an exponential utility, exact over the
    whole game); yahtzee_reward adds that many points of delight for a 50 in the Yahtzee box.
    """

    name: str = "expected"
    risk: float = 0.0
    yahtzee_reward: float = 0.0


EXPECTED_SCORE = Objective()
