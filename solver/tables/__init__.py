"""Solved tables: the value table (``build`` solves it, ``store`` keeps it on
disk with a header, checksum and memory map, ``values`` reads it) and the
target table of the largest chance to reach every score."""
