"""Pure: the game in sentences for plain mode and a screen reader (no tables, no art)."""
from collections.abc import Iterable
from typing import Optional

from ..model.choices import Option
from ..model.game import ROUNDS, Game, Turn
from ..model.scorecard import Scorecard
from ..model.scoring import LOWER, SPOKEN_NAMES, UPPER, Category
from ..model.words import Say
from ..speech.languages import _, number, text
from .render import advice_keys, choice_text, percent, reroll_text


def spoken_label(box: Category) -> Say:
    """A box's name as it is said: 'Small straight'."""
    return Say(SPOKEN_NAMES[box])


def box_words(card: Scorecard, box: Category) -> str:
    """One box as words: 'Ones 3', 'Twos open', 'Chance blanked'."""
    if box not in card.boxes:
        return _("{box} open").format(box=text(spoken_label(box)))
    if card.is_blank(box):
        return _("{box} blanked").format(box=text(spoken_label(box)))
    return f"{text(spoken_label(box))} {card.boxes[box]}"


def card_sentence(name: str, card: Scorecard) -> str:
    """A whole card in one sentence: 'ANN: Ones 3, Twos open, ..., total 42.'"""
    parts = [box_words(card, box) for box in UPPER]
    parts.append(_("upper sum {points}").format(points=card.upper_sum))
    if card.upper_bonus:
        parts.append(_("upper bonus {points}").format(points=card.upper_bonus))
    parts += [box_words(card, box) for box in LOWER]
    if card.yahtzee_bonus or card.roll_bonus:
        parts.append(_("bonuses {points}").format(points=card.yahtzee_bonus + card.roll_bonus))
    if card.banked:
        parts.append(_("banked {points}").format(points=card.banked))
    return _("{name}: {boxes}, total {total}.").format(name=name, boxes=", ".join(parts),
                                                       total=card.total)


def sheet_sentences(game: Game) -> list[str]:
    """The score sheet read out, a sentence a player (the console wraps them to its width)."""
    return [card_sentence(player.name, player.card) for player in game.players]


def turn_sentence(game: Game) -> Say:
    """Whose turn it is, in which round, and their total so far."""
    player = game.current
    if game.race_target:
        text = Say("{name}'s turn, round {round}; {name} has {points} points.")
    else:
        text = Say("{name}'s turn, round {round} of {rounds}; {name} has {points} points.")
    return text.format(name=player.name, round=game.round, rounds=ROUNDS,
                       points=player.card.total)


def option_sentence(option: Option, turn: Turn, at_posting: bool, chance: Optional[float] = None) -> str:
    """One choice of the advisor: 'keep 4 4 4, reroll 6 3 (press 2 4 R), expects 254.9'
    (and ', win chance 48.3%' in a game with others)."""
    reroll = reroll_text(option, turn) if option.kept else ""  # 'reroll all' says it already
    label = choice_text(option)
    choice = f"{label}, {reroll}" if reroll else label
    keys, value = advice_keys(option, turn, at_posting), number(option.value, ".1f")
    if chance is None:
        return _("{choice} ({keys}), expects {value}.").format(choice=choice, keys=keys, value=value)
    return _("{choice} ({keys}), expects {value}, win chance {chance}.").format(
        choice=choice, keys=keys, value=value, chance=percent(chance))


def advice_sentences(ranked: Iterable[tuple[Option, Optional[float]]], turn: Turn,
                     at_posting: bool = False) -> list[str]:
    """The advisor's (option, chance) pairs in order, a sentence each: 'Best: ...', then 'Next: ...'."""
    return [(_("Best: {choice}") if number == 0 else _("Next: {choice}")).format(
        choice=option_sentence(option, turn, at_posting, chance)) for number, (option, chance) in enumerate(ranked)]
