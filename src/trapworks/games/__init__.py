"""The built-in games, one package each. Registering imports nothing until a game is made."""

from trapworks.core.registry import register_game

BUILTIN_GAMES = {
    "dead-end-drive": "trapworks.games.dead_end_drive:DeadEndDriveGame",
    "last-mouse-lost": "trapworks.games.last_mouse_lost:LastMouseLostGame",
    "booby-trap": "trapworks.games.booby_trap:BoobyTrapGame",
    "mouse-trap": "trapworks.games.mouse_trap:MouseTrapGame",
}

for _game_id, _factory in BUILTIN_GAMES.items():
    register_game(_game_id, _factory)
