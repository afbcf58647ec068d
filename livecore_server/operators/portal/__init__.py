"""The operators' portal: server-rendered pages under ``/portal/`` (docs/portal.md).

Jinja2 (through aiohttp-jinja2) renders every page with autoescaping on, because players' names and
messages are untrusted; there is no front-end build and every page works without JavaScript. Each action
a page offers runs the admin API's own route handler (``livecore_server.operators.access.run_route``), so the
portal allows and refuses exactly what the admin API does, and writes the same audit entries.
"""
