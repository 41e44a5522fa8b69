"""The game as data: boxes and how a roll scores in each, dice multisets,
the rule set (presets and keys), the tie rule among equally good actions,
and the words of en/nb/sv."""
