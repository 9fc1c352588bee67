"""Pure: the game in sentences for plain mode and a screen reader (no tables, no art)."""
import textwrap

from .render import LABELS, SCREEN_WIDTH, advice_keys, percent, reroll_text
from .scoring import LOWER, UPPER, Category

SPOKEN_LABELS = {**LABELS, Category.SMALL_STRAIGHT: "Small straight",
                 Category.LARGE_STRAIGHT: "Large straight"}


def box_words(card, box: Category) -> str:
    """One box as words: 'Ones 3', 'Twos open', 'Chance blanked'."""
    if box not in card.boxes:
        return f"{SPOKEN_LABELS[box]} open"
    return f"{SPOKEN_LABELS[box]} {'blanked' if card.is_blank(box) else card.boxes[box]}"


def card_sentence(name: str, card) -> str:
    """A whole card in one sentence: 'ANN: Ones 3, Twos open, ..., total 42.'"""
    parts = [box_words(card, box) for box in UPPER]
    parts.append(f"upper sum {card.upper_sum}")
    if card.upper_bonus:
        parts.append(f"upper bonus {card.upper_bonus}")
    parts += [box_words(card, box) for box in LOWER]
    if card.yahtzee_bonus or card.roll_bonus:
        parts.append(f"bonuses {card.yahtzee_bonus + card.roll_bonus}")
    if card.banked:
        parts.append(f"banked {card.banked}")
    return f"{name}: {', '.join(parts)}, total {card.total}."


def sheet_sentences(game) -> list:
    """The score sheet read out, a sentence a player, each wrapped to the screen's width."""
    lines = []
    for player in game.players:
        lines += textwrap.wrap(card_sentence(player.name, player.card), SCREEN_WIDTH - 1,
                               subsequent_indent="  ")
    return lines


def turn_sentence(game) -> str:
    """Whose turn it is, in which round, and their total so far."""
    player = game.current
    rounds = "" if game.race_target else f" of {len(Category)}"
    return (f"{player.name}'s turn, round {game.round}{rounds}; "
            f"{player.name} has {player.card.total} points.")


def option_sentence(option, turn, at_posting: bool, chance=None) -> str:
    """One choice of the advisor: 'keep 4 4 4, reroll 6 3 (press 2 4 R), expects 254.9'
    (and ', win chance 48.3%' in a game with others)."""
    reroll = reroll_text(option, turn) if option.kept else ""  # 'reroll all' says it already
    choice = f"{option.label}, {reroll}" if reroll else option.label
    win = f", win chance {percent(chance)}" if chance is not None else ""
    return f"{choice} ({advice_keys(option, turn, at_posting)}), expects {option.value:.1f}{win}."


def advice_sentences(ranked, turn, at_posting: bool = False) -> list:
    """The advisor's (option, chance) pairs in order, a sentence each: 'Best: ...', then 'Next: ...'."""
    return [f"{'Best' if number == 0 else 'Next'}: {option_sentence(option, turn, at_posting, chance)}"
            for number, (option, chance) in enumerate(ranked)]
