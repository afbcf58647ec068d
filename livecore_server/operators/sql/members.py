"""The members port in SQL (server-only): a studio's members as ``apply`` declares them, their portal
sessions and one-time sign-in links, and their personal keys (docs/operators.md).

Secrets (session tokens, sign-in link tokens, personal keys) are stored as keyed hashes only; a look-up
by hash answers only what still works at the time it is given: a session or key of a removed member, an
ended or expired session, a used or expired link, a revoked or expired key all read as nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from livecore.operators.store import PersonalKeyRecord
from livecore.roles import Role
from livecore_server.storage.columns import Columns
from livecore_server.storage.sqlport import SqlPort


@attrs.frozen
class Member:
    id: str
    studio_id: str
    key: str
    email: str
    role: Role
    removed_at_ms: int | None = None


@attrs.frozen
class PersonalKey:
    """A personal key as the portal lists it (never its secret)."""

    id: str
    member_id: str
    prefix: str
    role: Role | None
    read_only: bool
    created_at_ms: int
    expires_at_ms: int
    revoked_at_ms: int | None
    last_used_at_ms: int | None


def _member(id: Any, studio_id: Any, key: Any, email: Any, role: Any, removed_at: Any) -> Member:
    return Member(id, studio_id, key, email, Role(role), removed_at)


_MEMBER = Columns(_member, "m")


def _key(
    id: Any,
    member_id: Any,
    prefix: Any,
    role: Any,
    read_only: Any,
    created_at: Any,
    expires_at: Any,
    revoked_at: Any,
    last_used_at: Any,
) -> PersonalKey:
    return PersonalKey(
        id,
        member_id,
        prefix,
        Role(role) if role else None,
        bool(read_only),
        created_at,
        expires_at,
        revoked_at,
        last_used_at,
    )


_KEY = Columns(_key, "k")


def _key_and_member(row: Sequence[Any]) -> tuple[PersonalKey, Member]:
    key, member = _KEY.split(row)
    return key, _MEMBER.of(member)


class SqlMembers(SqlPort):
    __slots__ = ()

    # --- members ------------------------------------------------------------------------------------

    def of_studio(self, studio_id: str, *, removed: bool = False) -> list[Member]:
        """The studio's members by key (the removed ones too when ``removed``)."""
        where = "" if removed else " AND m.removed_at IS NULL"
        rows = self.db.read(
            f"SELECT {_MEMBER.sql} FROM members m WHERE m.studio_id = ?{where} ORDER BY m.key", (studio_id,)
        ).fetchall()
        return [_MEMBER.of(r) for r in rows]

    def get(self, member_id: str) -> Member | None:
        row = self.db.read(f"SELECT {_MEMBER.sql} FROM members m WHERE m.id = ?", (member_id,)).fetchone()
        return None if row is None else _MEMBER.of(row)

    def by_key(self, studio_id: str, key: str) -> Member | None:
        row = self.db.read(
            f"SELECT {_MEMBER.sql} FROM members m WHERE m.studio_id = ? AND m.key = ?", (studio_id, key)
        ).fetchone()
        return None if row is None else _MEMBER.of(row)

    def by_email(self, email: str) -> Member | None:
        """A current member with that email (compared case-insensitively), the first by studio key."""
        row = self.db.read(
            f"SELECT {_MEMBER.sql} FROM members m JOIN studios s ON s.id = m.studio_id"
            " WHERE lower(m.email) = ? AND m.removed_at IS NULL ORDER BY s.key, m.key LIMIT 1",
            (email.lower(),),
        ).fetchone()
        return None if row is None else _MEMBER.of(row)

    def insert(self, member: Member, now_ms: int) -> None:
        self.db.change(
            "members",
            "INSERT INTO members (id, studio_id, key, email, role, created_at, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (member.id, member.studio_id, member.key, member.email, member.role.value, now_ms, now_ms),
        )

    def update(self, member_id: str, email: str, role: Role, now_ms: int) -> None:
        """A member's email and role as the manifest says now (a removed member declared again returns)."""
        self.db.change(
            "members",
            "UPDATE members SET email = ?, role = ?, updated_at = ?, removed_at = NULL WHERE id = ?",
            (email, role.value, now_ms, member_id),
        )

    def remove(self, member_id: str, now_ms: int) -> None:
        """The member is gone: its sessions end and its personal keys stop working."""
        self.db.change(
            "members",
            "UPDATE members SET removed_at = ?, updated_at = ? WHERE id = ?",
            (now_ms, now_ms, member_id),
        )
        self.end_sessions_of(member_id, now_ms)
        self.db.change(
            "personal_keys",
            "UPDATE personal_keys SET revoked_at = ? WHERE member_id = ? AND revoked_at IS NULL",
            (now_ms, member_id),
        )

    # --- sessions and sign-in links -----------------------------------------------------------------

    def insert_session(
        self,
        session_id: str,
        token_hash: str,
        member_id: str,
        via: str,
        now_ms: int,
        expires_ms: int,
        ip: str | None,
    ) -> None:
        self.db.change(
            "member_sessions",
            "INSERT INTO member_sessions (id, token_hash, member_id, via, created_at, expires_at, ip)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (session_id, token_hash, member_id, via, now_ms, expires_ms, ip),
        )

    def session(self, token_hash: str, now_ms: int) -> tuple[str, Member] | None:
        """The session of that token and its member, while both are current."""
        row = self.db.read(
            f"SELECT s.id, {_MEMBER.sql} FROM member_sessions s JOIN members m ON m.id = s.member_id"
            " WHERE s.token_hash = ? AND s.ended_at IS NULL AND s.expires_at > ? AND m.removed_at IS NULL",
            (token_hash, now_ms),
        ).fetchone()
        if row is None:
            return None
        session_id, *member = row
        return str(session_id), _MEMBER.of(member)

    def end_session(self, session_id: str, now_ms: int) -> None:
        self.db.change(
            "member_sessions",
            "UPDATE member_sessions SET ended_at = ? WHERE id = ? AND ended_at IS NULL",
            (now_ms, session_id),
        )

    def end_sessions_of(self, member_id: str, now_ms: int) -> None:
        self.db.change(
            "member_sessions",
            "UPDATE member_sessions SET ended_at = ? WHERE member_id = ? AND ended_at IS NULL",
            (now_ms, member_id),
        )

    def insert_link(self, token_hash: str, member_id: str, now_ms: int, expires_ms: int) -> None:
        self.db.change(
            "login_links",
            "INSERT INTO login_links (token_hash, member_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
            (token_hash, member_id, now_ms, expires_ms),
        )

    def use_link(self, token_hash: str, now_ms: int) -> Member | None:
        """The link's member, once: the link is used up by this call; an unknown, used or expired link,
        or one of a removed member, is None."""
        row = self.db.read(
            f"SELECT {_MEMBER.sql} FROM login_links l JOIN members m ON m.id = l.member_id"
            " WHERE l.token_hash = ? AND l.used_at IS NULL AND l.expires_at > ? AND m.removed_at IS NULL",
            (token_hash, now_ms),
        ).fetchone()
        if row is None:
            return None
        used = self.db.change(
            "login_links",
            "UPDATE login_links SET used_at = ? WHERE token_hash = ? AND used_at IS NULL",
            (now_ms, token_hash),
        )
        return _MEMBER.of(row) if used.rowcount == 1 else None

    # --- personal keys ------------------------------------------------------------------------------

    def insert_key(
        self,
        key: PersonalKeyRecord,
        secret_hash: str,
    ) -> None:
        """A member's new key; the key it had before is revoked (one per member)."""
        self.db.change(
            "personal_keys",
            "UPDATE personal_keys SET revoked_at = ? WHERE member_id = ? AND revoked_at IS NULL",
            (key.created_at_ms, key.member_id),
        )
        self.db.change(
            "personal_keys",
            "INSERT INTO personal_keys"
            " (id, member_id, secret_hash, prefix, role, read_only, created_at, expires_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                key.id,
                key.member_id,
                secret_hash,
                key.prefix,
                key.role.value if key.role else None,
                key.read_only,
                key.created_at_ms,
                key.expires_at_ms,
            ),
        )

    def key_by_hash(self, secret_hash: str, now_ms: int) -> tuple[PersonalKey, Member] | None:
        """The key of that secret and its member, while the key works: not revoked, not expired, its
        member not removed."""
        row = self.db.read(
            f"SELECT {_KEY.sql}, {_MEMBER.sql} FROM personal_keys k JOIN members m ON m.id = k.member_id"
            " WHERE k.secret_hash = ? AND k.revoked_at IS NULL AND k.expires_at > ? AND m.removed_at IS NULL",
            (secret_hash, now_ms),
        ).fetchone()
        return None if row is None else _key_and_member(row)

    def key(self, key_id: str) -> PersonalKey | None:
        row = self.db.read(f"SELECT {_KEY.sql} FROM personal_keys k WHERE k.id = ?", (key_id,)).fetchone()
        return None if row is None else _KEY.of(row)

    def keys_of_studio(self, studio_id: str) -> list[tuple[PersonalKey, Member]]:
        """Every key of the studio's members, newest first."""
        rows = self.db.read(
            f"SELECT {_KEY.sql}, {_MEMBER.sql} FROM personal_keys k JOIN members m ON m.id = k.member_id"
            " WHERE m.studio_id = ? ORDER BY k.created_at DESC, k.id DESC",
            (studio_id,),
        ).fetchall()
        return [_key_and_member(r) for r in rows]

    def revoke_key(self, key_id: str, now_ms: int) -> bool:
        cur = self.db.change(
            "personal_keys",
            "UPDATE personal_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
            (now_ms, key_id),
        )
        return cur.rowcount == 1

    def touch_key(self, key_id: str, now_ms: int) -> None:
        self.db.change(
            "personal_keys", "UPDATE personal_keys SET last_used_at = ? WHERE id = ?", (now_ms, key_id)
        )
