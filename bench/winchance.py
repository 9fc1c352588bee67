"""The chance to win against a Monte Carlo truth, and the advice page's time with it.

Positions, in groups: "realistic", two- and three-player games of the exact table's play
stopped at a random seat, round and roll, with random dice; kinds are drawn so that every roll
number (first, second, last), every stage (early: rounds 1-4, middle: 5-9, late: 10-13) and
every state of the players' Yahtzee boxes (open, a zero, a fifty) occurs. Then the strange
cards a human leaves, 2, 3 and 4 players, every stage and roll: "random postings" (every turn
a first roll posted in a box drawn at random), "upper zeros" (one to three upper boxes
scratched, the rest the table's play), "yahtzee scratched" (in the first turn), "far
behind" (the player to decide posts at random, the others play the table, or the other way
round), and "upper bonus nearly out of reach" (cards of those two kinds whose chance of the
upper bonus is 1-20%, from round 2). For every option the advisor offers
there, the truth is the share of won games (ties half) over continuations: the rest of the
turn played by the plan the shown chance assumes (winchance: for the win), then every card
played to its end by the exact table (batch, the simulation's arrays, not finals). Last,
"challenge": realistic positions in a challenge, one or two games played before (each
player's total over them) and one or two to come, where the column is the chance to win the
match: the truth plays out the games to come too. Each
opponent's continuations are shared by all options; the standard error of each truth is
printed and kept under half a point. Prints mean and worst |shown - true| and the share over
2 points against the targets; then the advice's time (advise + the win column, memos empty,
the turn prepared as the game prepares it) for every rule set the column is shown under.
Positions are measured in parallel, one process a core; the tables are read from (and, for
rules that do not come with the package, built once into) the game's own cache folder.
Asserts nothing; the last line is one JSON object.
Usage: python bench/winchance.py [--quick] [POSITIONS] [SEED] [STRANGE] [CHALLENGE] (POSITIONS
realistic ones, STRANGE of each strange group, CHALLENGE in a challenge; all 0: the times alone;
quick: 1 realistic position, 1 of each strange group and 1 in a challenge, 200 continuations an
option and 1,000 an opponent, 10 timed positions under the 1987 rules alone)
"""
import json
import multiprocessing
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

PROJECT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(PROJECT))

from yahtzee.model.choices import OptionKind  # noqa: E402
from yahtzee.model.game import Game, Player, Turn  # noqa: E402
from yahtzee.model.match import MatchStand  # noqa: E402
from yahtzee.model.rules import ACORN, FIVEOAK, FREE_JOKER, HASBRO, NO_BONUS, YAHTC  # noqa: E402
from yahtzee.model.scorecard import Scorecard  # noqa: E402
from yahtzee.saves.folder import choose_folders  # noqa: E402
from yahtzee.strategy.exact.dicemath import DICE, KEEP_INDEX, ROLLS  # noqa: E402
from yahtzee.strategy.exact.rulearrays import BOXES, YAHTZEE_BIT  # noqa: E402
from yahtzee.strategy.exact.sidebyside import KEEP_FACES, KEEP_SIZE, Cards, NumpyDice, play_turns, roll_numbers  # noqa: E402
from yahtzee.strategy.odds.earlyturns import EXTRA_TURN  # noqa: E402
from yahtzee.strategy.odds.rests import measured_rests  # noqa: E402
from yahtzee.strategy.odds.rival import win_plan  # noqa: E402
from yahtzee.strategy.odds.winchance import option_chances, others_ahead, prepare_turn  # noqa: E402
from yahtzee.strategy.play.advisor import advise  # noqa: E402
from yahtzee.strategy.storage.cache import load_table, ready_rests  # noqa: E402

