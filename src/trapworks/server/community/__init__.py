"""The community (issue 41): friends, challenges, protection between players and moderation.

One module per feature, each with its own APIRouter: friends.py (follow, friends and their
presence and games), challenges.py (challenge a named player), safety.py (block, mute, report),
watch.py (live games, the featured game per game), arena.py (arenas, trophies), profiles.py
(results by opponent), swiss.py (Swiss for correspondence),
moderation.py (the moderator's page and actions, bans at log-in, mutes in chat), mail.py (e-mail
through SMTP: addresses, password reset, reminders, notices; `enable_mail`). Tables:
models.py (migration 0008). `install(app, service)` adds the routers and the three
hooks the rest of the server calls: a ban check at log-in, a block check in quick-game pairing,
a mute check in the game chat.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

from ..features.chat import Chat
from . import arena, challenges, friends, mail, moderation, profiles, safety, swiss, watch
from .core import Community

if TYPE_CHECKING:
    from fastapi import FastAPI

    from ..service import GameService

__all__ = ["Community", "enable_mail", "enable_recurring_arenas", "install"]


def install(app: FastAPI, service: GameService) -> Community:
    accounts = app.state.accounts  # installed before (server/accounts)
    community = Community(service, accounts)
    the_friends = friends.Friends(community)
    the_challenges = challenges.Challenges(community)
    the_safety = safety.Safety(community)
    the_moderation = moderation.Moderation(community)
    accounts.login_checks.append(the_moderation.check_login)
    app.state.matchmaker.kept_apart = community.blocked_between
    service.feature(Chat).checks.append(the_moderation.check_chat)
    service.feature(Chat).authors.append(the_safety.author_of)
    service.feature(Chat).mutes.append(the_safety.mutes_in)
    service.viewer_of = community.viewer_of
    app.state.community = community
    app.state.challenges = the_challenges
    app.state.moderation = the_moderation
    app.include_router(friends.build_router(community, the_friends))
    app.include_router(challenges.build_router(community, the_challenges))
    app.include_router(safety.build_router(community, the_safety))
    app.include_router(moderation.build_router(community, the_moderation))
    app.include_router(watch.build_router(community, watch.Watch(community)))
    the_mail = mail.Mail(community)
    the_challenges.on_sent.append(the_mail.challenge_notice)
    app.state.mail = the_mail
    app.include_router(mail.build_router(community, the_mail))
    the_swiss = swiss.Swiss(community)
    the_arenas = arena.Arenas(community, the_swiss)
    app.include_router(swiss.build_router(community, the_swiss, the_arenas.wake))
    app.state.arenas = the_arenas
    app.include_router(arena.build_router(community, the_arenas))
    app.include_router(profiles.build_router(community, profiles.Records(community), the_arenas))
    _run_with_the_app(app, the_mail, the_arenas)
    return community


def enable_mail(app: FastAPI, smtp_url: str, sender: str | None = None) -> mail.SmtpSettings:
    """Send mail through `smtp_url` (`trapworks serve --smtp`); before the app starts. A bad URL:
    ValueError naming the problem."""
    settings = mail.parse_smtp_url(smtp_url, sender)
    app.state.mail.settings = settings
    return settings


def enable_recurring_arenas(app: FastAPI, on: bool = True) -> None:
    """The hourly arenas per game (arena.py RECURRING), made by the arena loop from the app's
    start (`trapworks serve` turns them on, `--no-recurring-arenas` off; an app made by
    create_app alone has none, so tests count only the arenas they make). Before the app starts."""
    app.state.arenas.recurring = on


def _run_with_the_app(app: FastAPI, the_mail: mail.Mail, the_arenas: arena.Arenas) -> None:
    """The mail sender and the arena loop start and stop with the app (its lifespan, wrapped:
    app.py is not touched)."""
    inner = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(a: Any) -> AsyncIterator[Any]:
        async with inner(a) as state:
            the_mail.start()
            the_arenas.start()
            try:
                yield state
            finally:
                await the_arenas.stop()
                await the_mail.stop()

    app.router.lifespan_context = lifespan
