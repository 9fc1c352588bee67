"""Computer Yahtzee: the PC-SIG screen flow with an optimal-strategy advisor."""
import os

__version__ = "0.1.0"

# The strategy engine's numpy work is element by element: a matrix library's threads would
# only spin on the other cores, beside the game's screen (a table build in its own process
# inherits this). Set before numpy loads, which reads it once; a value already set is kept.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
