"""Computer Yahtzee: the PC-SIG screen flow with an optimal-strategy advisor."""
import os

__version__ = "0.1.0"

# The strategy engine's numpy work is element by element: a matrix library's threads would
# only spin on the other cores, beside the game's screen (and a table build in its own
# process inherits this). Set before numpy loads, as it reads it once; a player's own wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
