"""Running in front of the internet (issue 40): one hook (`install`) adds to the app

- the trusted proxies' X-Forwarded-For/-Proto (outermost: every bound and log line sees the real
  client) and the Host allow-list with the admin-only paths (proxy.py);
- `/healthz` and `/readyz` (health.py), `/metrics` and its middleware (metrics.py);
- the log-in throttle's answers and the sign-up bounds (accounts/throttle.py).

Middleware order, outermost first: trusted proxies, the early refusal of creations (bounds.py
`EarlyRefusal`), access log, metrics, security headers, Host
check, Origin check, request limits, sign-up bounds, bounds, the app.
"""

from __future__ import annotations

from typing import Any

from starlette.middleware import Middleware
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from .accesslog import AccessLogMiddleware
from .accounts.throttle import SignupBounds, Throttled, throttled_answer
from .bounds import BoundsMiddleware, EarlyRefusal
from .headers import SecurityHeaders
from .health import add_health_routes
from .metrics import MetricsMiddleware
from .metrics import install as install_metrics
from .proxy import HostCheck, OpsSettings

SIGNUPS_PER_ADDRESS_HOUR = 10
SIGNUPS_PER_MINUTE = 60


def _index(app: Any, cls: type) -> int:
    for i, m in enumerate(app.user_middleware):
        if m.cls is cls:
            return i
    raise LookupError(f"{cls.__name__} is not in the app's middleware")


def install(app: Any, settings: OpsSettings, service: Any, store: Any, bus: Any) -> None:
    app.state.ops = settings
    add_health_routes(app, store, bus)
    metrics = install_metrics(app, service, bus)
    app.add_exception_handler(Throttled, throttled_answer)
    stack = app.user_middleware  # index 0 is the outermost
    stack.insert(
        _index(app, BoundsMiddleware),
        Middleware(SignupBounds, per_address=SIGNUPS_PER_ADDRESS_HOUR, total=SIGNUPS_PER_MINUTE),
    )
    stack.insert(_index(app, SecurityHeaders) + 1, Middleware(HostCheck, settings=settings))
    stack.insert(_index(app, AccessLogMiddleware) + 1, Middleware(MetricsMiddleware, metrics=metrics))
    # i40: creations the bounds refuse anyway are answered before everything else (bounds.py)
    stack.insert(0, Middleware(EarlyRefusal, gate=app.state.creation_gate, metrics=metrics))
    if settings.trusted_proxies:
        stack.insert(0, Middleware(ProxyHeadersMiddleware, trusted_hosts=list(settings.trusted_proxies)))
