"""The sync and async client bases, their resources, and the adapters that turn one call builder into
both methods.

A client's methods are grouped by resource (``client.friends.list(...)``): a resource is an object holding
its client, made on first use by the client's :class:`resource` attribute. Each API method is written
once, as a builder returning a :class:`~livecore_client._transport.Call` (its signature and docstring are
the public ones). :func:`sync_method` and :func:`async_method` wrap the builder into the real method, so
the sync and async resources share every parameter, default and type by construction::

    class PlayersCalls(SdkCalls):
        def _register(self, external_id: str, *, force: bool = False) -> Call[RegisterResponse]:
            \"\"\"Register a player.\"\"\"
            return Call(REGISTER, RegisterResponse, path={"externalId": external_id}, ...)

    class Players(SyncResource["SdkClient"], PlayersCalls):
        register = sync_method(PlayersCalls._register)    # (external_id, *, force) -> RegisterResponse

    class AsyncPlayers(AsyncResource["AsyncSdkClient"], PlayersCalls):
        register = async_method(PlayersCalls._register)   # awaitable of the same

    class SdkClient(SyncClient):
        players = resource(Players)                        # sdk.players.register("ada")
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from types import TracebackType
from typing import Any, Concatenate, Generic, ParamSpec, Self, TypeVar, overload

import attrs
import httpx

from livecore.api.call import Call, present

from ._transport import PreparedRequest, RetryPolicy, build_request, send_async, send_sync

P = ParamSpec("P")
T = TypeVar("T")
_F = TypeVar("_F", bound=Callable[..., Any])

DEFAULT_BASE_URL = "http://127.0.0.1:8080"
DEFAULT_TIMEOUT = 10.0
DEFAULT_MAX_RETRIES = 2


def checked_base_url(base_url: str) -> str:
    """``base_url`` without its trailing slash, refused at once unless it is an absolute http(s) URL with
    a host: without a scheme httpx would send nothing, and every call would be retried before it failed."""
    try:
        url = httpx.URL(base_url)
    except (httpx.InvalidURL, TypeError):
        url = None
    if url is None or url.scheme not in ("http", "https") or not url.host:
        raise ValueError(
            f"base_url must be an absolute http:// or https:// URL with a host, e.g. {DEFAULT_BASE_URL};"
            f" got {base_url!r}"
        )
    return base_url.rstrip("/")


class _BaseClient:
    def __init__(
        self,
        api_key: str,
        *,
        base_url: str,
        max_retries: int,
        retry_policy: RetryPolicy | None,
    ) -> None:
        if not api_key:
            raise ValueError("api_key must not be empty")
        self._api_key = api_key
        # Sent on every request besides: an SDK client's build headers (livecore_client.sdk).
        self._headers: dict[str, str] = {}
        self.base_url = checked_base_url(base_url)
        # The constructor's max_retries is the one knob; a given policy supplies delays, jitter and sleep.
        self._retry = attrs.evolve(retry_policy or RetryPolicy(), max_retries=max_retries)

    def _prepare(self, call: Call[Any]) -> PreparedRequest:
        return build_request(call, api_key=self._api_key, headers=self._headers)

    @classmethod
    def with_resources(cls, **resources: type[Any]) -> type[Self]:
        """This client with the resources of a studio's areas besides its own, by name:
        ``SdkClient.with_resources(quests=Quests, streaks=Streaks)(key, ...)`` has ``.quests`` and
        ``.streaks`` as it has ``.gifts``, each checked as :class:`resource` checks it (a sync resource
        on a sync client). Several vendors' areas compose in one call, without a subclass per area; a
        name the client already has is refused with ``ValueError``. (A subclass with
        ``quests = resource(Quests)`` does the same and gives type checkers the attribute.)"""
        taken = sorted(name for name in resources if hasattr(cls, name))
        if taken:
            raise ValueError(f"{cls.__name__} already has {', '.join(taken)}")
        body: dict[str, Any] = {name: resource(kind) for name, kind in resources.items()}
        body.update(__module__=cls.__module__, __qualname__=cls.__qualname__, __doc__=cls.__doc__)
        try:
            return type(cls.__name__, (cls,), body)
        except RuntimeError as exc:  # type() wraps what resource's __set_name__ refuses
            if isinstance(exc.__cause__, TypeError):
                raise exc.__cause__ from None
            raise


class SyncClient(_BaseClient):
    """Base of the blocking clients. Closes the HTTP client only if it created it."""

    def __init__(
        self,
        api_key: str,
        *,
        base_url: str = DEFAULT_BASE_URL,
        timeout: float = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        http_client: httpx.Client | None = None,
        retry_policy: RetryPolicy | None = None,
    ) -> None:
        super().__init__(api_key, base_url=base_url, max_retries=max_retries, retry_policy=retry_policy)
        self._owns_http = http_client is None
        self._http = http_client if http_client is not None else httpx.Client(timeout=timeout)

    def _send(self, call: Call[T]) -> T:
        return send_sync(
            self._http,
            self.base_url,
            self._prepare(call),
            call.response,
            self._retry,
            call.accepted,
            call.variant,
        )

    def close(self) -> None:
        if self._owns_http:
            self._http.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


class AsyncClient(_BaseClient):
    """Base of the asyncio clients. Closes the HTTP client only if it created it."""

    def __init__(
        self,
        api_key: str,
        *,
        base_url: str = DEFAULT_BASE_URL,
        timeout: float = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        http_client: httpx.AsyncClient | None = None,
        retry_policy: RetryPolicy | None = None,
    ) -> None:
        super().__init__(api_key, base_url=base_url, max_retries=max_retries, retry_policy=retry_policy)
        self._owns_http = http_client is None
        self._http = http_client if http_client is not None else httpx.AsyncClient(timeout=timeout)

    async def _send(self, call: Call[T]) -> T:
        return await send_async(
            self._http,
            self.base_url,
            self._prepare(call),
            call.response,
            self._retry,
            call.accepted,
            call.variant,
        )

    async def aclose(self) -> None:
        if self._owns_http:
            await self._http.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()


_SyncC = TypeVar("_SyncC", bound=SyncClient)
_AsyncC = TypeVar("_AsyncC", bound=AsyncClient)


class SyncResource(Generic[_SyncC]):
    """A group of a blocking client's methods, sent through that client (its HTTP client, retries,
    headers and defaults)."""

    def __init__(self, client: _SyncC) -> None:
        self._client = client

    # Not _send: the builders share the resource's namespace, and gifts.send's builder is _send.
    def _send_call(self, call: Call[T]) -> T:
        return self._client._send(call)


class AsyncResource(Generic[_AsyncC]):
    """A group of an asyncio client's methods, sent through that client."""

    def __init__(self, client: _AsyncC) -> None:
        self._client = client

    async def _send_call(self, call: Call[T]) -> T:
        return await self._client._send(call)


