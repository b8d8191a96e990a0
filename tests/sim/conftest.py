"""The Ray cluster that tests/sim/test_ray.py, test_ray_no_workers.py and test_ray_operations.py's
token test share: one head node for the session, its worker nodes started when a test asks for
them. It runs with token authentication (docs/scale.md's set-up: RAY_AUTH_MODE=token, one
RAY_AUTH_TOKEN on every node and driver, `cluster.auth`), which the token test needs and the
others do not mind: before, the token test started a head of its own (a head start and its
daemons, for one test; a head and a worker started cost 15-17 CPU s, docs/testing.md).

Starting a node is the cost of these tests (each a `ray start` process and Ray's daemons, several
CPU seconds, and every wait for it imports Ray in a new process): before, each file started its
own head and workers, and the lost-worker test started its worker again for the tests after it.
Now a test that kills workers leaves them dead, and the next test that needs them starts them
again (`Cluster.ensure_workers`); run in file order, no node is started twice.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest


@pytest.fixture(scope="session")
def ray_cluster() -> Iterator:
    pytest.importorskip("ray")
    from sim.ray_cluster import Cluster

    # A head node with no CPU (Ray's advice for real clusters): every chunk runs on a worker node,
    # so a test that kills a worker knows it held work (with a CPU on the head, a fast run could
    # finish on the head before a worker's first process had started).
    cluster = Cluster(head_cpus=0, token=os.urandom(16).hex())
    try:
        cluster.start_head()
        yield cluster
    finally:
        cluster.stop()
