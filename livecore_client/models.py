"""The wire models the clients return and accept, re-exported from the contract rather than copied, so
the client and the server read and write the very same classes (snake_case here, camelCase on the wire).
"""

from livecore.api.models import (
    ClockAdvanceRequest,
    ClockAdvanceResponse,
    ErrorBody,
    ErrorEnvelope,
    HealthResponse,
    IdentityResponse,
    IdentityView,
    RegisterQuery,
    RegisterRequest,
    RegisterResponse,
    ServerPingResponse,
    SetIdentityRequest,
)

__all__ = [
    "ClockAdvanceRequest",
    "ClockAdvanceResponse",
    "ErrorBody",
    "ErrorEnvelope",
    "HealthResponse",
    "IdentityResponse",
    "IdentityView",
    "RegisterQuery",
    "RegisterRequest",
    "RegisterResponse",
    "ServerPingResponse",
    "SetIdentityRequest",
]
