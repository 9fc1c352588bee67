"""The strategy engine, in parts, each importing only those before it: exact (the exact tables'
arithmetic, the table as a value, its games as arrays), play (the advisor and the computer
players), odds (what cards still score, the chance to win, *rival), storage (tables kept in
files and built in the background), headless (headless games on every core). numpy loads
with it, so nothing on the game's start-up path imports it. It imports the model and the
saves' files (atomic writes, locks, the rules as JSON)."""
