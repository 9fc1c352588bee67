"""The consoles: each touches its terminal alone (keys in, a screen drawn out in its own presentation).
They import the model, the speech and the presentation."""
