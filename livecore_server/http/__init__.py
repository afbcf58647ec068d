"""HTTP plumbing shared by every namespace: JSON and the error envelope
(docs/reference/conventions.md#errors), the namespaces' guard around each handler (key, rate limit,
headers), and the binding of route declarations to handlers."""
