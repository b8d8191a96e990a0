"""The built-in games, one package each, each declaring itself once in its `SPEC`
(trapworks.core.spec.GameSpec). They are found through the `trapworks.games` entry-point group
declared in pyproject.toml (trapworks.core.registry); listing them imports none of them."""
