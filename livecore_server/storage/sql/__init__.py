"""The store ports in SQL: one module per port, shared by SQLite and PostgreSQL (``Sqlite...`` and
``Postgres...`` subclasses where a dialect differs or PostgreSQL reads ahead)."""
