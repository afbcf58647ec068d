"""Friend rules without a server: search-hit relation, suggestion sampling, friend codes, refusals."""

from __future__ import annotations

from collections import Counter

import pytest

from livecore.errors import Code, LivecoreError
from livecore.friends.errors import (
    ALREADY_FRIENDS,
    FRIEND_CODE_INVALID,
    FRIEND_REQUEST_NOT_FOUND,
    NOT_BLOCKED,
    NOT_FRIENDS_YET,
    PLAYER_BLOCKED,
)
from livecore.friends.rules import (
    CODE_ALPHABET,
    TRANSITIONS,
    Relation,
    Trigger,
    new_friend_code,
    normalize_code,
    refusal,
    sample_suggestions,
    seen_relation,
    step,
)
from livecore.rand import SeededRandomSource


def test_seen_relation() -> None:
    peers = {"out": True, "in": False}
    assert seen_relation("f", {"f"}, peers) is Relation.FRIENDS
    assert seen_relation("out", set(), peers) is Relation.OUTGOING
    assert seen_relation("in", set(), peers) is Relation.INCOMING
    assert seen_relation("x", {"f"}, peers) is Relation.NONE


def test_suggestions_are_distinct_limited_and_biased_to_recent() -> None:
    rng = SeededRandomSource(9)
    candidates = [f"p{i}" for i in range(20)]
    firsts: Counter[str] = Counter()
    for _ in range(2000):
        picked = sample_suggestions(candidates, 5, rng)
        assert len(picked) == len(set(picked)) == 5
        assert set(picked) <= set(candidates)
        firsts[picked[0]] += 1
    assert firsts["p0"] > firsts["p19"] * 5  # rank 0 weighs 20 times rank 19
    assert len(sample_suggestions(candidates[:3], 5, rng)) == 3


def test_friend_codes() -> None:
    code = new_friend_code(SeededRandomSource(1))
    assert len(code) == 6 and set(code) <= set(CODE_ALPHABET)
    assert normalize_code(f" {code.lower()} ") == code
    for bad in ("ABC", "ABCDEFG", "ABCDE0", "ABCDE1"):  # 0 and 1 are not in the alphabet
        with pytest.raises(LivecoreError) as exc:
            normalize_code(bad)
        assert exc.value.code is FRIEND_CODE_INVALID


@pytest.mark.parametrize(
    ("relation", "trigger", "code"),
    [
        (Relation.FRIENDS, Trigger.ADD, ALREADY_FRIENDS),
        (Relation.BLOCKING, Trigger.ADD, PLAYER_BLOCKED),
        (Relation.BLOCKED_BY, Trigger.ADD, PLAYER_BLOCKED),
        (Relation.NONE, Trigger.REMOVE, NOT_FRIENDS_YET),
        (Relation.BLOCKED_BY, Trigger.UNBLOCK, NOT_BLOCKED),
        (Relation.OUTGOING, Trigger.ACCEPT, FRIEND_REQUEST_NOT_FOUND),
        (Relation.INCOMING, Trigger.CANCEL, FRIEND_REQUEST_NOT_FOUND),
    ],
)
def test_missing_transitions_refuse_with_the_pinned_code(
    relation: Relation, trigger: Trigger, code: Code
) -> None:
    assert (relation, trigger) not in TRANSITIONS
    with pytest.raises(LivecoreError) as exc:
        step(relation, trigger)
    assert exc.value.code is code
    assert refusal(relation, trigger).code is code
