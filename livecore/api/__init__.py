"""The HTTP contract, declared once: wire models, route declarations and their converter.

The server parses requests and renders responses from these declarations and generates its OpenAPI
documents from them; the client builds its typed methods on the same declarations, so the two cannot
drift. Pure data: no HTTP library is imported here.
"""
