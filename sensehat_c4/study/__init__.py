"""Looking back at the games played: the records as tables (:mod:`.history`), a round replayed
(:mod:`.replay`) or reviewed against the exact scores (:mod:`.review`, :mod:`.graph`), training on
its mistakes (:mod:`.training`), a position analysed (:mod:`.analysis`), and the progress line the
long ones show (:mod:`.progress`).  Nothing is imported here."""
