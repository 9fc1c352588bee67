"""The advisor: every keep and every legal box, ranked by expected final score."""
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Optional

import numpy as np

from ...model import scoring
from ...model.choices import Option, OptionKind
from ...model.game import Game
from ...model.scoring import Category
from ..exact.dicemath import KEEPS, sub_keeps
from ..exact.position import BIT_OF, card_state, card_total, kept_faces, reroll_marks
from ..exact.rulearrays import UP_CAP
from ..exact.stages import Workspace
from ..exact.stages import keep_values as keeps_of_rolls
from ..exact.statespace import States
from ..exact.table import StrategyTable

CACHE_SIZE = 4096


def advise(table: StrategyTable, game: Game) -> list[Option]:
    """Every choice open to the current player of `game`, best first."""
    card = game.current.card
    bonuses = card.yahtzee_bonus + card.roll_bonus + card.banked
    return advise_position(table, card.boxes, bonuses, game.turn.dice, game.rolls_left, game.turn.rolls)


def advise_position(table: StrategyTable, boxes: Mapping[Category, int], bonuses: int, dice: Sequence[int],
                    rolls_left: int, rolls_used: Optional[int] = None) -> list[Option]:
    """Every distinct keep (while rerolls remain) and every legal box, best first, best marked.

    `bonuses` are the points already earned beside the boxes; `rolls_used` (by default the
    turn's rolls less `rolls_left`) decides a FiveOAK roll bonus.
    """
    dice = tuple(dice)
    rolls_used = table.rules.rolls_per_turn - rolls_left if rolls_used is None else rolls_used
    already = card_total(boxes, bonuses)
    options = box_options(table, boxes, dice, already, rolls_used)
    if rolls_left > 0:
        options += keep_options(table, boxes, dice, rolls_used, rolls_left, already)
    options.sort(key=lambda option: -option.value)
    options[0] = replace(options[0], best=True)  # there is always a legal box
    return options


def box_options(table: StrategyTable, boxes: Mapping[Category, int], dice: tuple[int, ...], already: int,
                rolls_used: int) -> list[Option]:
    """The legal boxes for `dice` (and an extra turn where one is earned), each with its
    points and expected final score."""
    rules = table.rules
    state = card_state(boxes)
    options = [box_option(table, boxes, dice, already, rolls_used, box)
               for box in scoring.legal_boxes(dice, boxes, rules)]
    if scoring.earns_extra_turn(dice, boxes, rules):
        bonus = scoring.extra_turn_bonus(dice, boxes, rules)
        options.append(Option(OptionKind.BOX, already + bonus + table.value(*state), box=Category.YAHTZEE,
                              yahtzee_bonus=bonus, extra_turn=True))
    return options


def box_option(table: StrategyTable, boxes: Mapping[Category, int], dice: tuple[int, ...], already: int,
               rolls_used: int, box: Category) -> Option:
    """Posting (or blanking) `box`: its points and bonuses, and the expected final score."""
    rules = table.rules
    mask, up, fifty = card_state(boxes)
    points = scoring.posting_points(box, dice, boxes, rules)
    upper_bonus = 0
    if box.is_upper:
        upper_bonus = scoring.upper_bonus({**boxes, box: points}) - scoring.upper_bonus(boxes)
        up = min(UP_CAP, up + points)
    elif box is Category.YAHTZEE:
        fifty = int(points == scoring.YAHTZEE_POINTS)
    option = Option(OptionKind.BOX, 0.0, box=box, points=points, upper_bonus=upper_bonus,
                    yahtzee_bonus=scoring.yahtzee_bonus(dice, boxes, rules),
                    roll_bonus=scoring.roll_bonus_points(box, dice, rolls_used, boxes, rules),
                    blank=scoring.must_blank(dice, boxes, rules))
    later = table.value(mask | 1 << BIT_OF[box], up, fifty)
    return replace(option, value=already + option.gain + later)


def keep_options(table: StrategyTable, boxes: Mapping[Category, int], dice: tuple[int, ...], rolls_used: int,
                 rolls_left: int, already: int) -> list[Option]:
    """Every distinct keep that rerolls at least one die, with its expected final score."""
    keeps = keep_values(table, card_state(boxes), rolls_used, rolls_left)
    options = []
    for index in sub_keeps(tuple(sorted(dice))):
        kept = KEEPS[index]
        options.append(Option(OptionKind.KEEP, already + float(keeps[index]), reroll=reroll_marks(dice, kept),
                              kept=kept))
    return options


def keep_values(table: StrategyTable, state: tuple[int, int, int], rolls_used: int, rolls_left: int) -> np.ndarray:
    """The expected future of every keep rerolled now, after `rolls_used` rolls with
    `rolls_left` to come (cached per state)."""
    memo, key = table.memo, ("keeps", state, rolls_used, rolls_left)
    if key in memo:
        return memo[key]
    engine = table.engine
    states = States(*(np.array([part]) for part in state))
    work = Workspace(1)
    offset = engine.roll_values(table.values, states, work, rolls_used + 1, rolls_used + rolls_left)
    values = engine.from_utility(keeps_of_rolls(work)[:, 0], offset).copy()
    if len(memo) >= CACHE_SIZE:
        memo.clear()
    memo[key] = values
    return values


def choice_cost(options: Sequence[Option], chosen: Option) -> float:
    """Expected points lost by `chosen` against the best option (0 for the best)."""
    return max(option.value for option in options) - chosen.value


def cost_of_reroll(options: Sequence[Option], dice: Sequence[int], marked: Sequence[bool]) -> float:
    """Expected points lost by rerolling the `marked` dice."""
    kept = kept_faces(dice, marked)
    return choice_cost(options, next(o for o in options if o.kind == "keep" and o.kept == kept))


def cost_of_post(options: Sequence[Option], box: Category) -> float:
    """Expected points lost by posting in `box`."""
    return choice_cost(options, next(o for o in options if o.kind == "box" and o.box is box))
