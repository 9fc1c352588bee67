"""The post-game review as lines of text (see yahtzee.coach.replay): pure; fitted to 80 columns
(a label longer than its column goes on in the column's next row), or, into a pipe, a line a
decision as tab-separated fields under a line of their titles (every label whole)."""
from collections.abc import Sequence

from ..coach.replay import ACCURATE, Decision, Review
from ..speech.languages import N_, _, ngettext, number, text
from .palette import pad, wrapped
from .render import SCREEN_WIDTH, choice_text

LABEL_WIDTH = 24
ROUND_WIDTH = 5  # ' 3 r2'
COST_WIDTH = 6
WIN_WIDTH = 5
ROLL = N_("r{roll}")  # the roll a decision followed, in the round column: ' 3 r2'


def review_lines(review: Review, title: str = "", fit: bool = True) -> list[str]:
    """The whole review: the note, then each player's figures, costliest and every decision
    (`fit`: to 80 columns, else a line a decision, its fields tab-separated)."""
    by_win = any(d.by_win for d in review.decisions)
    lines = [*wrapped(title or _("Review of the game"), SCREEN_WIDTH),
             _("Given away: the expected final score each choice lost against the best one.")]
    if by_win:
        lines += wrapped(_("Win %: the chance to win a choice gave away against the one likeliest to win "
                           "(Best then names it), where its player ranked the advice by that chance (W)."),
                         SCREEN_WIDTH)
    if review.note:
        lines.append(text(review.note))
    for name in review.players:
        lines += ["", *player_lines(review, name, fit, by_win)]
    return lines


def player_lines(review: Review, name: str, fit: bool = True, by_win: bool = False) -> list[str]:
    """One player's points given away, accuracy, mean win % given away, costliest decisions and
    every decision (`by_win`: with the win % column)."""
    own = [d for d in review.decisions if d.player == name]
    said = [_("{name}: gave away {points} points; accuracy {accuracy}% ({accurate} of {count} {within})").format(
        name=name, points=number(review.totals[name], ".1f"), accuracy=f"{review.accuracy[name]:.0f}",
        accurate=sum(d.is_accurate for d in own), count=len(own), within=within(own))]
    if name in review.win_means:
        judged = sum(d.by_win for d in own)
        said.append("  " + ngettext(
            "Judged by the chance to win, as {name} ranked the advice (W): {count} decision, {mean} win % "
            "given away per decision on average.",
            "Judged by the chance to win, as {name} ranked the advice (W): {count} decisions, {mean} win % "
            "given away per decision on average.", judged).format(
            name=name, count=judged, mean=number(review.win_means[name], ".1f")))
    lines = [row for line in said for row in wrapped(line, SCREEN_WIDTH)]
    costly = review.costliest[name]
    if costly:
        rows = table(costly, fit, by_win)
        lines += ["  " + _("Costliest:"), *(rows[1:] if fit else rows)]  # fitted, under no titles
    else:
        lines.append("  " + _("No decision gave anything away."))
    return [*lines, "  " + _("Every decision:"), *table(own, fit, by_win)]


def within(decisions: Sequence[Decision]) -> str:
    """What accuracy counts, in the units of the player's decisions, each by its own measure."""
    kinds = {d.by_win for d in decisions}
    if kinds == {True}:
        return _("within {limit} win % of the likeliest to win").format(limit=number(ACCURATE))
    if kinds == {False, True}:
        return _("within {limit} points of the best, or {limit} win % of the likeliest to win where "
                 "judged by it").format(limit=number(ACCURATE))
    return _("within {limit} points of the best").format(limit=number(ACCURATE))


def table(decisions: Sequence[Decision], fit: bool, by_win: bool) -> list[str]:
    """The decisions under their column titles: fitted, or a line each of tab-separated fields."""
    if fit:
        return [heading(by_win), *(row for d in decisions for row in decision_lines(d, True, by_win))]
    return [tabbed_heading(by_win), *(row for d in decisions for row in decision_lines(d, False, by_win))]


def heading(by_win: bool = False) -> str:
    """The column titles of the fitted decision lines."""
    return (f"  {pad(_('Round'), ROUND_WIDTH)} {pad(_('Dice'), 9)} {pad(_('Done'), LABEL_WIDTH)} "
            f"{pad(_('Best'), LABEL_WIDTH)} {_('Cost'):>{COST_WIDTH}}"
            + (f" {_('Win %'):>{WIN_WIDTH}}" if by_win else ""))


def tabbed_heading(by_win: bool = False) -> str:
    """The field titles of the tab-separated decision lines."""
    return "\t".join([_("Round"), _("Roll"), _("Dice"), _("Done"), _("Best"), _("Cost"),
                      *([_("Win %")] if by_win else [])])


def decision_lines(decision: Decision, fit: bool = True, by_win: bool = False) -> list[str]:
    """One decision: round and roll, dice, what was done, the best by its own measure ('=' when
    that was it), the points given away and (`by_win`) the win % given away where judged by it;
    every label whole (`fit`: a label too long for its column goes on in the column's next row,
    else one line of tab-separated fields)."""
    dice = " ".join(map(str, decision.dice))
    done = choice_text(decision.done, short=True)
    best = "=" if decision.own_best.is_same_choice(decision.done) else choice_text(decision.own_best, short=True)
    win = decision.win_cost
    if not fit:
        return ["\t".join([str(decision.round), str(decision.roll), dice, done, best, number(decision.cost, ".1f"),
                           *([number(win, ".1f") if win is not None else ""] if by_win else [])])]
    where = f"{decision.round:>2} " + _(ROLL).format(roll=decision.roll)
    costs = number(decision.cost, f"{COST_WIDTH}.1f") + (
        " " + (number(win, f"{WIN_WIDTH}.1f") if win is not None else " " * WIN_WIDTH) if by_win else "")
    done_rows, best_rows = wrapped(done, LABEL_WIDTH), wrapped(best, LABEL_WIDTH)
    rows = []
    for row in range(max(len(done_rows), len(best_rows))):
        cells = [done_rows[row] if row < len(done_rows) else "", best_rows[row] if row < len(best_rows) else ""]
        first = row == 0
        rows.append((f"  {pad(where if first else '', ROUND_WIDTH)} {dice if first else '':<9} "
                     f"{pad(cells[0], LABEL_WIDTH)} {pad(cells[1], LABEL_WIDTH)} " + (costs if first else "")).rstrip())
    return rows
