"""The box of each roll's best posting kept beside the best value, as solver.TurnSolver finds it
box by box in their order: of equal postings the first box (the lowest number), however the
postings are gathered (a zero posted on every roll at once, the few rolls that score apart)."""
from typing import Optional, Union

import numpy as np

NO_BOX = -1


class FirstBest:
    """The boxes of the best postings so far (None: only the values are wanted)."""

    def __init__(self, boxes: Optional[np.ndarray]) -> None:
        self.boxes = boxes

    @classmethod
    def of(cls, boxes: Optional[np.ndarray], width: int) -> tuple["FirstBest", "FirstBest"]:
        """For the rolls' best postings (in boxes[0], if boxes are wanted) and for a zero posted
        on every roll (a box for each of `width` states)."""
        if boxes is None:
            return cls(None), cls(None)
        return cls(boxes[0]), cls(np.full(width, NO_BOX, dtype=np.int8))

    def fill(self, boxes: Optional[Union[int, np.ndarray]]) -> None:
        """Every best posting's box is `boxes` (broadcast)."""
        if self.boxes is not None:
            self.boxes[...] = boxes

    def raise_to(self, best: np.ndarray, candidate: np.ndarray, box: int) -> None:
        """best = max(best, candidate) in place, `box` taken where the candidate is higher: a
        box of a higher number than every box kept so far (they come in order). Where none was
        higher than -inf, box 0 may be kept (as post_each_box keeps it: some box is open)."""
        if self.boxes is not None:
            np.maximum(self.boxes, np.multiply(candidate > best, box, dtype=np.int8), out=self.boxes)
        np.maximum(best, candidate, out=best)

    def merge(self, best: np.ndarray, candidate: np.ndarray, boxes: "FirstBest") -> None:
        """best = max(best, candidate) in place (the candidate broadcast), its `boxes` taken where
        it is higher, or as high from a box of a lower number (in whatever order they come)."""
        if self.boxes is not None and boxes.boxes is not None:
            take = candidate > best
            take |= (candidate == best) & (boxes.boxes < self.boxes)
            change = np.subtract(boxes.boxes, self.boxes, dtype=np.int8)  # a masked copy is many times slower
            change *= take
            self.boxes += change
        np.maximum(best, candidate, out=best)

    def merged_rows(self, best: np.ndarray, rows: Union[np.ndarray, tuple[()]], candidate: np.ndarray,
                    box: int) -> np.ndarray:
        """merge of `box`'s `candidate` on some `rows`, whose best values are `best`: their new
        best values (the boxes written in)."""
        if self.boxes is not None:
            here = self.boxes[rows]
            here[(candidate > best) | ((candidate == best) & (box < here))] = box
            self.boxes[rows] = here
        return np.maximum(best, candidate)


Posted = list[tuple[int, np.ndarray, Optional[np.ndarray]]]  # box, its rows, the value of its card after or None


def five_alike_best(points: np.ndarray, legal: np.ndarray, posted: Posted, rows_of: dict[int, np.ndarray],
                    boxes: Optional[np.ndarray]) -> np.ndarray:
    """The best posting of each face's five alike (faces x states), box by box: a box's value
    read from its rows (`posted`) at the row of its `points` (faces x states x boxes; `rows_of`
    box: the row of each points value), or its points added to the value of its card after; a
    box not `legal` (faces x states, bits) none. Their boxes, of equal the first (NO_BOX where
    none is legal), into `boxes` if given."""
    best = np.full(legal.shape, -np.inf)
    if boxes is not None:
        boxes.fill(NO_BOX)
    for box, row_values, after in posted:
        if after is None:
            value = np.take_along_axis(row_values, rows_of[box][points[..., box]], axis=0)
        else:
            value = points[..., box] + after
        value[(legal >> box) & 1 == 0] = -np.inf
        if boxes is not None:
            boxes[value > best] = box
        np.maximum(best, value, out=best)
    return best