QUICK = "--quick" in sys.argv[1:]
POSITIONS = 1 if QUICK else 48
STRANGE = 1 if QUICK else 12  # positions of each strange group
CHALLENGE = 1 if QUICK else 30  # positions in a challenge of several games (the column is the match's)
MINE = 200 if QUICK else 12_000     # continuations of the player's own card per option
THEIRS = 1_000 if QUICK else 100_000  # continuations of each opponent's card
TIMED = 10 if QUICK else 60        # positions timed per rule set
TARGETS = {"mean": 1.0, "worst": 5.0}
STAGES = {"early": (1, 4), "middle": (5, 9), "late": (10, 13)}
TIMED_RULES = {"hasbro": HASBRO, "hasbro, 4 rolls": HASBRO.with_options(rolls=4), "freejoker": FREE_JOKER,
               "nobonus": NO_BONUS, "fiveoak": FIVEOAK, "acorn": ACORN, "yahtc": YAHTC}
if QUICK:  # the rules whose table and rests come with the package: nothing is built
    TIMED_RULES = {"hasbro": HASBRO}


def played_cards(table, count, turns, rng):
    """`count` cards after `turns` turns of the table's own play."""
    cards = Cards.empty(count)
    dice = NumpyDice(rng)
    for _ in range(turns):
        play_turns(table, cards, np.arange(count), dice)
    return cards


def scorecard(cards, row):
    """The game model's Scorecard of one row of Cards."""
    boxes = {BOXES[bit]: int(cards.points[row, bit]) for bit in range(len(BOXES)) if cards.mask[row] >> bit & 1}
    return Scorecard(boxes=boxes, yahtzee_bonus=int(cards.yahtzee_bonus[row]), roll_bonus=int(cards.roll_bonus[row]))


def yahtzee_case(card):
    """'open', 'zero' or 'fifty': the Yahtzee box of a Scorecard."""
    points = card.boxes.get(BOXES[YAHTZEE_BIT])
    return "open" if points is None else "fifty" if points else "zero"


def random_postings(table, turns, rng):
    """A card whose every turn posted a first roll (never five alike) in an open box drawn at random."""
    cards = Cards.empty(1)
    for _ in range(turns):
        open_boxes = [bit for bit in range(len(BOXES)) if not cards.mask[0] >> bit & 1]
        post_roll(table, cards, PLAIN_ROLLS[int(rng.integers(len(PLAIN_ROLLS)))], int(rng.choice(open_boxes)))
    return cards


def upper_zeros(table, turns, rng):
    """A card with one to three upper boxes scratched first, then the table's play."""
    cards = Cards.empty(1)
    zeros = min(turns, int(rng.integers(1, 4)))
    for face in rng.choice(6, size=zeros, replace=False).tolist():
        post_roll(table, cards, int(rng.choice(ROLLS_WITHOUT[face + 1])), face)
    return played_on(table, cards, turns - zeros, rng)


def yahtzee_scratched(table, turns, rng):
    """A card that scratched YAHTZEE in its first turn, then the table's play."""
    cards = Cards.empty(1)
    if turns:
        post_roll(table, cards, PLAIN_ROLLS[int(rng.integers(len(PLAIN_ROLLS)))], YAHTZEE_BIT)
    return played_on(table, cards, turns - 1, rng)


def bonus_nearly_out_of_reach(table, turns, rng):
    """A card whose upper bonus is still possible but nearly out of reach: its chance of the
    bonus under the table's play from here between NEARLY_OUT[0] and NEARLY_OUT[1]. Cards of
    random postings and of scratched upper boxes are drawn until one is so (at most 500)."""
    bonus = measured_rests(table).bonus
    for attempt in range(500):
        cards = (random_postings if attempt % 2 else upper_zeros)(table, turns, rng)
        chance = float(bonus[0, cards.states(np.arange(1)).index[0]])
        if NEARLY_OUT[0] <= chance <= NEARLY_OUT[1]:
            break
    return cards


def table_play(table, turns, rng):
    """A card of the table's own play."""
    return played_cards(table, 1, turns, rng)


def post_roll(table, cards, roll, box):
    """Post one roll (after one roll) in a box of a one-row Cards."""
    cards.post(table.engine.tables, np.arange(1), np.array([roll]), np.array([box]), np.ones(1, dtype=np.int64))


