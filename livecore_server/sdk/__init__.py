"""``/sdk/v1``: routes for game clients."""