_R = TypeVar("_R", bound="SyncResource[Any] | AsyncResource[Any]")


class resource(Generic[_R]):  # lower case: used like property, in a class body
    """A client attribute holding one resource per client, made from the client on first use::

        class GameClient(SdkClient):
            quests = resource(Quests)       # GameClient(...).quests.progress("ada")

    On the class it is the resource class (``SdkClient.friends.list`` is the method, for ``help()``).
    A sync resource belongs on a sync client and an async one on an async client; binding the wrong kind
    is a ``TypeError`` when the class is made."""

    def __init__(self, cls: type[_R]) -> None:
        self.cls = cls
        self.name = ""

    def __set_name__(self, owner: type[Any], name: str) -> None:
        for client_kind, resource_kind in ((SyncClient, AsyncResource), (AsyncClient, SyncResource)):
            if issubclass(owner, client_kind) and issubclass(self.cls, resource_kind):
                raise TypeError(
                    f"{owner.__name__}.{name}: {self.cls.__name__} is for the other kind of client"
                )
        self.name = name

    @overload
    def __get__(self, client: None, owner: type[Any]) -> type[_R]: ...
    @overload
    def __get__(self, client: object, owner: type[Any]) -> _R: ...
    def __get__(self, client: object, owner: type[Any]) -> type[_R] | _R:
        if client is None:
            return self.cls
        made = self.cls(client)
        # Kept on the instance, which attribute lookup finds before this (non-data) descriptor.
        vars(client)[self.name] = made
        return made


def sync_method(
    build: Callable[Concatenate[Any, P], Call[T]],
) -> Callable[Concatenate[SyncResource[Any], P], T]:
    """The blocking method for a call builder: same parameters, returns the response model."""

    def method(self: SyncResource[Any], /, *args: P.args, **kwargs: P.kwargs) -> T:
        return self._send_call(build(self, *args, **kwargs))

    return _present(method, build)


def async_method(
    build: Callable[Concatenate[Any, P], Call[T]],
) -> Callable[Concatenate[AsyncResource[Any], P], Coroutine[Any, Any, T]]:
    """The asyncio method for a call builder: same parameters, returns an awaitable of the model."""

    async def method(self: AsyncResource[Any], /, *args: P.args, **kwargs: P.kwargs) -> T:
        return await self._send_call(build(self, *args, **kwargs))

    return _present(method, build)


BUILDER = "__livecore_builder__"


def _present(method: _F, build: Callable[..., Any]) -> _F:
    # The builder is kept for the generated table of every method in docs/client.md (_method_table.py).
    setattr(method, BUILDER, build)
    return present(method, build)