def played_on(table, cards, turns, rng):
    """The card after `turns` more turns of the table's play."""
    dice = NumpyDice(rng)
    for _ in range(turns):
        play_turns(table, cards, np.arange(1), dice)
    return cards


PLAIN_ROLLS = [index for index, roll in enumerate(ROLLS) if len(set(roll)) > 1]
ROLLS_WITHOUT = {face: [index for index in PLAIN_ROLLS if face not in ROLLS[index]] for face in range(1, 7)}
NEARLY_OUT = (0.01, 0.2)  # a chance of the upper bonus that is "nearly out of reach"
GROUPS = {"realistic": table_play, "random postings": random_postings, "upper zeros": upper_zeros,
          "yahtzee scratched": yahtzee_scratched, "far behind": None,
          "upper bonus nearly out of reach": bonus_nearly_out_of_reach, "challenge": table_play}
STRANGE_GROUPS = ("random postings", "upper zeros", "yahtzee scratched", "far behind",
                  "upper bonus nearly out of reach")
LATE_START = {"upper bonus nearly out of reach": 2}  # a first card has its bonus well in reach


def makers(group, players, seat, rng):
    """How each player's card is made in a group's position: "far behind" makes the player to
    decide a random poster among table players, or the only table player among random posters."""
    if group != "far behind":
        return [GROUPS[group]] * players
    behind = bool(rng.integers(2))
    return [(random_postings if (place == seat) == behind else table_play) for place in range(players)]


def position(table, rng, players, stage, rolls_used, group="realistic"):
    """A game at the current player's decision: seat, round and dice drawn at random, each
    card made as the group makes them."""
    low, high = STAGES[stage]
    game_round = int(rng.integers(max(low, LATE_START.get(group, 1)), high + 1))
    seat = int(rng.integers(players))
    names = ["ANN", "BOB", "CY", "DEE"][:players]
    cards = [make(table, game_round - (0 if place < seat else 1), rng)
             for place, make in enumerate(makers(group, players, seat, rng))]
    game = Game.start([Player(name) for name in names], table.rules)
    for place, player in enumerate(game.players):
        player.card = scorecard(cards[place], 0)
    game.seat, game.round = seat, game_round
    game.turn = Turn(dice=tuple(int(face) for face in rng.integers(1, 7, DICE)), rolls=rolls_used)
    return game


def copies(card, count):
    """`count` Cards rows holding one Scorecard."""
    cards = Cards.empty(count)
    for box, points in card.boxes.items():
        bit = BOXES.index(box)
        cards.points[:, bit] = points
        cards.mask[:] |= 1 << bit
        cards.upper[:] += points if bit < 6 else 0
        cards.fifty[:] |= int(box is BOXES[YAHTZEE_BIT] and points == 50)
    cards.yahtzee_bonus[:], cards.roll_bonus[:] = card.yahtzee_bonus, card.roll_bonus
    return cards


def finish(table, cards, rng):
    """Play every card to its end by the table; their final totals."""
    dice, playing = NumpyDice(rng), np.arange(len(cards.mask))
    playing = playing[~cards.is_full[playing]]
    while len(playing):
        play_turns(table, cards, playing, dice)
        playing = playing[~cards.is_full[playing]]
    return cards.totals


def rest_of_turn(table, game, option, plan, count, rng):
    """`count` copies of the player's card after the option and the rest of the turn by `plan`."""
    cards = copies(game.current.card, count)
    used = np.full(count, game.turn.rolls)
    rolls = np.full(count, roll_numbers(np.array([game.turn.dice]))[0])
    if option.kind is OptionKind.KEEP:
        rolls, used = rerolled(np.full(count, KEEP_INDEX[option.kept]), rng), used + 1
        for stage in range(game.turn.rolls + 1, table.rules.rolls_per_turn):
            keeps = plan.keeps[stage - 1, rolls, 0]
            again = (keeps >= 0) & (used == stage)
            rolls[again] = rerolled(keeps[again], rng)
            used[again] += 1
        boxes = plan.boxes[used - 1, rolls, 0]
    else:
        boxes = np.full(count, YAHTZEE_BIT if option.extra_turn else BOXES.index(option.box))
    post(table, cards, rolls, boxes, used)
    return cards


