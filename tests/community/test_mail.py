"""E-mail through a real SMTP server on loopback (aiosmtpd) (issue 41, deliver 5 and must show):
an address confirmed by its link; a password reset end to end (the mail received, its link used
once, a second use refused, the new password logs in, the old one and the old sessions do not);
an expired link refused; a correspondence "your move" reminder in the player's language with a
working unsubscribe link; a challenge notice; an unreachable SMTP server: the request answered
at once, the mail kept and retried, and sent after a restart; STARTTLS and the log-in of the
URL's user (a server of our own certificate authority); without --smtp the mail routes say
so and nothing is queued."""

from __future__ import annotations

import re
import socket
import time
from email import message_from_bytes, policy
from email.message import Message

import pytest
from aiosmtpd.controller import Controller
from fastapi.testclient import TestClient

from trapworks.server import create_app
from trapworks.server.community import enable_mail
from web.accounts_helpers import PASSWORD, SMALL_LML, Browser, unique

NEW_PASSWORD = "an entirely new passphrase"


class Inbox:
    """aiosmtpd handler: every message received, parsed."""

    def __init__(self) -> None:
        self.messages: list[Message] = []

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd's name)
        self.messages.append(message_from_bytes(envelope.content, policy=policy.default))
        return "250 OK"

    def wait(self, count: int, timeout: float = 15.0) -> list[Message]:
        deadline = time.monotonic() + timeout
        while len(self.messages) < count and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(self.messages) >= count, f"{len(self.messages)} mails received, {count} expected"
        return self.messages


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def smtp():
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    yield inbox, controller.port
    controller.stop()


def make_app(tmp_path, port: int | None):
    app = create_app(f"sqlite:///{tmp_path / 'mail.sqlite'}", data_dir=tmp_path)
    if port is not None:
        enable_mail(app, f"smtp://127.0.0.1:{port}?from=games%40example.org")
        app.state.mail.send_every_s = 0.1
        app.state.mail.retry_s = (0.3,)
    return app


def body_of(mail: Message) -> str:
    return mail.get_content()  # type: ignore[attr-defined]  (an EmailMessage: policy.default)


def confirmed_player(
    c: TestClient, inbox: Inbox, prefix: str, language: str = "en"
) -> tuple[Browser, str, str]:
    b = Browser(TestClient(c.app))  # a browser of its own (cookies)
    name = unique(prefix)
    b.signup(name)
    address = f"{name}@example.org"
    before = len(inbox.messages)
    got = b.post("/api/community/mail", {"address": address, "language": language})
    assert got["confirmed"] is False and got["address"] == address
    mail = inbox.wait(before + 1)[before]
    assert mail["To"] == address and mail["From"] == "games@example.org"
    token = re.search(r"/mail#confirm=([A-Za-z0-9_-]+)", body_of(mail)).group(1)
    assert b.post("/api/community/mail/confirm", {"token": token})["confirmed"] == address
    assert b.post("/api/community/mail/confirm", {"token": token}, status=410)["code"] == "link_used"
    assert b.get("/api/community/mail")["confirmed"] is True
    return b, name, address


