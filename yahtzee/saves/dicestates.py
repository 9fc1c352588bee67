"""The state of the dice as JSON data and back: random, seeded per turn, duplicate, loaded."""
from typing import Optional, cast

from ..model.checks import is_int
from ..model.dice import (
    DICE_COUNT,
    CountingState,
    DiceState,
    DuplicateState,
    LoadedState,
    RandomState,
    SeededState,
    Source,
)
from ..model.words import Say
from .shapes import JSONObject
from .strict import check, int_field, json_list, json_object

MAX_DRAWN = 1000  # faces seeded dice have drawn in one turn
MAX_THROWS = 10_000  # throws of one die in one round (extra turns may add many)
_DICE = Say("the dice")


def dice_to_dict(state: DiceState) -> JSONObject:
    """The state of the dice as JSON data."""
    if isinstance(state, SeededState):
        return {"kind": "seeded", "seed": state.seed, "turn": list(state.turn), "drawn": state.drawn}
    if isinstance(state, DuplicateState):
        return {"kind": "duplicate", "seed": state.seed, "turn": list(state.turn), "thrown": list(state.thrown),
                "random_seed": state.random_seed}
    if isinstance(state, LoadedState):
        return {"kind": "loaded", "faces": list(state.faces), "fallback": dice_to_dict(state.fallback)}
    return {"kind": "random"}


def dice_from_dict(data: object) -> DiceState:
    """The state of the dice saved by dice_to_dict; DamagedSave if the data is not one."""
    data = json_object(data, _DICE)
    kind = data.get("kind")
    if kind == "random":
        return RandomState()
    if kind == "loaded":
        fallback = dice_from_dict(data.get("fallback"))
        check(not isinstance(fallback, DuplicateState), _DICE)  # loaded dice fall back on dice that roll by count
        return LoadedState(_ints(data.get("faces"), 1, 6), cast(CountingState, fallback))
    check(kind in ("seeded", "duplicate"), _DICE)
    seed, turn = int_field(data, "seed", None, None, _DICE), _dice_turn(data.get("turn"))
    if kind == "seeded":
        return SeededState(seed, turn, int_field(data, "drawn", 0, MAX_DRAWN, _DICE))
    random_seed = data.get("random_seed")
    check(isinstance(random_seed, bool), _DICE)
    return DuplicateState(seed, turn, _ints(data.get("thrown"), 0, MAX_THROWS, DICE_COUNT), cast(bool, random_seed))


def dice_source(data: object) -> Source:
    """The dice saved by dice_to_dict, ready to roll; DamagedSave if the data is not their state."""
    return dice_from_dict(data).source()


def _dice_turn(data: object) -> tuple[int, int, int]:
    game, round_, seat = _ints(data, 0, None, 3)
    return game, round_, seat


def _ints(data: object, low: int, high: Optional[int], count: Optional[int] = None) -> tuple[int, ...]:
    """The whole numbers of a list (`count` of them, if given) within [low, high], for the dice."""
    values = json_list(data, _DICE)
    check((count is None or len(values) == count) and all(is_int(value, low, high) for value in values), _DICE)
    return tuple(values)
