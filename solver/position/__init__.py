"""A position in a game: the scorecard (a turn-start state of the state
space, with its text ``box=points,...``) and the actions taken from it
(``keep 5 6``, ``score chance``), both round-tripping through text."""
