"""The game on any screen of the LAN, and a phone as a second joystick (``--web [HOST:]PORT``).

A small HTTP server in a thread of its own serves one static page (``static/``:
no CDN, no build step) and the API the page uses (``docs/API.md``): the LEDs and
the game's words as they change (an event stream), and, with the PIN the LEDs
show, a seat whose presses reach the game as the stick's do.  Game-independent:
Connect 4's words and seats are its own (``sensehat_c4.words``, ``sensehat_c4.game``).

- :mod:`.limits`   every bound (:class:`~.limits.Limits`) and the rate limiters
- :mod:`.http`     HTTP/1.1 over asyncio and h11: limits, timeouts, security headers, origin checks
- :mod:`.feed`     frames and words from the game's thread to every watcher (Server-Sent Events)
- :mod:`.seating`  the PIN, the lockout and the tokens
- :mod:`.api`      the routes; :class:`~.api.Console`, what the server needs from the game's side
- :mod:`.console`  that side on a backend (presses injected, the PIN scrolled on the LEDs)
- :mod:`.address`  ``--web [HOST:]PORT`` and the address to tell people
- :mod:`.server`   :class:`~.server.WebServer`: all of it in its own thread
"""