def test_password_reset_end_to_end_through_smtp(tmp_path, smtp):
    inbox, port = smtp
    with TestClient(make_app(tmp_path, port)) as c:
        b, name, address = confirmed_player(c, inbox, "alice")
        other = TestClient(c.app)  # a second browser, logged in: the reset logs it out
        Browser(other).login(name)
        anon = Browser(TestClient(c.app))
        anon.me()
        answer = anon.post("/api/community/password/forgot", {"username": name})
        mail = inbox.wait(2)[1]
        assert mail["Subject"] == "Reset your trapworks password" and mail["To"] == address
        token = re.search(r"/mail#reset=([A-Za-z0-9_-]+)", body_of(mail)).group(1)
        assert token not in str(c.app.state.store.url)
        # an unknown player gets the same answer and no mail
        assert anon.post("/api/community/password/forgot", {"username": "no-such-player"}) == answer
        # a weak password is refused and the link still works
        weak = anon.post("/api/community/password/reset", {"token": token, "password": "short"}, status=400)
        assert weak["code"] != "link_used"
        done = anon.post("/api/community/password/reset", {"token": token, "password": NEW_PASSWORD})
        assert done["username"] == name
        again = anon.post(
            "/api/community/password/reset",
            {"token": token, "password": "yet another passphrase"},
            status=410,
        )
        assert again["code"] == "link_used" and "works once" in again["error"]
        assert Browser(other).me()["account"] is None  # its session ended
        assert Browser(TestClient(c.app)).login(name, PASSWORD, status=401)["code"] == "wrong_login"
        fresh = Browser(TestClient(c.app))
        assert fresh.login(name, NEW_PASSWORD)["account"]["username"] == name
        # an expired link is refused, and changes nothing
        anon.post("/api/community/password/forgot", {"username": name})
        token2 = re.search(r"/mail#reset=([A-Za-z0-9_-]+)", body_of(inbox.wait(3)[2])).group(1)
        from sqlalchemy import update

        from trapworks.server.community.core import now
        from trapworks.server.community.mail import token_hash
        from trapworks.server.community.models import MailTokenRow

        with c.app.state.community.db.begin() as s:
            s.execute(
                update(MailTokenRow)
                .where(MailTokenRow.token_hash == token_hash(token2))
                .values(expires=now())
            )
        late = anon.post(
            "/api/community/password/reset",
            {"token": token2, "password": "a third long passphrase"},
            status=410,
        )
        assert late["code"] == "link_expired"
        fresh.login(name, NEW_PASSWORD)
        assert len(inbox.messages) == 3


def test_a_correspondence_reminder_in_french_and_its_unsubscribe_link(tmp_path, smtp):
    inbox, port = smtp
    with TestClient(make_app(tmp_path, port)) as c:
        a, alice, _ = confirmed_player(c, inbox, "alice")
        b, bob, bob_address = confirmed_player(c, inbox, "bob", language="fr")
        # a challenge notice reaches bob, in French, with an unsubscribe link
        sent = a.post(
            "/api/community/challenges",
            {"username": bob, "game": "last-mouse-lost", "options": SMALL_LML, "days_per_move": 1, "seat": 0},
            status=201,
        )["challenge"]
        notice = inbox.wait(3)[2]
        assert notice["To"] == bob_address and notice["Subject"] == f"{alice} vous défie à last-mouse-lost"
        assert "/mail#unsubscribe=" in body_of(notice)
        game = b.post(f"/api/community/challenges/{sent['id']}/accept")
        mail = c.app.state.mail
        mail.remind_after_s = 0  # the move has waited long enough
        # alice (seat 0) is to move: she gets one reminder for this move, however often the scan runs
        assert c.portal.call(mail.remind_due) == 1
        assert c.portal.call(mail.remind_due) == 0
        reminder = inbox.wait(4)[3]
        assert reminder["Subject"] == f"Your move in last-mouse-lost against {bob}"
        assert "hours left" in body_of(reminder) and "/account#my-games" in body_of(reminder)
        assert "#t=" not in body_of(reminder)  # no seat token in a mail
        # alice moves; now bob is to move and is reminded in French
        live = c.app.state.accounts.service.get(game["game_id"])
        token0 = live.stored.seats[0]["token"]
        state = c.get(f"/api/games/{live.id}", params={"token": token0}).json()["state"]
        action = state["view"]["legal_actions"][0]["text"]
        r = c.post(
            f"/api/games/{live.id}/moves", json={"token": token0, "action": action, "ply": state["ply"]}
        )
        assert r.status_code == 200, r.text
        assert c.portal.call(mail.remind_due) == 1
        french = inbox.wait(5)[4]
        assert (
            french["To"] == bob_address
            and french["Subject"] == f"À vous de jouer : last-mouse-lost contre {alice}"
        )
        key = re.search(r"/mail#unsubscribe=([A-Za-z0-9_-]+)", body_of(french)).group(1)
        anon = Browser(TestClient(c.app))
        anon.post("/api/community/mail/unsubscribe", {"token": key})
        assert b.get("/api/community/mail")["reminders"] is False
        assert (
            anon.post("/api/community/mail/unsubscribe", {"token": "not-a-key"}, status=404)["code"]
            == "bad_link"
        )
        # unsubscribed: no more notices
        a.post(
            "/api/community/challenges",
            {"username": bob, "game": "last-mouse-lost", "options": SMALL_LML},
            status=201,
        )
        time.sleep(0.5)
        assert len(inbox.messages) == 5


