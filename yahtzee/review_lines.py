"""The post-game review as lines of text (see yahtzee.review): pure, 80 columns at most."""
from .choices import option_to_json
from .language import _, number
from .palette import wrapped
from .render import choice_text
from .review import ACCURATE, Decision, Review

LABEL_WIDTH = 24
WIDTH = 80


def review_lines(review: Review, title: str = "") -> list[str]:
    """The whole review: the note, then each player's figures, costliest and every decision."""
    lines = [*wrapped(title or _("Review of the game"), WIDTH),
             _("Given away: the expected final score each choice lost against the best one.")]
    if review.note:
        lines.append(review.shown_note or review.note)
    for name in review.players:
        lines += ["", *player_lines(review, name)]
    return lines


def player_lines(review: Review, name: str) -> list[str]:
    """One player's total given away, accuracy, costliest decisions and every decision."""
    own = [d for d in review.decisions if d.player == name]
    accurate = sum(d.cost < ACCURATE for d in own)
    lines = [_("{name}: gave away {points} points; accuracy {accuracy}% ({accurate} of {count} "
               "within {within} of the best)").format(
        name=name, points=number(review.totals[name], ".1f"), accuracy=f"{review.accuracy[name]:.0f}",
        accurate=accurate, count=len(own), within=number(ACCURATE))]
    costly = review.costliest[name]
    if costly:
        lines += ["  " + _("Costliest:"), *(decision_line(d) for d in costly)]
    else:
        lines.append("  " + _("No decision gave anything away."))
    lines += ["  " + _("Every decision:"), heading(), *(decision_line(d) for d in own)]
    return lines


def heading() -> str:
    """The column titles of the decision lines."""
    return (f"  {_('Round'):<8} {_('Dice'):<9} {_('Done'):<{LABEL_WIDTH}} "
            f"{_('Best'):<{LABEL_WIDTH}} {_('Cost'):>5}")


def decision_line(decision: Decision) -> str:
    """One decision in one line: round and roll, dice, what was done, the best ('=' when
    that was it), the points given away."""
    where = f"{decision.round:>2} r{decision.roll}"
    dice = " ".join(map(str, decision.dice))
    same = option_to_json(decision.best) == option_to_json(decision.done)
    best = "=" if same else choice_text(decision.best, short=True)
    done = choice_text(decision.done, short=True)
    return (f"  {where:<8} {dice:<9} {done[:LABEL_WIDTH]:<{LABEL_WIDTH}} "
            f"{best[:LABEL_WIDTH]:<{LABEL_WIDTH}} {number(decision.cost, '5.1f')}")

