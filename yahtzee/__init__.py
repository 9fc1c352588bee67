"""Computer Yahtzee: the PC-SIG screen flow with an optimal-strategy advisor."""

__version__ = "0.1.0"
