"""`python -m yahtzee` starts the game."""
import sys

from .cli import main

if __name__ == "__main__":  # a background table build imports this module again
    sys.exit(main())
