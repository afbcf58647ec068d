"""The service's and the SDK's version, in a module of its own: the health probe's handler reads it
without importing the package's face (:mod:`livecore`), which loads every area."""

__version__ = "0.1.0"
