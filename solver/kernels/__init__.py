"""Every compiled (Numba) function of the package, and the named tuples of
arrays they take.  Nothing outside this package imports Numba except the
table builder that runs the solve (``yatzy.tables.build``)."""
