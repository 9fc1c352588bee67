"""Batches of headless games played on every core: their sizes and seeds, the worker
processes that play them, and the statistics of what they played (see simulate, duels).
Each batch has its own seed drawn from the simulation's, so a seed gives the same games on
any number of cores."""
import itertools
import multiprocessing
import os
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, Optional

import numpy as np

from ...model.scoring import YAHTZEE_POINTS
from ..exact.progress import Progress
from ..exact.rulearrays import YAHTZEE_BIT
from ..exact.sidebyside import Cards
from ..exact.table import StrategyTable

Figures = dict[str, np.ndarray]  # one array a figure, one entry a game
Play = Callable[[Sequence[StrategyTable], int, np.random.SeedSequence], Figures]

_WORKER_TABLES: list[StrategyTable] = []  # a worker process's tables, handed over when it starts


@dataclass(frozen=True)
class Rivalry:
    """*rival's results against *thinker: its share of wins (ties half), the 95% interval
    around that share, and *thinker's mean score."""

    win_share: float
    win_interval: float
    opponent_mean: float


@dataclass(frozen=True)
class Simulation:
    """The figures of simulated games: how many, their scores' mean, spread, median and range,
    how often they made the upper bonus, a Yahtzee and a Yahtzee bonus, the time they took;
    for *rival's games, its results against *thinker."""

    games: int
    mean: float
    stdev: float
    median: float
    lowest: int
    highest: int
    upper_bonus_rate: float
    yahtzee_rate: float
    extra_yahtzee_rate: float
    seconds: float
    rivalry: Optional[Rivalry] = None

    @property
    def games_per_second(self) -> float:
        """How fast the games were played."""
        return self.games / self.seconds if self.seconds else 0.0


def batch_statistics(tables: Sequence[StrategyTable], sizes: list[int], seeds: list[np.random.SeedSequence],
                     workers: Optional[int], play: Play, progress: Optional[Progress] = None) -> Simulation:
    """The statistics of every batch's games played with `play(tables, size, seed)`."""
    started, figures = time.perf_counter(), []
    for batch in played_batches(tables, sizes, seeds, workers, play):
        figures.append(batch)
        if progress:
            progress(sum(len(f["total"]) for f in figures), sum(sizes))
    joined = {key: np.concatenate([f[key] for f in figures]) for key in figures[0]}
    return game_statistics(joined, time.perf_counter() - started)


def batch_sizes(n: int, batch: int) -> list[int]:
    """The sizes of the batches `n` games are played in."""
    return [min(batch, n - start) for start in range(0, n, batch)]


def batch_seeds(n: int, batch: int, seed: Optional[int]) -> list[np.random.SeedSequence]:
    """One seed a batch, drawn from the simulation's (None: fresh)."""
    return np.random.SeedSequence(None if seed is None else seed % 2 ** 63).spawn(len(batch_sizes(n, batch)))


def played_batches(tables: Sequence[StrategyTable], sizes: list[int], seeds: list[np.random.SeedSequence],
                   workers: Optional[int], play: Play) -> Iterator[Figures]:
    """The figures of each batch of games, in order, played by up to `workers` processes
    with `play(tables, size, seed)`."""
    workers = min(workers or os.cpu_count() or 1, len(sizes))
    if workers <= 1:
        for size, seed in zip(sizes, seeds):
            yield play(tables, size, seed)
        return
    with ProcessPoolExecutor(workers, mp_context=_process_context(), initializer=_adopt_tables,
                             initargs=(tables,)) as pool:
        yield from pool.map(_play_in_worker, itertools.repeat(play), sizes, seeds)


def _process_context() -> Any:
    """fork where there is one: the workers share the parent's tables without copying them."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else methods[0])


def _adopt_tables(tables: Sequence[StrategyTable]) -> None:
    """Worker start-up: keep the tables (inherited with fork, else sent once)."""
    _WORKER_TABLES[:] = tables


def _play_in_worker(play: Play, size: int, seed: np.random.SeedSequence) -> Figures:
    """In a worker: play one batch with the tables it adopted."""
    return play(_WORKER_TABLES, size, seed)


def batch_figures(cards: Cards) -> Figures:
    """The figures of a batch's finished Cards."""
    return {"total": cards.totals, "upper_bonus": cards.upper_bonus > 0,
            "yahtzee": cards.points[:, YAHTZEE_BIT] == YAHTZEE_POINTS, "extra_yahtzee": cards.yahtzee_bonus > 0}


def game_statistics(figures: Figures, seconds: float) -> Simulation:
    """Mean, spread and rates of finished games' figures (and the rival's results, where they are)."""
    totals = figures["total"]
    games = len(totals)
    return Simulation(
        games=games,
        mean=float(totals.mean()),
        stdev=float(totals.std(ddof=1)) if games > 1 else 0.0,
        median=statistics.median(totals.tolist()),
        lowest=int(totals.min()),
        highest=int(totals.max()),
        upper_bonus_rate=float(figures["upper_bonus"].mean()),
        yahtzee_rate=float(figures["yahtzee"].mean()),
        extra_yahtzee_rate=float(figures["extra_yahtzee"].mean()),
        seconds=seconds,
        rivalry=rivalry_statistics(figures) if "won" in figures else None,
    )


def rivalry_statistics(figures: Figures) -> Rivalry:
    """The rival's share of wins, its 95% interval and the other's mean, from rivalries' figures."""
    won, games = figures["won"], len(figures["won"])
    return Rivalry(win_share=float(won.mean()),
                   win_interval=float(1.96 * won.std(ddof=1) / games ** 0.5) if games > 1 else 0.0,
                   opponent_mean=float(figures["opponent"].mean()))
