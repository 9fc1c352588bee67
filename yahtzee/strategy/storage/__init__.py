"""Tables kept in files and built in the background (in a process of their own). It imports the
model, the speech, the saves' files and strategy.exact, play and odds."""
