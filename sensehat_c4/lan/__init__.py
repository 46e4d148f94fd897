"""Connect 4 between two Pis on the LAN: ``--lan``, ``--join``, the chooser's entry and the launcher's.

The host (:func:`host`) offers the game (:func:`gamelib.lan.offering`), waits for a guest
and asks its player (:func:`gamelib.lan.flows.wait_for_guest`), then plays matches on its
own :mod:`..match.controller` with the guest in seat 2: a :class:`RemotePlayer`, whose presses
come from the guest's stick over the link, whose seat is ``remote`` in the words and the
records, and who is :attr:`~..match.players.Player.gone` when the guest quits or stays away too
long (the match is then abandoned).  The host owns the game: the guest only ever sees
the host's frames, so two boards cannot differ.  The matches go on, one after another,
until one is abandoned or either side leaves.

The guest (:func:`join`) finds the game (:func:`gamelib.lan.flows.choose_game`, or the
address given), asks, and shows the host's frames (:func:`gamelib.lan.flows.visit`).
Both Pis record the matches: the host with its own recorder, the guest from the
``game`` messages the host sends beside its recorder's calls (:class:`RecordTee`,
:class:`GuestRecords`), each with the other side as a named ``remote`` player.  The guest
checks each of those messages (:func:`check_game`) and records only what its own boards
confirm: it rebuilds every round from its moves with the rules core and works out the
winners itself.  Both print each match's line; a match left before a move is none.  The guest
keeps its token in :class:`SessionFile` so it comes back after a restart without asking
again; a match a power cut interrupts is not taken up again (the other Pi has given
up by then), it is kept as abandoned.

The modules, each one job: :mod:`.remote` (the guest in its seat, this Pi's name, :class:`LanError`),
:mod:`.messages` (the ``game`` messages, checked), :mod:`.records` (the host's :class:`RecordTee` and the
guest's :class:`GuestRecords`), :mod:`.session` (the guest's token across restarts), :mod:`.play`
(:func:`host` and :func:`join`) and :mod:`.game` (offer or join, asked on the LEDs: :func:`play_lan`,
the launcher's :data:`GAME`).  Nothing is imported here: each is imported where it is used.
"""
