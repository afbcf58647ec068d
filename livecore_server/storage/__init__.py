"""Storage: implementations of the :mod:`livecore.store` port plus the server's own tables (studios,
games, API keys, webhook endpoints)."""
