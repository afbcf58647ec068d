"""``/admin/v1``: operator routes."""
