"""HTTP plumbing shared by every namespace: JSON and the error envelope
(docs/reference/conventions.md#errors), middlewares, and the binding of route declarations to handlers."""
