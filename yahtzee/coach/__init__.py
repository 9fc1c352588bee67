"""The advice services of a session: the tables it keeps, the tips, the reviews and the computer
opponents. They import the model and the strategy engine (their words are the model's values)."""