def post(table, cards, rolls, boxes, rolls_used):
    """Post through the batch's arrays (the plan's extra turn is the Yahtzee box there)."""
    boxes = np.where(boxes == EXTRA_TURN, YAHTZEE_BIT, boxes).astype(np.int64)
    cards.post(table.engine.tables, np.arange(len(rolls)), rolls, boxes, rolls_used.astype(np.int64))


def rerolled(keeps, rng):
    """The roll after rerolling around each keep."""
    kept = KEEP_SIZE[keeps]
    fresh = rng.integers(1, 7, size=(len(keeps), DICE))
    place = np.arange(DICE)
    return roll_numbers(np.where(place < kept[:, None], KEEP_FACES[keeps], fresh))


def truth(table, game, options, rng, stand=None):
    """Each option's Monte Carlo chance to win and its standard error: the game's, or with
    `stand` the challenge's (each total before the game and every game to come played out too)."""
    others = [finish(table, copies(player.card, THEIRS), rng) + match_rest(table, stand, player.name, THEIRS, rng)
              for seat, player in enumerate(game.players) if seat != game.seat]
    card = game.current.card
    plan = win_plan(table, card.boxes, card.total, others_ahead(table, game, stand)) if game.rolls_left else None
    limit = max(int(max(final.max() for final in others)) + 2, 2000)
    below, at_most = np.ones(limit), np.ones(limit)
    for finals in others:
        counts = np.bincount(finals, minlength=limit)[:limit] / len(finals)
        cdf = np.cumsum(counts)
        below *= np.concatenate(([0.0], cdf[:-1]))
        at_most *= cdf
    ahead = below + (at_most - below) / 2
    results = []
    for option in options:
        if option.extra_turn:
            results.append((None, None))  # another turn: not simulated here
            continue
        mine = finish(table, rest_of_turn(table, game, option, plan, MINE, rng), rng)
        mine = mine + match_rest(table, stand, game.current.name, MINE, rng)
        won = ahead[np.minimum(mine, limit - 1)]
        error = np.sqrt(won.var() / len(won) + 0.25 / THEIRS)
        results.append((float(won.mean()), float(error)))
    return results


def match_rest(table, stand, name, count, rng):
    """What a player's match total adds to this game's final in `count` play-outs: the total
    before the game and every game to come (0 outside a match)."""
    if stand is None:
        return 0
    to_come = sum((finish(table, Cards.empty(count), rng) for _ in range(stand.games_after)), np.zeros(count, int))
    return stand.before.get(name, 0) + to_come


def challenge_stand(table, game, rng):
    """A challenge the position's game is in: one or two games before it (each player's total
    over them played by the table), one or two to come."""
    before_games = int(rng.integers(1, 3))
    before = {player.name: int(sum(finish(table, Cards.empty(1), rng)[0] for _ in range(before_games)))
              for player in game.players}
    return MatchStand(before, int(rng.integers(1, 3)))


def kinds(count, rng, player_counts=(2, 3)):
    """(players, stage, rolls used) for `count` positions, every combination in turn."""
    combos = [(players, stage, used) for players in player_counts for stage in STAGES for used in (1, 2, 3)]
    order = rng.permutation(len(combos))
    return [combos[order[i % len(combos)]] for i in range(count)]


