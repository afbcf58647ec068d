"""The operators' portal in headless Chromium: signing in by link, the player look-up and its actions,
API key rotation, rotating a webhook endpoint's signing secret, replaying a failed delivery, and the audit
log showing each action."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from livecore_client import SdkClient
from livecore_client.webhooks import InvalidSignatureError, verify
from tests.browser.conftest import Portal
from tests.waiting import until_sync


def sign_in(page: Any, portal: Portal, member: str = "gina") -> None:
    page.goto(portal.link(member))
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(re.compile(r"/portal/games$"))


def register(portal: Portal, external_id: str, name: str | None = None) -> str:
    with SdkClient(portal.keys["test-client"], base_url=portal.base_url) as sdk:
        secret = sdk.players.register(external_id).player_secret
        if name is not None:
            sdk.players.set_identity(external_id, name=name, player_secret=secret)
    return secret


def look_up(page: Any, portal: Portal, external_id: str, section: str = "players") -> None:
    page.goto(f"{portal.base_url}/portal/games/space-race/{section}?id={external_id}&env=test")


def audit_shows(page: Any, portal: Portal, action: str, target: str) -> None:
    """The audit log page lists ``action`` on ``target``."""
    page.goto(f"{portal.base_url}/portal/audit?action={action}")
    rows = page.locator("#audit tr", has_text=target)
    assert rows.count() >= 1, page.content()


def test_signing_in_by_link_starts_a_session_once(page: Any, portal: Portal) -> None:
    link = portal.link("gina")
    page.goto(f"{portal.base_url}/portal/")
    portal.shot(page, "signin")
    assert page.get_by_role("heading", name="Sign in").is_visible()
    page.goto(link)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(re.compile(r"/portal/games$"))
    assert page.get_by_text("gina@acme.test").is_visible()
    assert page.get_by_role("heading", name="Space Race").is_visible()
    portal.shot(page, "games")
    cookie = next(c for c in page.context.cookies() if c["name"] == "livecore_session")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
    audit_shows(page, portal, "member.sign_in", "member:")
    # The link is used up: a second press signs nobody in.
    page.context.clear_cookies()
    page.goto(link)
    page.get_by_role("button", name="Sign in").click()
    assert page.get_by_text("This sign-in link does not work").is_visible()


def test_signing_out_ends_the_session_on_the_server(page: Any, portal: Portal) -> None:
    sign_in(page, portal, "vic")
    cookie = next(c for c in page.context.cookies() if c["name"] == "livecore_session")
    page.get_by_role("button", name="Sign out").click()
    page.wait_for_url(re.compile(r"/portal/$"))
    # The old cookie opens nothing any more, in the browser or outside it.
    r = httpx.get(f"{portal.base_url}/admin/v1/me", cookies={"livecore_session": cookie["value"]})
    assert r.status_code == 401


def test_looking_a_player_up_then_banning_and_unbanning(page: Any, portal: Portal) -> None:
    secret = register(portal, "bea", name="Bea")
    sign_in(page, portal)
    look_up(page, portal, "bea")
    assert page.locator("#player").get_by_text("Bea").first.is_visible()
    assert page.locator("#ban-state").inner_text() == "not banned"
    portal.shot(page, "player")
    page.locator("#player input[name=reason]").fill("chargeback abuse")
    page.get_by_role("button", name="Ban").click()
    page.wait_for_url(re.compile(r"done=ban"))
    assert page.locator("#ban-state").inner_text() == "banned"
    with SdkClient(portal.keys["test-client"], base_url=portal.base_url) as sdk:
        r = httpx.post(
            f"{portal.base_url}/sdk/v1/players/bea/register?force=true",
            headers={"Authorization": f"Bearer {portal.keys['test-client']}"},
        )
        assert r.status_code == 403 and r.json()["error"]["code"] == "player_banned"
        page.get_by_role("button", name="Unban").click()
        page.wait_for_url(re.compile(r"done=unban"))
        assert page.locator("#ban-state").inner_text() == "not banned"
        assert sdk.grants.pending("bea", player_secret=secret).grants == []
    audit_shows(page, portal, "player.ban", "player:bea")
    audit_shows(page, portal, "player.unban", "player:bea")


def test_setting_and_clearing_a_players_country_override(page: Any, portal: Portal) -> None:
    register(portal, "cleo")
    sign_in(page, portal)
    look_up(page, portal, "cleo")
    assert page.locator("#country-override").inner_text() == "none"
    page.locator("#country-form input[name=country]").fill("pt")
    page.locator("#country-form input[name=reason]").fill("travels")
    page.get_by_role("button", name="Set country").click()
    page.wait_for_url(re.compile(r"done=country"))
    assert page.locator("#country-override").inner_text() == "PT"
    assert page.locator("#country strong").inner_text() == "PT"
    page.locator("#country-form input[name=country]").fill("")
    page.get_by_role("button", name="Set country").click()
    page.wait_for_url(re.compile(r"done=country"))
    assert page.locator("#country-override").inner_text() == "none"
    audit_shows(page, portal, "player.country_override", "player:cleo")


def test_a_player_name_holding_a_script_renders_as_text(page: Any, portal: Portal) -> None:
    name = "<script>alert(1)</script>"
    register(portal, "mallory", name=name)
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    sign_in(page, portal)
    look_up(page, portal, "mallory")
    assert page.locator("#player h2").inner_text().startswith(name)
    assert page.locator("main script").count() == 0
    assert dialogs == []


def test_a_manual_grant_reaches_the_players_pending_grants(page: Any, portal: Portal) -> None:
    secret = register(portal, "cy")
    sign_in(page, portal)
    look_up(page, portal, "cy", "grants")
    form = page.locator("#manual-grant")
    form.locator("input[name=key]").fill("coins")
    form.locator("input[name=amount]").fill("25")
    form.locator("input[name=reason]").fill("support ticket 4411")
    portal.shot(page, "grants")
    form.get_by_role("button", name="Grant by hand").click()
    page.wait_for_url(re.compile(r"done=grant"))
    assert page.locator("#grants").get_by_text("25 \u00d7 coins").is_visible()
    with SdkClient(portal.keys["test-client"], base_url=portal.base_url) as sdk:
        pending = sdk.grants.pending("cy", player_secret=secret).grants
    assert [(g.source_kind, g.entries[0].key, g.entries[0].amount) for g in pending] == [
        ("admin", "coins", 25)
    ]
    audit_shows(page, portal, "grant.manual_create", "player:cy")


def test_rotating_an_api_key_leaves_both_keys_working(page: Any, portal: Portal) -> None:
    old = portal.keys["live-server"]
    sign_in(page, portal)
    page.goto(f"{portal.base_url}/portal/games/space-race/api-keys")
    row = page.locator("#keys tr", has_text="live-server").filter(has_text="active")
    row.get_by_role("button", name="Rotate").click()
    new = page.locator("#secret").inner_text().strip()
    assert new.startswith("lc_live_") and new != old
    for key in (old, new):
        r = httpx.get(f"{portal.base_url}/server/v1/ping", headers={"Authorization": f"Bearer {key}"})
        assert r.status_code == 200, r.text
    page.goto(f"{portal.base_url}/portal/games/space-race/api-keys")
    assert page.locator("#keys tr", has_text="live-server").filter(has_text="retiring").count() == 1
    portal.shot(page, "api-keys")
    audit_shows(page, portal, "api_key.rotate", "api_key:")


def test_rotating_a_webhook_secret_shows_it_once_and_deliveries_carry_both_signatures(
    page: Any, portal: Portal
) -> None:
    receiver = portal.receiver
    receiver.status = 200
    sign_in(page, portal, "dev")
    endpoint_page = f"{portal.base_url}/portal/games/space-race/webhooks/{portal.endpoint_id}"
    page.goto(endpoint_page)
    page.locator("select[name=overlapSeconds]").select_option("3600")
    page.get_by_role("button", name="Rotate secret").click()
    new = page.locator("#secret").inner_text().strip()
    assert new.startswith("whsec_") and new != portal.webhook_secret
    assert "old secret too until" in page.content()
    page.goto(endpoint_page)
    assert "previous secret signs too until" in page.locator("#overlap").inner_text()
    assert new not in page.content()  # shown once
    portal.shot(page, "webhook-secret")
    old, portal.webhook_secret = portal.webhook_secret, new
    register(portal, "eve")
    until_sync(lambda: any(r["body"]["data"].get("externalPlayerId") == "eve" for r in receiver.received))
    got = next(r for r in receiver.received if r["body"]["data"].get("externalPlayerId") == "eve")
    for secret in (old, new):
        verify(got["raw"], got["headers"]["X-Signature"], secret)
    with pytest.raises(InvalidSignatureError):
        verify(got["raw"], got["headers"]["X-Signature"], "whsec_someone-else")
    audit_shows(page, portal, "webhook.secret_rotate", f"webhook:{portal.endpoint_id}")


def test_replaying_a_failed_delivery_reaches_the_receiver(page: Any, portal: Portal) -> None:
    receiver = portal.receiver
    receiver.status = 500
    register(portal, "dee")
    until_sync(lambda: any(r["body"]["data"].get("externalPlayerId") == "dee" for r in receiver.received))
    # One event (the endpoint takes player.registered only), retried at 30 s, 2 min, 10 min and 1 h: the
    # fifth failure in a row pauses the endpoint.
    for seconds in (30, 120, 600, 3600):
        portal.advance(seconds)
    sign_in(page, portal, "dev")
    page.goto(f"{portal.base_url}/portal/games/space-race/webhooks/{portal.endpoint_id}")
    assert page.locator("#endpoint-status").inner_text() == "paused"
    page.get_by_role("button", name="Unpause").click()
    page.wait_for_url(re.compile(r"done=unpause"))
    # Held deliveries resume their schedule (6 h, then 24 h) and fail for good after the sixth retry.
    portal.advance(6 * 3600)
    portal.advance(24 * 3600)
    sign_in(page, portal, "dev")  # a day and more of service time: the session of 12 h has ended
    page.goto(f"{portal.base_url}/portal/games/space-race/webhooks/{portal.endpoint_id}?status=failed")
    failed = page.locator("#deliveries tr", has_text="failed")
    assert failed.count() >= 1, page.content()
    portal.shot(page, "deliveries")
    receiver.status = 200
    before = len(receiver.received)
    failed.first.get_by_role("button", name="Replay").click()
    page.wait_for_url(re.compile(r"done=replay"))
    until_sync(lambda: len(receiver.received) > before, "the replayed delivery")
    replayed = receiver.received[-1]["body"]
    assert replayed["eventName"] in {"player.registered", "player.secret_set"}
    audit_shows(page, portal, "webhook.replay", "delivery:")
    audit_shows(page, portal, "webhook.unpause", "webhook:")
    page.goto(f"{portal.base_url}/portal/audit")
    portal.shot(page, "audit")
