"""Webhooks (docs/reference/webhooks.md#delivery): the envelope, its signature, and the delivery rules.

The signing code here is the only copy: the server's dispatcher signs with it and
``livecore_client.webhooks`` verifies with it.
"""
