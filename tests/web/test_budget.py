"""The build budget of ``yatzy serve`` (``yatzy.web.budget``): presets free,
other rules refused without ``--allow-rules``, and with it at most so many
builds and bytes per client and in all."""

import pytest

from yatzy.rules.ruleset import parse_rules
from yatzy.web.budget import Budget, Refused

OTHER = [parse_rules(f"nordic:bonus_threshold={t}") for t in range(50, 60)]


def test_presets_are_always_built_and_other_rules_only_when_allowed():
    budget = Budget(False)
    for name in ("nordic", "yahtzee", "forced"):
        budget.charge(parse_rules(name), "values", lambda: 10**12, "10.0.0.2")
    with pytest.raises(Refused) as e:
        budget.charge(OTHER[0], "values", lambda: 1, "10.0.0.2")
    assert e.value.status == 403 and e.value.code == "rules_not_allowed"


def test_each_client_has_its_builds_and_bytes_and_the_server_its_total():
    budget = Budget(True, builds_per_client=2, builds_total=3, disk_per_client=100,
                    disk_total=1000)
    budget.charge(OTHER[0], "values", lambda: 10, "a")
    budget.charge(OTHER[0], "values", lambda: 10, "b")          # built already: not charged again
    budget.charge(OTHER[1], "parts", lambda: 10, "a")
    with pytest.raises(Refused) as e:
        budget.charge(OTHER[2], "values", lambda: 10, "a")      # a's third build
    assert e.value.status == 429
    with pytest.raises(Refused) as e:
        budget.charge(OTHER[3], "values", lambda: 101, "b")     # over b's bytes
    assert e.value.status == 429
    budget.charge(OTHER[3], "values", lambda: 10, "b")
    with pytest.raises(Refused) as e:
        budget.charge(OTHER[4], "values", lambda: 10, "c")      # the server's fourth build
    assert e.value.status == 507


def test_the_servers_own_rules_are_free():
    budget = Budget(False)
    budget.presets |= {OTHER[5].spec}
    budget.charge(OTHER[5], "parts", lambda: 10**9, "x")


def test_the_budget_is_shared_by_workers_and_kept_over_a_restart(tmp_path):
    """Two budgets on one file (two workers, or a server and its restart)
    draw on the same builds."""
    path = tmp_path / "tables.sqlite"
    first = Budget(True, builds_per_client=2, builds_total=3, path=path)
    first.charge(OTHER[6], "values", lambda: 10, "a")
    first.charge(OTHER[7], "values", lambda: 10, "b")
    again = Budget(True, builds_per_client=2, builds_total=3, path=path)
    again.charge(OTHER[6], "values", lambda: 10, "c")           # built already: free
    again.charge(OTHER[8], "values", lambda: 10, "a")
    with pytest.raises(Refused) as e:
        again.charge(OTHER[9], "values", lambda: 10, "c")       # the fourth in all
    assert e.value.status == 507
    with pytest.raises(Refused) as e:
        first.charge(OTHER[9], "values", lambda: 10, "a")       # a's third, seen by the first
    assert e.value.status == 429
