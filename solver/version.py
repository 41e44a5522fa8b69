"""The program's version, and the versions recorded in stored tables.

``__version__`` is the release (semantic versioning: a change of the first
number breaks something a user relied on, the second adds, the third
fixes); ``pyproject.toml`` reads it from here.  ``TABLE_FORMAT`` and
``ENGINE_VERSION`` are the stored tables' own and change on their own: a
table written with another format or by another engine is recomputed,
never used, whatever the release (``docs/tables.md``).
"""

__version__ = "1.0.0"

ENGINE_VERSION = 1
TABLE_FORMAT = 1
