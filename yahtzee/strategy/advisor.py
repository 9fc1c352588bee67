"""The advisor: every keep and every legal box, ranked by expected final score."""
from dataclasses import dataclass, replace

import numpy as np

from .. import scoring
from ..scoring import Category
from .dicemath import KEEPS, sub_keeps
from .position import BOX_BIT, card_state, card_total, kept_faces, reroll_marks
from .solver import States, Workspace
from .tables import UP_CAP

CACHE_SIZE = 4096


@dataclass(frozen=True)
class Option:
    """One choice: keep some dice and reroll the rest, or post in a box."""

    kind: str                 # "keep" or "box"
    value: float              # the expected final score after this choice
    reroll: tuple = None      # keep: which of the five dice to reroll
    kept: tuple = ()          # keep: the faces kept, sorted
    box: Category = None      # box: where to post
    points: int = 0           # box: what it scores now, both bonuses included
    best: bool = False

    @property
    def label(self):
        """'keep 4 4 4' / 'reroll all' / 'FULL HOUSE 25'."""
        if self.kind == "box":
            return f"{self.box.title} {self.points}"
        return "keep " + " ".join(map(str, self.kept)) if self.kept else "reroll all"


def advise(table, game):
    """Every choice open to the current player of `game`, best first."""
    card = game.current.card
    return advise_position(table, card.boxes, card.yahtzee_bonus, game.turn.dice, game.rolls_left)


def advise_position(table, boxes, yahtzee_bonus, dice, rolls_left):
    """Every distinct keep (while rerolls remain) and every legal box, best first, best marked."""
    dice = tuple(dice)
    already = card_total(boxes, yahtzee_bonus)
    options = box_options(table, boxes, dice, already)
    if rolls_left > 0:
        options += keep_options(table, boxes, dice, rolls_left, already)
    options.sort(key=lambda option: -option.value)
    options[0] = replace(options[0], best=True)  # there is always a legal box
    return options


def box_options(table, boxes, dice, already):
    """The legal boxes for `dice`, each with its points and expected final score."""
    rules = table.rules
    mask, up, fifty = card_state(boxes)
    options = []
    for box in scoring.legal_boxes(dice, boxes, rules):
        points = scoring.posting_points(box, dice, boxes, rules)
        gain = points + scoring.yahtzee_bonus(dice, boxes, rules)
        next_up, next_fifty = up, fifty
        if box.is_upper:
            next_up = min(UP_CAP, up + points)
            gain += scoring.UPPER_BONUS if up < UP_CAP <= up + points else 0
        elif box is Category.YAHTZEE:
            next_fifty = int(points == scoring.YAHTZEE_POINTS)
        later = table.value(mask | BOX_BIT[box], next_up, next_fifty)
        options.append(Option("box", already + gain + later, box=box, points=gain))
    return options


def keep_options(table, boxes, dice, rolls_left, already):
    """Every distinct keep that rerolls at least one die, with its expected final score."""
    keeps = keep_values(table, card_state(boxes), rolls_left)
    options = []
    for index in sub_keeps(tuple(sorted(dice))):
        kept = KEEPS[index]
        options.append(Option("keep", already + float(keeps[index]), reroll=reroll_marks(dice, kept), kept=kept))
    return options


def keep_values(table, state, rolls_left):
    """The expected future of every keep with `rolls_left` rolls to come (cached per state)."""
    memo, key = table.memo, ("keeps", state, rolls_left)
    if key in memo:
        return memo[key]
    engine = table.engine
    states = States(*(np.array([part]) for part in state))
    work = Workspace(1)
    post, _ = engine.post_values(table.values, states, work)
    offset = engine.to_utility(post)
    for _ in range(min(rolls_left, engine.rerolls) - 1):
        engine.keep_values(work)
        engine.best_reroll(work)
    values = engine.from_utility(engine.keep_values(work)[:, 0], offset).copy()
    if len(memo) >= CACHE_SIZE:
        memo.clear()
    memo[key] = values
    return values


def choice_cost(options, chosen):
    """Expected points lost by `chosen` against the best option (0 for the best)."""
    return max(option.value for option in options) - chosen.value


def cost_of_reroll(options, dice, marked):
    """Expected points lost by rerolling the `marked` dice."""
    kept = kept_faces(dice, marked)
    return choice_cost(options, next(o for o in options if o.kind == "keep" and o.kept == kept))


def cost_of_post(options, box):
    """Expected points lost by posting in `box`."""
    return choice_cost(options, next(o for o in options if o.kind == "box" and o.box is box))
