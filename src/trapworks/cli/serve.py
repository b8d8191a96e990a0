"""`trapworks serve`: the web app on localhost."""

from __future__ import annotations

import socket

import typer

# The options, named once here so that the command reads as its list of parameters.
HOST_OPTION = typer.Option("127.0.0.1", help="Address to listen on (127.0.0.1: this computer only).")
PORT_OPTION = typer.Option(8000, help="Port to listen on (0: any free port).")
DB_OPTION = typer.Option(
    None,
    help="Database URL (SQLAlchemy), e.g. postgresql+psycopg://user:pw@host/trapworks. "
    "Default: an SQLite file in the data folder ($TRAPWORKS_HOME).",
)
RATE_LIMIT_OPTION = typer.Option(
    200.0,
    min=0,
    help="HTTP requests per second per client address (burst: 5 s worth); 0: no limit "
    "(a load test from one machine).",
)
BUS_OPTION = typer.Option(
    None,
    help="How the nodes of a cluster (several `trapworks serve` on one PostgreSQL database) "
    "hear of each other's changes: 'postgres' (LISTEN/NOTIFY, the default on PostgreSQL), "
    "a redis://host:6379/0 URL (Redis pub/sub), or 'local' (one process: the SQLite default). "
    "See docs/cluster.md.",
)
LOG_JSON_OPTION = typer.Option(
    False,
    "--log-json",
    help="Same as --log-format json.",
)
LOG_FORMAT_OPTION = typer.Option(
    None,
    "--log-format",
    help="'text' (default) or 'json': every log line of the server as one JSON object, with "
    "its request id (also TRAPWORKS_LOG_FORMAT, or log_format in the config file).",
)
TRUSTED_PROXY_OPTION = typer.Option(
    [],
    "--trusted-proxy",
    help="ADDR[,ADDR...]: a load balancer or proxy (address or network) whose "
    "X-Forwarded-For/-Proto are believed; from anyone else they are ignored. Repeatable; "
    "also TRAPWORKS_TRUSTED_PROXY or trusted_proxy in the config file. See docs/cluster.md.",
)
ALLOWED_HOST_OPTION = typer.Option(
    [],
    "--allowed-host",
    help="A host name this server answers to (*.example.org for its subdomains); other Host "
    "headers and WebSocket Origins are refused (DNS rebinding). Default: the addresses served. "
    "Repeatable; also TRAPWORKS_ALLOWED_HOST or allowed_host in the config file.",
)
ADMIN_ADDRESS_OPTION = typer.Option(
    [],
    "--admin-address",
    help="An address or network that may read /metrics and /api/node (besides the trusted "
    "proxies). Default: loopback. Repeatable; also TRAPWORKS_ADMIN_ADDRESS.",
)
CONFIG_OPTION = typer.Option(
    None,
    "--config",
    help="A TOML file with trusted_proxy, allowed_host, admin_address, log_format "
    "(also TRAPWORKS_CONFIG); the command line and the environment come first.",
)
ALLOWED_ORIGIN_OPTION = typer.Option(
    [],
    "--allowed-origin",
    help="An origin (e.g. https://games.example.org) whose pages may open game sockets, "
    "besides the address the request was sent to (behind a proxy that rewrites Host). Repeatable.",
)
SMTP_OPTION = typer.Option(
    None,
    "--smtp",
    help="Send e-mail (address confirmation, password reset, reminders, challenge notices) "
    "through this SMTP server: smtp://user:pass@host:port (STARTTLS where offered) or smtps://...; "
    "?from=address sets the sender. Without it the e-mail features are hidden.",
)

RECURRING_ARENAS_OPTION = typer.Option(
    True,
    "--recurring-arenas/--no-recurring-arenas",
    envvar="TRAPWORKS_RECURRING_ARENAS",
    help="Keep an hourly arena per game (40 minutes, 30 s a move), made by one node of a cluster.",
)


