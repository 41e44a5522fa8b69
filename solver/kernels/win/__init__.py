r"""Playing to win, compiled: one turn's chances to win and to tie for every
roll, box and keep, which ``yatzy.players.win`` ranks for advice, and the
choice among them that the ``win`` seat of ``yatzy.research.win_seat``
plays (the tests check it against a plain choice made from every recorded
chance).  The modules, by what they compute:

* ``data``     what the kernels read (``WinTables``, ``WinData``) and how
  chances compare (``key``: to 40 bits)
* ``odds``     the opponents' side: the best opponent's final score ``M``
  from their futures (``opponents_best``)
* ``ends``     each way to end the turn valued by the target table mixed
  over ``M`` (``chance``, ``fill_chances``)
* ``rolls``    each roll's best box (``score_chances``, ``best_scores``)
* ``keeps``    the keeps, level by level (``keep_chances``, ``seat_keeps``)
* ``exact``    the exact late-game turn: with two boxes open each state
  after the turn valued by its own last turn (``fill_exact``,
  ``exact_lanes``)
* ``turns``    one whole turn (``turn_chances`` for advice, ``seat_turn``
  for the seat, ``position_chances``)
* ``choice``   the seat's choice at a roll, the expected-score tie rule
  worked out only where read (``seat_choose``)
* ``scratch``  the work arrays of one thread (``Scratch``)

Notation (``yatzy.players.win``): ``M`` is the best opponent's final score, with
``less[k] = P(M < k)`` and ``eq[k] = P(M = k)``; ending the turn with
``final`` points on the card in state ``(child, u')`` is worth

.. math::

   \mathrm{win} = P(M < final) + \sum_{n \ge 1} P^*(child, u', n)\, P(M = final + n - 1)

and ``tie`` the same with ``P(M <= final)`` and ``P(M = final + n)``, less
``win`` (``P*``: the target table, ``yatzy.tables.target``).  With two boxes
open (``exact``), each such state is valued instead by its own last turn
played to win (whose states after are full cards: the values are exact).

Within the turn, rolls are averaged (``turn.average_keeps`` with the two
lanes ``win`` and ``tie``) and the best action taken: the larger chance to
win, then to tie, each compared to 40 bits (``key``), so equal chances
computed along different paths compare equal.  An action of the turn is
chosen the same way, then, among the actions still equal, by the
expected-score tie rule (``turn.pick``, as ``yatzy.research.games`` chooses).

The match seat takes shortcuts that give the same values and choices:
``seat_turn`` finds each roll's best box among the roll's candidates and
the best scratch they leave (``best_scores``) and writes no per-roll
table, ``seat_choose`` looks up the boxes of the rolls it meets
(``roll_boxes``), the seat works out only the keep levels it reads
(``seat_keeps``), and the exact turn averages the turns after it side by
side (``exact_lanes``), leaving out those with no chance left; those turns
have one box to fill, so their chances and rolls are worked out for that
box alone (``one_box_chances``, ``one_box_scores``).  No sum is reordered
(the kernels here do not reassociate), so the values agree bit for bit.
The table rows a step reads are asked for before it starts (``prefetch``:
``fill_chances`` those of every state after the turn, ``opponents_best``
every opponent's), so their cache misses overlap; that changes no value.
"""
