"""Connect 4's pages in the web view (:mod:`.pages`: the games played, a round's review and replay)
and their files (``static/``).  Imported only when a web view is served."""
