"""The advice services of a session: the tables it keeps, the tips, the reviews and the computer
opponents. They import the model, the speech and the strategy engine."""
