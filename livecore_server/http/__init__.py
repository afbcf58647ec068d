"""HTTP plumbing shared by every namespace: JSON and the SPEC 7 envelope, middlewares, and the binding
of route declarations to handlers."""
