"""Background workers started with the server: the webhook dispatcher."""
