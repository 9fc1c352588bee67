"""The languages the game speaks: the gettext catalogs that turn the model's words into text in the
language of each console, and which language a reader asks for. It imports the model."""
