import pytest

from solver.rules import parse_rules
from solver.tables import open_table


@pytest.fixture(scope="session")
def tables_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("tables")


@pytest.fixture(scope="session")
def nordic(tables_dir):
    """The full nordic table, solved once per test session."""
    return open_table(parse_rules("nordic"), tables_dir, progress=False)
