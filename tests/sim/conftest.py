"""The Ray cluster that tests/sim/test_ray.py and test_ray_no_workers.py share: one head node for
the session, its worker nodes started when a test asks for them.

Starting a node is the cost of these tests (each a `ray start` process and Ray's daemons, several
CPU seconds, and every wait for it imports Ray in a new process): before, each file started its
own head and workers, and the lost-worker test started its worker again for the tests after it.
Now a test that kills workers leaves them dead, and the next test that needs them starts them
again (`Cluster.ensure_workers`); run in file order, no node is started twice.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(scope="session")
def ray_cluster() -> Iterator:
    pytest.importorskip("ray")
    from sim.ray_cluster import Cluster

    # A head node with no CPU (Ray's advice for real clusters): every chunk runs on a worker node,
    # so a test that kills a worker knows it held work (with a CPU on the head, a fast run could
    # finish on the head before a worker's first process had started).
    cluster = Cluster(head_cpus=0)
    try:
        cluster.start_head()
        yield cluster
    finally:
        cluster.stop()
