"""The web tests' fixtures (headless Chromium) for the community's tests."""

from web.conftest import browser  # noqa: F401  (a fixture: pytest finds it by name)

from .test_mail import smtp  # noqa: F401  (aiosmtpd on loopback, for the browser tests too)
