"""The exact tables' arithmetic: the states, the dice, the rules as arrays, the solver, the moments,
the table as a value and its games played side by side as arrays. It imports the model and the speech."""
