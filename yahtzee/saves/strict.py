"""Reading saved JSON strictly: each check raises DamagedSave, the one fault of a damaged saved
game, whose words are made once, here, from what the check names."""
from typing import Any, Optional, cast

from ..model.checks import is_int
from ..model.words import Refusal, Say, Text

MISSING = object()


class DamagedSave(Refusal):
    """Saved data that does not describe a valid game; its words say what is wrong."""


def damaged(what: Text) -> DamagedSave:
    """The fault of a saved game damaged in `what`."""
    return DamagedSave(Say("the saved game is damaged: {what}").format(what=what))


def check(condition: object, what: Text) -> None:
    """DamagedSave naming `what` unless the condition holds."""
    if not condition:
        raise damaged(what)


def json_object(value: object, what: Text) -> dict[str, Any]:
    """The value as a JSON object; DamagedSave if it is not one."""
    check(isinstance(value, dict), what)
    return cast("dict[str, Any]", value)


def json_list(value: object, what: Text) -> list[Any]:
    """The value as a JSON list; DamagedSave if it is not one."""
    check(isinstance(value, list), what)
    return cast("list[Any]", value)


def int_field(data: dict[str, Any], key: str, low: Optional[int], high: Optional[int], what: Text,
              default: object = MISSING) -> int:
    """The whole number at `key` within [low, high] (`default` when it is missing, if given)."""
    value = data.get(key, default)
    check(is_int(value, low, high), what)
    return cast(int, value)


def required(data: dict[str, Any], key: str, what: Text) -> object:
    """The value at `key`, which must be there."""
    check(key in data, what)
    return data[key]
