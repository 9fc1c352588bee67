"""A loaded-dice file: the faces a practice game rolls, read from a text file the player names
(--dice-file); the model parses its text."""
import os
from typing import Union

from ..model.dice import DiceFileError, parse_faces
from ..model.words import Say

MAX_DICE_FILE_BYTES = 1_000_000


def read_dice_file(path: Union[str, os.PathLike[str]]) -> list[int]:
    """The faces of a loaded-dice file; DiceFileError says plainly what is wrong."""
    try:
        with open(path, "rb") as file:
            data = file.read(MAX_DICE_FILE_BYTES + 1)
    except OSError as error:
        raise DiceFileError(Say("dice file {path}: {error}").format(
            path=os.fspath(path), error=error.strerror or str(error))) from None
    if len(data) > MAX_DICE_FILE_BYTES:
        raise DiceFileError(Say("dice file {path}: larger than {size} bytes").format(
            path=os.fspath(path), size=MAX_DICE_FILE_BYTES))
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError:
        raise DiceFileError(Say("dice file {path}: holds characters other than faces and spaces").format(
            path=os.fspath(path))) from None
    return parse_faces(text, Say("dice file {path}").format(path=os.fspath(path)))
