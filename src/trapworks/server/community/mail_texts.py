# ruff: noqa: E501  (mail texts: one sentence per line reads better than split strings)
"""The e-mails' texts in English and French (issue 41): a subject and a plain-text body per kind,
with named fields. Every mail ends with the unsubscribe line where it has one."""

from __future__ import annotations

from typing import Any

LANGUAGES = ("en", "fr")

TEXTS: dict[str, dict[str, tuple[str, str]]] = {
    "confirm": {
        "en": (
            "Confirm your e-mail address on trapworks",
            "Hello {username},\n\nto confirm that {address} is yours, open this link (valid {hours} hours):\n"
            "{link}\n\nIf you did not ask for this, ignore this mail.",
        ),
        "fr": (
            "Confirmez votre adresse e-mail sur trapworks",
            "Bonjour {username},\n\npour confirmer que {address} est à vous, ouvrez ce lien (valable {hours} heures) :\n"
            "{link}\n\nSi vous n'avez rien demandé, ignorez ce message.",
        ),
    },
    "reset": {
        "en": (
            "Reset your trapworks password",
            "Hello {username},\n\nto choose a new password, open this link within {minutes} minutes. It works once:\n"
            "{link}\n\nIf you did not ask for this, ignore this mail: your password stays as it is.",
        ),
        "fr": (
            "Réinitialiser votre mot de passe trapworks",
            "Bonjour {username},\n\npour choisir un nouveau mot de passe, ouvrez ce lien dans les {minutes} minutes. "
            "Il ne sert qu'une fois :\n{link}\n\nSi vous n'avez rien demandé, ignorez ce message : votre mot de passe "
            "ne change pas.",
        ),
    },
    "reminder": {
        "en": (
            "Your move in {game} against {opponent}",
            "Hello {username},\n\nit is your move in {game} against {opponent}: {hours} hours left.\n"
            "Your games: {link}",
        ),
        "fr": (
            "À vous de jouer : {game} contre {opponent}",
            "Bonjour {username},\n\nc'est à vous de jouer dans {game} contre {opponent} : il reste {hours} heures.\n"
            "Vos parties : {link}",
        ),
    },
    "challenge": {
        "en": (
            "{challenger} challenges you to {game}",
            "Hello {username},\n\n{challenger} challenges you to a game of {game}. Accept or decline it here:\n{link}",
        ),
        "fr": (
            "{challenger} vous défie à {game}",
            "Bonjour {username},\n\n{challenger} vous défie à une partie de {game}. Acceptez ou refusez ici :\n{link}",
        ),
    },
}

UNSUBSCRIBE = {
    "en": "\n\n--\nNo more reminders or notices by mail: {link}",
    "fr": "\n\n--\nNe plus recevoir de rappels ni d'avis par e-mail : {link}",
}


def render(kind: str, language: str, fields: dict[str, Any], unsubscribe: str | None) -> tuple[str, str]:
    """(subject, body) of a mail in `language` (English where it has none)."""
    subject, body = TEXTS[kind].get(language) or TEXTS[kind]["en"]
    text = body.format(**fields)
    if unsubscribe:
        text += (UNSUBSCRIBE.get(language) or UNSUBSCRIBE["en"]).format(link=unsubscribe)
    return subject.format(**fields), text