def test_an_unreachable_smtp_server_keeps_the_mail_and_it_goes_after_a_restart(tmp_path):
    port = free_port()  # nothing listens there yet
    with TestClient(make_app(tmp_path, port)) as c:
        b = Browser(c)
        name = unique("alice")
        b.signup(name)
        started = time.monotonic()
        got = b.post("/api/community/mail", {"address": f"{name}@example.org", "language": "en"})
        assert got["ok"] is True and time.monotonic() - started < 5  # answered, not waiting on SMTP
        from trapworks.server.community.models import OutboxRow

        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with c.app.state.community.db() as s:
                row = s.get(OutboxRow, 1)
            if row is not None and row.attempts >= 2:
                break
            time.sleep(0.1)
        assert row.status == "waiting" and row.attempts >= 2 and "Connection" in (row.last_error or "")
    # restarted with the SMTP server up: the queued mail goes out
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        with TestClient(make_app(tmp_path, port)):
            mail = inbox.wait(1)[0]
            assert mail["To"] == f"{name}@example.org" and "confirm" in mail["Subject"].lower()
    finally:
        controller.stop()


def test_without_smtp_the_mail_features_are_hidden(tmp_path):
    with TestClient(make_app(tmp_path, None)) as c:
        b = Browser(c)
        b.signup(unique("alice"))
        assert b.get("/api/community/mail") == {"enabled": False}
        refused = b.post("/api/community/mail", {"address": "a@example.org"}, status=404)
        assert refused["code"] == "mail_disabled" and "--smtp" in refused["error"]
        assert (
            b.post("/api/community/password/forgot", {"username": "x"}, status=404)["code"] == "mail_disabled"
        )


def test_bad_smtp_urls_and_addresses_are_refused_by_name(tmp_path, smtp):
    from trapworks.server.community.mail import parse_smtp_url

    for url, words in (("http://host", "use smtp://"), ("smtp://", "no host"), ("smtp://h:99999", "port")):
        with pytest.raises(ValueError, match=words):
            parse_smtp_url(url)
    settings = parse_smtp_url("smtp://me:s%40cret@mail.example.org:587")
    assert (settings.user, settings.password, settings.port) == ("me", "s@cret", 587)
    assert "s@cret" not in settings.describe()
    inbox, port = smtp
    with TestClient(make_app(tmp_path, port)) as c:
        b = Browser(c)
        b.signup(unique("alice"))
        assert (
            b.post("/api/community/mail", {"address": "not an address"}, status=400)["code"] == "bad_address"
        )
        assert (
            b.post("/api/community/mail", {"address": "a@example.org", "language": "de"}, status=400)["code"]
            == "bad_language"
        )
        assert b.post("/api/community/mail/confirm", {"token": "nonsense"}, status=404)["code"] == "bad_link"


