"""Who calls a route: how the caller of each kind of route is authenticated, as the area whose records the
callers are declares it.

The shared core knows the kinds of route (:class:`~livecore.api.route.Auth`) and checks the API key every
non-public route takes; it names no caller. The area that owns a caller declares, in its
:class:`~livecore.area.Area`, an :class:`Authentication` at :data:`AUTHENTICATION`: the kinds of route it
authenticates the caller of, the codes those routes answer a refused credential with, and how the caller is
found and admitted. The players area declares the player of ``Auth.PLAYER`` and ``Auth.KEY_OR_PLAYER``
routes (its secret, and the ban on its own writes). Django's core is the model: it calls the
authentication backends a project lists, and never imports ``django.contrib.auth``.

What reads it: the server (:mod:`livecore_server.http.endpoint`) authenticates a route's caller with it in
the route's transaction, its guard counts the refused credentials, and the OpenAPI documents
(:mod:`livecore.api.openapi`) list its codes on every route of its kinds. An area whose callers' credential
the server admits on its own surface (the operators' members, ``/admin/v1``) declares how the documents
describe it (:class:`DocumentedCredential`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import attrs

from livecore.api.route import Auth, Route, Surface
from livecore.contributions import Contributions, Point, served
from livecore.errors import Code

#: Finds the caller a route's path names from its credential, in the route's transaction:
#: ``(tx, rt, scope, external_id, secret) -> caller``, refusing with one of the declared codes.
Authenticate = Callable[[Any, Any, Any, str, str | None], Any]
#: The caller as the route lets it act, ``(route, caller) -> caller``, or a refusal (a banned player's
#: own write).
Admit = Callable[[Route, Any], Any]


@attrs.frozen
class Authentication:
    """How the callers of the routes of some kinds are authenticated."""

    #: The kinds of route whose caller it authenticates.
    kinds: frozenset[Auth]
    #: What a route of these kinds answers a wrong or missing credential with (the server's guard counts
    #: these refusals against the caller); the first also answers a credential of the wrong form.
    refusals: tuple[Code, ...]
    authenticate: Authenticate
    admit: Admit


#: Where an area declares how the callers of some kinds of route are authenticated.
AUTHENTICATION: Point[Authentication] = Point("api.authentication")


#: A route's OpenAPI security requirements: each a scheme's name with its scopes (none).
Security = list[dict[str, list[str]]]


@attrs.frozen
class DocumentedCredential:
    """How the OpenAPI documents describe the credential of the routes of some kinds, declared by the area
    whose callers take it: the operators' members, whose surface (``/admin/v1``) is the area's own."""

    kinds: frozenset[Auth]
    #: The surface whose document is the area's: its title, its description and its security schemes.
    surface: Surface
    title: str
    description: str
    schemes: Mapping[str, Any]
    #: A route's security requirements.
    security: Callable[[Route], Security]
    #: The sentence of a route's description that says what credential it takes and who may call it.
    needs: Callable[[Route], str]


#: Where an area declares how the documents describe the credential of some kinds of route.
DOCUMENTED_CREDENTIALS: Point[DocumentedCredential] = Point("api.documented_credentials")


def documented_credential(auth: Auth) -> DocumentedCredential | None:
    """How the documents describe the credential of a route of kind ``auth``, when an area declares it."""
    for declared in served().of(DOCUMENTED_CREDENTIALS):
        if auth in declared.kinds:
            return declared
    return None


def documented_surface(surface: Surface) -> DocumentedCredential | None:
    """The declaration whose area's own surface is ``surface``, if one is."""
    for declared in served().of(DOCUMENTED_CREDENTIALS):
        if declared.surface is surface:
            return declared
    return None


def authentication(auth: Auth, contributions: Contributions | None = None) -> Authentication | None:
    """What authenticates the caller of a route of kind ``auth``, among ``contributions`` (the process's
    areas when not given); None when no area declares one (the API key alone, or no credential)."""
    for declared in (contributions or served()).of(AUTHENTICATION):
        if auth in declared.kinds:
            return declared
    return None


def credential_refusals(auth: Auth, contributions: Contributions | None = None) -> tuple[Code, ...]:
    """The codes a route of kind ``auth`` answers a refused caller's credential with, among
    ``contributions`` (the process's areas when not given)."""
    declared = authentication(auth, contributions)
    return declared.refusals if declared is not None else ()


__all__ = [
    "AUTHENTICATION",
    "DOCUMENTED_CREDENTIALS",
    "Admit",
    "Authenticate",
    "Authentication",
    "DocumentedCredential",
    "Security",
    "authentication",
    "credential_refusals",
    "documented_credential",
    "documented_surface",
]
