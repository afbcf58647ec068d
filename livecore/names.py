"""How names compare (docs/reference/conventions.md#limits): names that must be unique (guild names) or
that a filter looks into (a game's guild ``name_filter``, the name searches) are compared by their
:func:`fold`, so names that only look alike are the same name.

The fold is Unicode NFKC (compatibility forms: a full-width letter is its ASCII letter, a no-break, em or
ideographic space is a space), case folding (``ß`` is ``ss``), every run of white space one ASCII space,
and trimming. A name is kept and shown as it was written; only comparisons use the fold. Where a name
from a file is shown (a refusal on a terminal, a simulation's report), :func:`shown` escapes what would act
rather than print.
"""

from __future__ import annotations

import re
import unicodedata

# ``\s`` in a str pattern is every Unicode white space character, the ASCII ones included.
_SPACES = re.compile(r"\s+")


def fold(name: str) -> str:
    """What two names are compared by: equal folds are the same name."""
    if name.isascii():
        return _SPACES.sub(" ", name).strip().lower()  # the common case, and the same result
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return _SPACES.sub(" ", folded).strip()


def shown(text: str) -> str:
    """``text`` with every character a terminal or a page would act on rather than print (control and
    format characters: BEL, NUL, a right-to-left override; separators other than the space) escaped as
    Python writes it (``\\x07``, ``\\u202e``): a name from a file must show as written, never ring,
    reorder or hide what follows it."""
    if text.isprintable():
        return text  # the common case, and the same result
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)
