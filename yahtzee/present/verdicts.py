"""The post-game review as lines of text (see yahtzee.coach.replay): pure; fitted to 80 columns
(a label longer than its column goes on in the column's next row), or a line a decision with
every label whole (into a pipe, where nothing limits the width)."""
from ..coach.replay import ACCURATE, Decision, Review
from ..speech.languages import N_, _, number
from .palette import pad, wrapped
from .render import SCREEN_WIDTH, choice_text

LABEL_WIDTH = 24
ROLL = N_("r{roll}")  # the roll a decision followed, in the round column: ' 3 r2'


def review_lines(review: Review, title: str = "", fit: bool = True) -> list[str]:
    """The whole review: the note, then each player's figures, costliest and every decision
    (`fit`: to 80 columns, else a line a decision)."""
    lines = [*wrapped(title or _("Review of the game"), SCREEN_WIDTH),
             _("Given away: the expected final score each choice lost against the best one.")]
    if review.note:
        lines.append(review.shown_note or review.note)
    for name in review.players:
        lines += ["", *player_lines(review, name, fit)]
    return lines


def player_lines(review: Review, name: str, fit: bool = True) -> list[str]:
    """One player's total given away, accuracy, costliest decisions and every decision."""
    own = [d for d in review.decisions if d.player == name]
    accurate = sum(d.cost < ACCURATE for d in own)
    lines = [_("{name}: gave away {points} points; accuracy {accuracy}% ({accurate} of {count} "
               "within {within} of the best)").format(
        name=name, points=number(review.totals[name], ".1f"), accuracy=f"{review.accuracy[name]:.0f}",
        accurate=accurate, count=len(own), within=number(ACCURATE))]
    if name in review.win_totals:
        lines.append("  " + _("Judged by the chance to win, as {name} ranked the advice (W): {points} win % "
                              "given away; those costs are marked %.").format(
            name=name, points=number(review.win_totals[name], ".1f")))
    costly = review.costliest[name]
    if costly:
        lines += ["  " + _("Costliest:"), *(row for d in costly for row in decision_lines(d, fit))]
    else:
        lines.append("  " + _("No decision gave anything away."))
    lines += ["  " + _("Every decision:"), heading(), *(row for d in own for row in decision_lines(d, fit))]
    return lines


def heading() -> str:
    """The column titles of the decision lines."""
    return (f"  {pad(_('Round'), 8)} {pad(_('Dice'), 9)} {pad(_('Done'), LABEL_WIDTH)} "
            f"{pad(_('Best'), LABEL_WIDTH)} {_('Cost'):>5}")


def decision_lines(decision: Decision, fit: bool = True) -> list[str]:
    """One decision: round and roll, dice, what was done, the best ('=' when that was it), the
    points given away; every label whole (`fit`: a label too long for its column goes on in
    the column's next row, else the line grows)."""
    where = f"{decision.round:>2} " + _(ROLL).format(roll=decision.roll)
    dice = " ".join(map(str, decision.dice))
    same = decision.best.is_same_choice(decision.done)
    done = choice_text(decision.done, short=True)
    best = "=" if same else choice_text(decision.best, short=True)
    cost = number(decision.cost, "5.1f") + ("%" if decision.by_win else "")
    if not fit:
        return [f"  {pad(where, 8)} {dice:<9} {pad(done, LABEL_WIDTH)} {pad(best, LABEL_WIDTH)} {cost}"]
    done_rows, best_rows = wrapped(done, LABEL_WIDTH), wrapped(best, LABEL_WIDTH)
    rows = []
    for row in range(max(len(done_rows), len(best_rows))):
        cells = [done_rows[row] if row < len(done_rows) else "", best_rows[row] if row < len(best_rows) else ""]
        first = row == 0
        rows.append((f"  {pad(where if first else '', 8)} {dice if first else '':<9} {pad(cells[0], LABEL_WIDTH)} "
                     f"{pad(cells[1], LABEL_WIDTH)} " + (cost if first else "")).rstrip())
    return rows

