"""The parts of ``yatzy play``, the coach at the table, each with one job.

- ``texts``: moves, actions and the game's errors as words in the language;
- ``card``: the scorecard ("protokoll") as text, fitted to a width;
- ``screen``: what is printed (lines, the steady screen: card, events, dice);
- ``prompt``: reading a line from the player;
- ``moves``: a typed move checked against the dice and the card, then played;
- ``hints``: the ranked list, a move's cost and why, the running loss;
- ``solving``: the tables a game needs, solved in a child process;
- ``ending``: game over, the review and the ratings database;
- ``loop``: the coach itself, the loop of turns over ``yatzy.session.Session``.

``yatzy.cli.play`` is the command (its options) that starts the coach.
"""