def accuracy(table, count, strange, challenge, rng):
    """The errors of every shown chance against its truth, with what they were measured at:
    `count` realistic positions and `strange` of each strange group, each position made and
    measured from streams of its own, shared out over the machine's cores."""
    places = np.random.default_rng(int(rng.integers(2 ** 32)))
    plan = [("realistic", kind) for kind in kinds(count, places)]
    plan += [(group, kind) for group in STRANGE_GROUPS for kind in kinds(strange, places, (2, 3, 4))]
    plan += [("challenge", kind) for kind in kinds(challenge, places)]
    jobs = [(group, kind, int(seed)) for (group, kind), seed in zip(plan, rng.integers(2 ** 32, size=len(plan)))]
    global SHARED_TABLE
    table.warm()
    SHARED_TABLE = table  # the workers are forked: they read it, never copy it through a pipe
    with multiprocessing.get_context("fork").Pool(os.cpu_count() or 1) as pool:
        return [row for rows in pool.imap(measured_position, jobs) for row in rows]


SHARED_TABLE = None


def measured_position(job):
    """The rows of one position's options: shown chance, truth and what it was measured at."""
    group, (players, stage, used), seed = job
    table = SHARED_TABLE
    places, rng = (np.random.default_rng(part) for part in np.random.SeedSequence(seed).spawn(2))
    game = position(table, places, players, stage, used, group)
    stand = challenge_stand(table, game, places) if group == "challenge" else None
    options = advise(table, game)
    shown = option_chances(table, game, options, stand)
    cases = "/".join(yahtzee_case(player.card) for player in game.players)
    return [{"group": group, "players": players, "stage": stage, "roll": used, "round": game.round,
             "yahtzee": cases, "shown": chance, "true": true, "error": error, "decision": option.kind.name.lower()}
            for option, chance, (true, error) in zip(options, shown, truth(table, game, options, rng, stand))
            if true is not None]


def timings(cache, rng):
    """The advice's time with the win column per rule set, p50 and p99 of TIMED positions,
    every memo emptied before each (the table and its arithmetic ready, as in the game):
    "look", what the player waits for once the turn was prepared before its first roll (the
    game does it in the background while it asks for that roll); "prepare", that preparation;
    "cold", a look with nothing prepared (a player faster than the preparation waits at most
    this long)."""
    figures = {}
    for name, rules in TIMED_RULES.items():
        table = load_table(rules, cache_dir=Path(cache))
        table.warm()  # as the game's background builder warms it
        ready_rests(table, Path(cache))  # and readies its rests, as soon as a game has two players
        spent = {"look": [], "prepare": [], "cold": []}
        for index in range(TIMED):
            stage = list(STAGES)[index % 3]
            game = position(table, rng, 2 + index % 2, stage, 1 + index % rules.rolls_per_turn)
            table.memo.clear()
            spent["cold"].append(timed(look, table, game))
            table.memo.clear()
            others = [player.card for player in game.players if player is not game.current]
            spent["prepare"].append(timed(prepare_turn, table, game.current.card, others))
            spent["look"].append(timed(look, table, game))
        figures[name] = {kind: percentiles(times) for kind, times in spent.items()}
    return figures


def look(table, game):
    """The advice with its win column, as the player sees it."""
    return option_chances(table, game, advise(table, game))


def timed(work, *args):
    """How long work(*args) takes, in seconds."""
    start = time.perf_counter()
    work(*args)
    return time.perf_counter() - start


def percentiles(times):
    """p50 and p99 of some times."""
    times = sorted(times)
    return {"p50": statistics.median(times), "p99": times[min(len(times) - 1, int(0.99 * len(times)))]}


