"""What ``livecore-server demo`` sets up before it serves: the demo manifest applied, its two test keys and
the secret of its player ``alice`` to print, and the same ones again on the next start.

Keys and player secrets are stored only as keyed hashes, so they can be shown only when minted. To print
the same keys across restarts, the demo keeps what it printed sealed under the server key (AES-GCM, as
idempotent answers are kept) in the database's ``server_meta`` table, and reuses each secret while the
database still accepts it. ``--new-keys`` (or a secret the database no longer accepts) mints new ones and
revokes the ones they replace at once: the demo's keys are test keys, and a restart must not pile up keys
in their 60-day rotation grace (docs/server.md, "The demo")."""

from __future__ import annotations

from typing import Any

import orjson

from livecore.clock import to_millis
from livecore.errors import LivecoreError
from livecore.players.commands import find_player, register
from livecore.scope import Environment, Scope
from livecore_server.manifest import demo_manifest
from livecore_server.operators.apply import apply_manifest, mint_key
from livecore_server.rotation import DEMO_SECRETS
from livecore_server.services import Services
from livecore_server.storage.server_store import ServerTransaction

# The player the demo registers, so that its secret can be printed with the keys.
DEMO_PLAYER = "alice"
# The demo's member, whose sign-in link the demo prints.
DEMO_MEMBER = "owner"


def apply_demo(services: Services, *, new_keys: bool = False) -> tuple[dict[str, Any], str | None]:
    """Apply the demo manifest; what ``apply`` answered, with every key's secret filled in, and the demo
    player's secret (None when the player is banned)."""
    result = apply_manifest(services.store, services.keys, services.runtime, demo_manifest())
    remembered = {} if new_keys else _remembered(services)
    game = next(iter(result["games"].values()))
    now_ms = to_millis(services.clock.now())
    hasher = services.runtime.hasher

    def keys(tx: ServerTransaction) -> None:
        for name, key in game["apiKeys"].items():
            if key["secret"] is not None:
                continue  # minted just now
            kept = remembered.get(f"key:{name}")
            found = hasher.find(kept, lambda d: tx.keys.by_hash(d, now_ms)) if kept else None
            if found is not None and found.name == name and found.retires_at_ms is None:
                game["apiKeys"][name] = {**key, "id": found.id, "secret": kept}
                continue
            active = tx.keys.active(game["id"], name)
            assert active is not None
            tx.keys.revoke(active.id, now_ms)
            game["apiKeys"][name] = mint_key(
                tx, services.runtime, game["id"], name, active.env, active.permission, active.rate_limits
            )

    services.store.run(keys)
    secret = _player_secret(services, result, remembered.get("player"))
    kept = {f"key:{name}": key["secret"] for name, key in game["apiKeys"].items()}
    if secret is not None:
        kept["player"] = secret
    sealed = services.keys.seal_answer(orjson.dumps(kept), context=DEMO_SECRETS).hex()
    services.store.run(lambda tx: tx.meta.put(DEMO_SECRETS, sealed, now_ms))
    return result, secret


def _remembered(services: Services) -> dict[str, str]:
    """What the demo printed last time, or nothing (none kept, or kept under another server key)."""
    stored = services.store.run(lambda tx: tx.meta.get(DEMO_SECRETS), write=False)
    if stored is None:
        return {}
    try:
        opened: dict[str, str] = orjson.loads(
            services.keys.open_answer(bytes.fromhex(stored), context=DEMO_SECRETS)
        )
    except Exception:  # another server key, or damaged: mint anew
        return {}
    return opened


def _player_secret(services: Services, applied: dict[str, Any], kept: str | None) -> str | None:
    """The demo player's secret: the one printed last time while it still matches, else a new one
    (registered, or its secret replaced: the demo's keys are test keys)."""
    game = next(iter(applied["games"].values()))
    scope = Scope(studio_id=applied["studio"]["id"], game_id=game["id"], env=Environment.TEST)
    hasher = services.runtime.hasher

    def run(tx: ServerTransaction) -> str | None:
        player = find_player(tx, scope, DEMO_PLAYER)
        if player is not None and player.banned:
            return None
        if player is not None and kept and player.secret_hash and hasher.verify(kept, player.secret_hash):
            return kept
        try:
            return register(tx, services.runtime, scope, DEMO_PLAYER, force=True).secret
        except LivecoreError:
            return None

    return services.store.run(run)