def register(app: typer.Typer) -> None:
    @app.command("serve")
    def serve_command(
        host: str = HOST_OPTION,
        port: int = PORT_OPTION,
        db: str | None = DB_OPTION,
        rate_limit: float = RATE_LIMIT_OPTION,
        bus: str | None = BUS_OPTION,
        log_json: bool = LOG_JSON_OPTION,
        log_format: str | None = LOG_FORMAT_OPTION,
        trusted_proxy: list[str] = TRUSTED_PROXY_OPTION,
        allowed_host: list[str] = ALLOWED_HOST_OPTION,
        admin_address: list[str] = ADMIN_ADDRESS_OPTION,
        config: str | None = CONFIG_OPTION,
        allowed_origin: list[str] = ALLOWED_ORIGIN_OPTION,
        smtp: str | None = SMTP_OPTION,
        recurring_arenas: bool = RECURRING_ARENAS_OPTION,
    ) -> None:
        """Start the web app: play in the browser, against AI or with friends by link."""
        serve(
            host=host,
            port=port,
            db=db,
            rate_limit=rate_limit,
            bus=bus,
            log_json=log_json,
            log_format=log_format,
            trusted_proxy=trusted_proxy,
            allowed_host=allowed_host,
            admin_address=admin_address,
            config=config,
            allowed_origin=allowed_origin,
            smtp=smtp,
            recurring_arenas=recurring_arenas,
        )


def serve(
    host: str,
    port: int,
    db: str | None,
    rate_limit: float,
    bus: str | None,
    log_json: bool,
    log_format: str | None,
    trusted_proxy: list[str],
    allowed_host: list[str],
    admin_address: list[str],
    config: str | None,
    allowed_origin: list[str],
    smtp: str | None,
    recurring_arenas: bool = True,
) -> None:
    import uvicorn

    from trapworks.server import create_app
    from trapworks.server.accesslog import configure as configure_access_log
    from trapworks.server.limits import uvicorn_settings
    from trapworks.server.proxy import OpsSettings, SettingsError
    from trapworks.server.store import default_url

    from .options import data_dir

    try:
        ops = OpsSettings.load(
            trusted_proxy=trusted_proxy,
            allowed_host=allowed_host,
            admin_address=admin_address,
            log_format="json" if log_json else log_format,
            config=config,
            served_host=host,
        )
    except SettingsError as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(2) from None
    configure_access_log(json_lines=ops.log_format == "json")
    url = db or default_url(data_dir())
    sock = _listen(host, port)
    try:
        rate = (rate_limit, 5 * rate_limit) if rate_limit > 0 else (float("inf"), float("inf"))
        web_app = create_app(
            url,
            manage_memory=True,
            request_rate=rate,
            bus=bus,
            allowed_origins=tuple(allowed_origin),
            ops=ops,
        )
    except Exception as e:  # a bad --db URL, an unreachable database
        typer.echo(f"error: cannot open the database {url}: {e}", err=True)
        raise typer.Exit(2) from None
    if smtp:  # i41: e-mail (server/community/mail.py)
        from trapworks.server.community import enable_mail

        try:
            typer.echo(f"e-mail through {enable_mail(web_app, smtp).describe()}")
        except ValueError as e:
            typer.echo(f"error: {e}", err=True)
            raise typer.Exit(2) from None
    if recurring_arenas:  # i41: the hourly arenas per game (server/community/arena.py)
        from trapworks.server.community import enable_recurring_arenas

        enable_recurring_arenas(web_app)
    _tell_address(host, sock, url)
    # Header, body and handshake limits and timeouts: see server/limits.py.
    # JSON logs: uvicorn's own logging setup is skipped, its lines go through ours (i40).
    logging_setup: dict = {"log_config": None} if ops.log_format == "json" else {}
    settings = uvicorn_settings()
    if ops.trusted_proxies:  # i40: the PROXY protocol's header believed from them (proxyproto.py)
        from trapworks.server.proxyproto import with_proxy_protocol

        settings["http"] = with_proxy_protocol(settings["http"], list(ops.trusted_proxies))
    server_config = uvicorn.Config(web_app, log_level="warning", **settings, **logging_setup)
    server = uvicorn.Server(server_config)
    server.run(sockets=[sock])


def _listen(host: str, port: int) -> socket.socket:
    """The listening socket, bound before the app starts (so port 0 can be shown as the real one)."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as e:
        typer.echo(f"error: cannot listen on {host}:{port}: {e.strerror}; try another --port", err=True)
        raise typer.Exit(2) from None
    return sock


def _tell_address(host: str, sock: socket.socket, url: str) -> None:
    """Where to open the app, and which database it uses (without its password)."""
    shown_host = "localhost" if host in ("127.0.0.1", "::1", "localhost", "0.0.0.0", "::") else host
    real_port = sock.getsockname()[1]
    shown = url if "@" not in url else url.split("@")[-1]
    typer.echo(f"trapworks is serving at http://{shown_host}:{real_port}/  (database: {shown})", err=False)
    typer.echo("Open that address in your browser. Press Ctrl+C to stop.")
