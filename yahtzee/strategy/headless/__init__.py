"""Headless games of the computer players, side by side in batches on every core: --simulate and
*rival against *thinker. It imports the model, the speech and the other parts of the strategy."""
