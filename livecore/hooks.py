"""Checks a studio's own area adds to built-in commands, on pluggy.

A check runs inside the command's transaction: a ``before_`` check after the command's own refusals and
before it writes anything, an ``after_`` check once the command has written and emitted everything (it
sees the records as written, and may write its own). Either refuses by raising
:class:`~livecore.errors.LivecoreError`, with a code of its area (:class:`~livecore.errors.Code`, declared
in :attr:`livecore.area.Area.errors`) or a built-in one: the whole transaction then rolls back, so the
command applies nothing and emits nothing, and the server answers in the error envelope, as for every
refusal. A check that returns lets the command go on. Checks read through the transaction; what they
write commits with the command.

Each area declares the checks its own commands accept, as a class of ``@hookspec`` methods in its
``hooks.py`` (:attr:`livecore.area.Area.hookspecs`; docs/extending.md lists them). Every check receives
``tx`` (the command's transaction), ``rt`` (clock, randomness) and ``scope`` (studio, game, environment)
beside what its specification names.

An area declares its checks as an object with methods named after those specifications and marked
``@hookimpl`` (:attr:`livecore.area.Area.hooks`); pluggy calls every registered check, the last
registered first. Each receives the keyword arguments its specification names, or any subset of them.

pluggy (the hook library of pytest, tox and Datasette) gives what a home-made registry would have to
grow: specifications that name each hook's arguments, found from the areas rather than listed here, and a
refusal at registration of a check that names an unknown hook or argument.
"""

from __future__ import annotations

from collections.abc import Iterable

import pluggy

PROJECT = "livecore"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


class Checks:
    """The checks of the registered areas, called by the built-in commands (``rt.checks``)."""

    def __init__(
        self,
        plugins: Iterable[object] = (),
        specs: Iterable[type] = (),
    ) -> None:
        manager = pluggy.PluginManager(PROJECT)
        for spec in specs:
            manager.add_hookspecs(spec)
        for plugin in plugins:
            manager.register(plugin)
        # pluggy keeps a check of a hook nobody specified waiting for its specification: refuse it now,
        # as a misspelt name would otherwise never run.
        manager.check_pending()
        self.hook = manager.hook
        # Commands skip the call entirely when no area checks anything: the common case costs nothing.
        self.active = bool(manager.get_plugins())


NO_CHECKS = Checks()
