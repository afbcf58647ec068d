"""How many examples the property tests and state machines run, under the Hypothesis profile in force.

Each test states its count for the default profile, sized so that the whole suite fits its time budget
(docs/testing.md); ``pytest --hypothesis-profile=thorough`` multiplies every count by five, for a run
that looks harder before a release or after a change to the stores.
"""

from __future__ import annotations

from hypothesis import settings

DEFAULT_MAX_EXAMPLES = 100  # Hypothesis's own default, which the counts are written against


def register_profiles() -> None:
    """Register the ``thorough`` profile (before pytest loads the one its command line names). It keeps
    every other setting of the profile in force when it is registered: on CI, Hypothesis's ``ci``
    (derandomized, no example database)."""
    settings.register_profile("thorough", settings.default, max_examples=5 * DEFAULT_MAX_EXAMPLES)


def examples(count: int) -> int:
    """``count`` examples under the default profile, scaled as the profile in force scales Hypothesis's
    default."""
    return max(1, count * settings.default.max_examples // DEFAULT_MAX_EXAMPLES)
