"""The player: the preferred action in a position under the one tie rule
(``advice``), the policies for whole layers of states (``policy``), advice
that plays to win (``win``, ``futures``) and the Trippel-Yatzy strategy
(``triple``)."""
