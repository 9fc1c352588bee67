"""The PC-SIG screens: each returns the next moment as a value; one flow runs them and alone
saves. They import the model, the speech, the saves, the coach, the presentation and the
consoles' stops."""
