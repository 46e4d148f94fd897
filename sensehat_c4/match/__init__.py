"""A match on the LEDs: the match as an event loop (:mod:`.controller`), the seats' players
(:mod:`.players`, :mod:`.computer`), the choosers, resuming an interrupted match, the pictures
(:mod:`.render`) and words (:mod:`.words`), and the loop of matches (:mod:`.game`, the launcher's
entry).  Nothing is imported here: each module is imported where it is used."""
