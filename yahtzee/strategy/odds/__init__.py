"""What cards still score, the chance to win, *rival who plays for it, and the computer player of
each mood. It imports the model, strategy.exact and strategy.play."""
