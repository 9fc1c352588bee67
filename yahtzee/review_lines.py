"""The post-game review as lines of text (see yahtzee.review): pure, 80 columns at most."""
from .review import ACCURATE, Decision, Review

LABEL_WIDTH = 24


def review_lines(review: Review, title: str = "") -> list:
    """The whole review: the note, then each player's figures, costliest and every decision."""
    lines = [title or "Review of the game",
             "Given away: the expected final score each choice lost against the best one."]
    if review.note:
        lines.append(review.note)
    for name in review.players:
        lines += ["", *player_lines(review, name)]
    return lines


def player_lines(review: Review, name: str) -> list:
    """One player's total given away, accuracy, costliest decisions and every decision."""
    own = [d for d in review.decisions if d.player == name]
    accurate = sum(d.cost < ACCURATE for d in own)
    lines = [f"{name}: gave away {review.totals[name]:.1f} points; accuracy "
             f"{review.accuracy[name]:.0f}% ({accurate} of {len(own)} within {ACCURATE} of the best)"]
    costly = review.costliest[name]
    if costly:
        lines += ["  Costliest:", *(decision_line(d) for d in costly)]
    else:
        lines.append("  No decision gave anything away.")
    lines += ["  Every decision:", heading(), *(decision_line(d) for d in own)]
    return lines


def heading() -> str:
    """The column titles of the decision lines."""
    return f"  {'Round':<8} {'Dice':<9} {'Done':<{LABEL_WIDTH}} {'Best':<{LABEL_WIDTH}} {'Cost':>5}"


def decision_line(decision: Decision) -> str:
    """One decision in one line: round and roll, dice, what was done, the best ('=' when
    that was it), the points given away."""
    where = f"{decision.round:>2} r{decision.roll}"
    dice = " ".join(map(str, decision.dice))
    best = "=" if decision.best == decision.done else decision.best
    return (f"  {where:<8} {dice:<9} {decision.done[:LABEL_WIDTH]:<{LABEL_WIDTH}} "
            f"{best[:LABEL_WIDTH]:<{LABEL_WIDTH}} {decision.cost:5.1f}")