def test_serve_refuses_a_bad_smtp_url_by_name(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from trapworks.cli import app as cli_app

    monkeypatch.setenv("TRAPWORKS_HOME", str(tmp_path / "home"))
    result = CliRunner().invoke(cli_app, ["serve", "--port", "0", "--smtp", "http://mail.example.org"])
    assert result.exit_code == 2
    assert "--smtp 'http': use smtp://user:pass@host:port or smtps://..." in result.output


def _loopback_certificate(folder) -> tuple[str, str, str]:
    """A certificate authority of the test's own and a certificate it signs for 127.0.0.1: the
    paths of (the CA's certificate, the server's certificate, its key)."""
    import datetime
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    def name(text: str) -> x509.Name:
        return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, text)])

    start = datetime.datetime.now(datetime.UTC) - datetime.timedelta(minutes=5)
    end = start + datetime.timedelta(days=1)
    ca_key, key = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP256R1())
    ca = (
        x509.CertificateBuilder()
        .subject_name(name("trapworks test CA"))
        .issuer_name(name("trapworks test CA"))
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(start)
        .not_valid_after(end)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=True,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    cert = (
        x509.CertificateBuilder()
        .subject_name(name("127.0.0.1"))
        .issuer_name(ca.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(start)
        .not_valid_after(end)
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False
        )
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False
        )
        .sign(ca_key, hashes.SHA256())
    )
    paths = (str(folder / "ca.pem"), str(folder / "server.pem"), str(folder / "server.key"))
    pem = serialization.Encoding.PEM
    (folder / "ca.pem").write_bytes(ca.public_bytes(pem))
    (folder / "server.pem").write_bytes(cert.public_bytes(pem))
    (folder / "server.key").write_bytes(
        key.private_bytes(pem, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    return paths


def test_mail_goes_over_starttls_and_logs_in_with_the_urls_user_and_password(tmp_path, monkeypatch):
    """`--smtp smtp://user:pass@host:port` to a server that offers STARTTLS and takes a log-in
    only over TLS: the mail goes encrypted (the server's certificate checked against the trusted
    authorities) and logged in as the URL's user and password (a ':' in it written %3A)."""
    import ssl

    from aiosmtpd.smtp import AuthResult, LoginPassword

    ca, cert, key = _loopback_certificate(tmp_path)
    monkeypatch.setenv("SSL_CERT_FILE", ca)  # the test's authority is the one trusted
    server_tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server_tls.load_cert_chain(cert, key)
    logins: list[tuple[str, bool]] = []  # (user, accepted) of each log-in the server was asked

    def authenticator(server, session, envelope, mechanism, data):
        ok = isinstance(data, LoginPassword) and (data.login, data.password) == (b"mailer", b"s3cr:et")
        logins.append((data.login.decode() if isinstance(data, LoginPassword) else "", ok))
        return AuthResult(success=ok, auth_data=data if ok else None)

    class TlsInbox(Inbox):
        def __init__(self) -> None:
            super().__init__()
            self.sessions: list[tuple[bool, object]] = []

        async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd's name)
            self.sessions.append((session.ssl is not None, getattr(session.auth_data, "login", None)))
            return await super().handle_DATA(server, session, envelope)

    inbox = TlsInbox()
    port = free_port()
    controller = Controller(
        inbox,
        hostname="127.0.0.1",
        port=port,
        tls_context=server_tls,
        require_starttls=True,
        authenticator=authenticator,
        auth_require_tls=True,
        auth_required=True,
    )
    controller.start()
    try:
        app = create_app(f"sqlite:///{tmp_path / 'mail.sqlite'}", data_dir=tmp_path)
        enable_mail(app, f"smtp://mailer:s3cr%3Aet@127.0.0.1:{port}?from=games%40example.org")
        app.state.mail.send_every_s = 0.1
        app.state.mail.retry_s = (0.3,)
        with TestClient(app) as c:
            b = Browser(c)
            name = unique("alice")
            b.signup(name)
            b.post("/api/community/mail", {"address": f"{name}@example.org", "language": "en"})
            mail = inbox.wait(1)[0]
            assert mail["To"] == f"{name}@example.org"
            assert inbox.sessions == [(True, b"mailer")]  # over TLS, logged in as the URL's user
            assert logins == [("mailer", True)]
    finally:
        controller.stop()
