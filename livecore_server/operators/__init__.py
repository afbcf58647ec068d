"""The operators area's server side (docs/operators.md): its bindings and SQL ports (``area``, ``sql``),
admission of a member's credential (``access``), sign-in (``sessions``, ``oidc``), ``/mcp`` (``mcp``,
``mcp_tools``), the portal (``portal``) and applying a manifest (``apply``)."""
