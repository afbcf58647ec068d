"""``/server/v1``: routes for studio backends."""
