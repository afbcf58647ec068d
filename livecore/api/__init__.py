"""The HTTP contract, declared once: wire models, route declarations and their converter.

One module per domain holds that domain's wire models and routes (:mod:`~livecore.players.api`,
:mod:`~livecore.friends.api`, :mod:`~livecore.gifts.api`, :mod:`~livecore.grants.api`,
:mod:`~livecore.economy.api`, :mod:`~livecore.purchases.api`, :mod:`~livecore.player_tools.api`,
:mod:`~livecore.system.api`, the service's own);
:mod:`~livecore.api.route` says what a route is, :mod:`~livecore.api.views` holds the views several
domains show, and :func:`livecore.registry.routes` lists the routes of the areas it is given.

The server parses requests and renders responses from these declarations and generates its OpenAPI
documents from them; the client builds its typed methods on the same declarations, so the two cannot
drift. Pure data: no HTTP library is imported here.
"""
