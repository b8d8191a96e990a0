"""The community (issue 41): friends, challenges, protection between players and moderation.

One module per feature, each with its own APIRouter: friends.py (follow, friends and their
presence and games), challenges.py (challenge a named player), safety.py (block, mute, report),
moderation.py (the moderator's page and actions, bans at log-in, mutes in chat). Tables:
models.py (migration 0007_i41_community). `install(app, service)` adds the routers and the three
hooks the rest of the server calls: a ban check at log-in, a block check in quick-game pairing,
a mute check in the game chat.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..features.chat import Chat
from . import challenges, friends, moderation, safety
from .core import Community

if TYPE_CHECKING:
    from fastapi import FastAPI

    from ..service import GameService

__all__ = ["Community", "install"]


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
    app.state.community = community
    app.state.challenges = the_challenges
    app.state.moderation = the_moderation
    app.include_router(friends.build_router(community, the_friends))
    app.include_router(challenges.build_router(community, the_challenges))
    app.include_router(safety.build_router(community, the_safety))
    app.include_router(moderation.build_router(community, the_moderation))
    return community
