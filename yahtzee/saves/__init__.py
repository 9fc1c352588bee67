"""The saves folder and the file formats: where it is (folder), one copy at a time (locks),
files written whole and never followed through links (atomic), what the files hold
(documents), the Saves class that the game uses (store); the history record (records), the
session as JSON (codec) read strictly (strict), with the dice as JSON (dicestates) and the
session's versions, earlier ones brought to this one's form (versions); the preferences
(prefs), what proves a friend's seat theirs (proofs), a loaded-dice file (dicefile). It
imports the model and the speech."""
