"""The command line: options, then the game (its screens come with the screen flow)."""
import argparse
import sys

from . import __version__


def parse_args(argv=None):
    """The options from the command line; a bad value exits with a one-line error."""
    parser = argparse.ArgumentParser(
        prog="yahtzee.py",
        description="Computer Yahtzee for 1-4 players at one keyboard.")
    parser.add_argument("--version", action="version", version=f"Computer Yahtzee {__version__}")
    return parser.parse_args(argv)


def main(argv=None):
    """Run the game; returns the process exit code."""
    parse_args(argv)
    print("Computer Yahtzee: the screens are not built yet.", file=sys.stderr)
    return 1
