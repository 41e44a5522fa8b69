"""Versions recorded in stored tables: a table from another engine version is
recomputed, never used."""

ENGINE_VERSION = 1
TABLE_FORMAT = 1
