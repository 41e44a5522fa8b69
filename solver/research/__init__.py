"""What researchers run with the player: exact distributions, simulations
(a layer at a time or game by game), game logs and their review, matches,
exports, summary statistics and plots."""