def main(argv):
    """Measure and print (0 positions: the times alone)."""
    argv = [word for word in argv if word != "--quick"]
    count = int(argv[0]) if argv else POSITIONS
    rng = np.random.default_rng(int(argv[1]) if len(argv) > 1 else 1)
    strange = int(argv[2]) if len(argv) > 2 else STRANGE
    begun = time.perf_counter()
    cache = choose_folders(None, os.environ, PROJECT).cache  # the game's own: tables it built are not built again
    challenge = int(argv[3]) if len(argv) > 3 else CHALLENGE
    measured = count or strange or challenge
    figures = report_accuracy(load_table(HASBRO, cache_dir=cache), count, strange, challenge, rng) if measured else {}
    times = timings(cache, rng)
    for name, figure in times.items():
        look, prepare, cold = figure["look"], figure["prepare"], figure["cold"]
        print(f"  advice with the win column, {name}: p50 {look['p50'] * 1000:.0f} ms, p99 {look['p99'] * 1000:.0f} ms"
              f"  target p99 <= 200 ms: {'met' if look['p99'] <= 0.2 else 'NOT met'}  (turn prepared before its first "
              f"roll: p50 {prepare['p50'] * 1000:.0f} ms, p99 {prepare['p99'] * 1000:.0f} ms; unprepared: p50 "
              f"{cold['p50'] * 1000:.0f} ms, p99 {cold['p99'] * 1000:.0f} ms)")
    print(f"  whole run {time.perf_counter() - begun:.0f} s on {os.cpu_count()} cores (target < 900 s): "
          f"{'met' if time.perf_counter() - begun < 900 else 'NOT met'}; tables read from {cache}")
    print(json.dumps({**figures, "p99_ms": {name: {kind: round(figure[kind]["p99"] * 1000, 1) for kind in figure}
                                            for name, figure in times.items()}}))


def report_accuracy(table, count, strange, challenge, rng):
    """Print the shown chances against the truth at `count` realistic positions, `strange` of
    each strange group and `challenge` in a challenge: per group, over the strange ones, over
    the game's own; the figures."""
    start = time.perf_counter()
    rows = accuracy(table, count, strange, challenge, rng)
    print(f"win chance, hasbro: {len(rows)} options at {count} realistic positions, {strange} of each strange "
          f"group and {challenge} in a challenge (the match's chance), {MINE:,} continuations an "
          f"option, {THEIRS:,} an opponent ({time.perf_counter() - start:.0f} s)")
    print(f"  truth's standard error: at most {max(row['error'] for row in rows) * 100:.2f} points (target < 0.5)")
    figures = {}
    sets = {group: [row for row in rows if row["group"] == group] for group in GROUPS}
    sets["strange together"] = [row for row in rows if row["group"] in STRANGE_GROUPS]
    sets["all together"] = [row for row in rows if row["group"] != "challenge"]  # the game's own chances
    for name, chosen in sets.items():
        if chosen:
            figures[name] = report_set(name, chosen)
    return figures


def report_set(name, rows):
    """The errors of one set of options against the targets, and by stage, roll, players and decision."""
    errors = np.array([abs(row["shown"] - row["true"]) * 100 for row in rows])
    certain = [row for row in rows if row["true"] in (0.0, 1.0) and abs(row["shown"] - row["true"]) > 0.02]
    worst = rows[int(errors.argmax())]
    print(f"  {name} ({len(rows)} options): mean |shown - true| {errors.mean():.2f} points (target <= "
          f"{TARGETS['mean']}: {'met' if errors.mean() <= TARGETS['mean'] else 'NOT met'}), worst {errors.max():.2f} "
          f"(target <= {TARGETS['worst']}: {'met' if errors.max() <= TARGETS['worst'] else 'NOT met'}: "
          f"{worst['players']} players, {worst['stage']}, round {worst['round']}, roll {worst['roll']}, Yahtzee boxes "
          f"{worst['yahtzee']}, shown {worst['shown']:.1%}, true {worst['true']:.1%}); over 2 points "
          f"{np.mean(errors > 2):.1%}; over 2 points where the truth is 0% or 100%: {len(certain)}")
    for key in ("stage", "roll", "players", "decision"):
        parts = sorted({row[key] for row in rows}, key=str)
        print(f"    by {key}: " + ", ".join(
            f"{part}: {np.mean([e for e, row in zip(errors, rows) if row[key] == part]):.2f}" for part in parts))
    return {"options": len(rows), "mean_error": float(errors.mean()), "worst_error": float(errors.max()),
            "over_2": float(np.mean(errors > 2)), "certain_over_2": len(certain)}


if __name__ == "__main__":
    main(sys.argv[1:])
