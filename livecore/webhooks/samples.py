"""Placeholder payloads for sample deliveries (docs/reference/webhooks.md: sent through the normal signed
pipeline with ``X-Svc-Webhook-Test: 1``). Each area declares a sample of each of its kinds
(:attr:`livecore.area.Area.samples`, from the shared fake values of :mod:`livecore.webhooks.sample_values`);
every value is recognisably fake, and each sample is an instance of its kind's payload class, so it has the
same fields in the same order as a real delivery. Kinds without a declared sample get an empty object."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from livecore import areas
from livecore.area import Area
from livecore.operators.webhooks import DEFAULT_SAMPLE_KIND
from livecore.webhooks.payload import WebhookPayload

__all__ = ["DEFAULT_SAMPLE_KIND", "SAMPLES", "sample_payload"]

SAMPLES: dict[str, WebhookPayload] = areas.webhook_samples()


def sample_payload(kind: str, registered: Sequence[Area] = areas.BUILT_IN) -> WebhookPayload | dict[str, Any]:
    """The sample of ``kind`` among the ``registered`` areas' (a studio's own included); an empty object
    for a kind without a declared sample."""
    return areas.webhook_samples(registered).get(kind) or {}
