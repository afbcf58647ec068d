"""Checks a studio's own area adds to built-in commands, on pluggy.

A check runs inside the command's transaction, after the command's own refusals and before it writes
anything. It refuses by raising :class:`~livecore.errors.LivecoreError`, with a code of its area
(:class:`~livecore.errors.Code`, declared in :attr:`livecore.area.Area.errors`) or a built-in one: the
command then applies nothing and emits nothing, and the server answers in the error envelope, as for
every refusal. A check that returns lets the command go on. Checks read through the transaction; what
they write commits with the command.

An area declares its checks as an object with methods named after these specifications and marked
``@hookimpl`` (:attr:`livecore.area.Area.hooks`); pluggy calls every registered check, the last
registered first. Each receives the keyword arguments its specification names, or any subset of them.

pluggy (the hook library of pytest, tox and Datasette) gives what a home-made registry would have to
grow: specifications that name each hook's arguments, and a refusal at registration of a check that
names an unknown hook or argument.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pluggy

PROJECT = "livecore"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


class Specs:
    """The built-in commands a studio's area can check, and what each check receives. Every check also
    receives ``tx`` (the command's transaction), ``rt`` (clock, randomness) and ``scope`` (studio, game,
    environment)."""

    @hookspec
    def before_register(self, tx: Any, rt: Any, scope: Any, external_id: str, existing: Any) -> None:
        """A player registers (or re-registers with ``force``): ``existing`` is its record, None for a
        new player."""

    @hookspec
    def before_send_gift(
        self, tx: Any, rt: Any, scope: Any, sender: Any, recipient: Any, request: Any
    ) -> None:
        """A gift is sent: ``request`` is its :class:`livecore.gifts.commands.SendRequest` (resource,
        amount, message); not for a replay of an earlier send."""

    @hookspec
    def before_submit_progress(
        self, tx: Any, rt: Any, scope: Any, player: Any, attempt: Any, metrics: dict[str, Any]
    ) -> None:
        """An attempt's progress is submitted: ``attempt`` as it was, ``metrics`` as checked."""

    @hookspec
    def before_open_crate(self, tx: Any, rt: Any, scope: Any, player: Any, crate: Any) -> None:
        """A player opens a crate grant (``crate``, still pending)."""

    @hookspec
    def before_join_guild(self, tx: Any, rt: Any, scope: Any, player: Any, guild: Any) -> None:
        """A player joins a guild, or asks to join a request-only one."""

    @hookspec
    def on_merge(self, tx: Any, rt: Any, scope: Any, source: Any, target: Any) -> None:
        """A player merges into another: the area moves its records of ``source`` to ``target``, after
        the built-in areas moved theirs. A refusal here refuses the merge."""

    @hookspec
    def on_erase(self, tx: Any, rt: Any, scope: Any, player: Any, kept: Any) -> None:
        """A player is erased: the area moves its records to the anonymized row ``kept`` (or deletes
        them), after the built-in areas. A refusal here refuses the erasure."""


class Checks:
    """The checks of the registered areas, called by the built-in commands (``rt.checks``)."""

    def __init__(self, plugins: Iterable[object] = ()) -> None:
        manager = pluggy.PluginManager(PROJECT)
        manager.add_hookspecs(Specs)
        for plugin in plugins:
            manager.register(plugin)
        self.hook = manager.hook
        # Commands skip the call entirely when no area checks anything: the common case costs nothing.
        self.active = bool(manager.get_plugins())


NO_CHECKS = Checks()
