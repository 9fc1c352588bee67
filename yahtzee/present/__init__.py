"""Presentation: the model and the screens turned into lines and sentences (pure), with the language,
colours and glyphs of one console. It imports the model, the speech, the saves (the
themes a preference names) and the coach (the review a verdict tells of)."""
