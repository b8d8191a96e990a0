"""Shared test settings."""

import os

from hypothesis import HealthCheck, settings

# Property tests: a fixed profile in CI so the run is reproducible and bounded.
settings.register_profile("ci", derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "dev")

ARTIFACTS = os.path.join(os.path.dirname(os.path.dirname(__file__)), "artifacts")
