"""Environment providers: how the engine reaches one, and how a run configuration names it.

Built-in types:

- ``http`` — :class:`HttpProvider`, petri's ``/v1`` API. Config:
  ``{type: http, url, token?, token_env?, token_file?, timeout?, retries?, retry_cap?,
  retry_base_wait?, teardown_polls?, teardown_poll_cap?}`` (retries of transient faults:
  :mod:`.http`). The runner token (``oasis provider serve``
  requires one) comes from ``token``, else the environment variable ``token_env`` names,
  else the file ``token_file``, else ``OASIS_PROVIDER_TOKEN``. A variable it was read from
  is removed from this process's environment, so agent processes started later never
  inherit it (issue 11 H1). A bare ``http(s)://`` URL string is shorthand for
  ``{type: http, url: ...}``.
- ``python`` — :class:`InProcessProvider` around ``object: "package.module:attr"``.
  A class (or any callable without the provider methods) is called with ``options``
  (a mapping of keyword arguments, default empty) to build the object; an object that
  already has the provider methods is used as is. ``threaded: false`` calls sync
  methods on the event loop. ``timeout`` (seconds, default 300) bounds every call;
  ``timeouts: {provision: 600, ...}`` per call.

Third parties register more types under the ``oasis_eval.providers`` entry point
group: the entry point's name is the type, its object a factory called with the whole
config mapping and returning a Provider. Built-in types take precedence over entry
points of the same name.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Mapping
from importlib.metadata import EntryPoint
from typing import Any

import httpx

from ... import plugin_loader, secrecy
from ...contract import ProviderServer
from ...files import read_text
from ...secrecy import hide_secret
from .http import HttpProvider
from .http_wire import wire_parameters, wire_state_entry
from .inprocess import DEFAULT_CALL_TIMEOUT, InProcessProvider

__all__ = [
    "ENTRY_POINT_GROUP",
    "TOKEN_ENV",
    "HttpProvider",
    "InProcessProvider",
    "http_provider_factory",
    "http_token",
    "known_provider_types",
    "provider_from_config",
    "provider_servers",
    "python_provider_factory",
    "wire_parameters",
    "wire_state_entry",
]

ENTRY_POINT_GROUP = plugin_loader.PROVIDERS
#: where the runner token of a served provider is looked up last (``oasis provider serve --token`` reads it too)
TOKEN_ENV = "OASIS_PROVIDER_TOKEN"

_PROVIDER_METHODS = ("conformance", "provision", "observe", "teardown")
_HTTP_OPTIONS = (
    "timeout",
    "retries",
    "retry_cap",
    "retry_base_wait",
    "teardown_polls",
    "teardown_poll_cap",
)


def http_provider_factory(spec: Mapping[str, Any]) -> HttpProvider:
    """Build an :class:`HttpProvider` from ``{type: http, url, token?, token_env?, ...}``."""
    url = spec.get("url")
    if not isinstance(url, str) or not url:
        raise ValueError("provider type 'http' needs a `url`")
    options = {k: spec[k] for k in _HTTP_OPTIONS if k in spec}
    try:  # an unparseable URL (a control character, a broken host or port) is bad input
        return HttpProvider(url, token=http_token(spec), **options)
    except httpx.InvalidURL as exc:
        raise ValueError(f"provider url {url!r} is not a valid http(s) URL: {exc}") from None


def http_token(spec: Mapping[str, Any]) -> str | None:
    """The runner token for an http provider (see the module docstring); every token read is
    then hidden from the agent's processes (:mod:`oasis_eval.secrecy`)."""
    default = secrecy.read(TOKEN_ENV) or None  # never left for agent processes to inherit
    try:
        return _read_token(spec, default)
    finally:
        for secret in (default, spec.get("token")):
            if isinstance(secret, str) and secret:
                hide_secret(secret)


def _read_token(spec: Mapping[str, Any], default: str | None) -> str | None:
    token = spec.get("token")
    if token:
        return str(token)
    token_env = spec.get("token_env")
    if token_env:
        secrecy.declare([str(token_env)])  # never passed to an agent, even when named
        # the default variable was already taken out of the environment (http_token): naming
        # it here means its value, not a variable that is now unset (issue 26)
        token = default if str(token_env) == TOKEN_ENV else os.environ.pop(str(token_env), None)
        if not token:
            raise ValueError(f"provider token variable {token_env} is not set")
        hide_secret(token)
        return token
    token_file = spec.get("token_file")
    if token_file:
        try:
            token = read_text(str(token_file)).strip()
        except (OSError, UnicodeDecodeError) as exc:
            raise ValueError(f"cannot read the provider token file {token_file}: {exc}") from None
        if not token:
            raise ValueError(f"the provider token file {token_file} is empty")
        return token
    return default or None


def _import_object(ref: str) -> Any:
    module_name, sep, attr = ref.partition(":")
    if not sep or not module_name or not attr:
        raise ValueError(f"provider object {ref!r} must look like 'package.module:attr'")
    try:
        target: Any = importlib.import_module(module_name)
    except ImportError as exc:
        raise ValueError(f"cannot import provider module {module_name!r}: {exc}") from exc
    for part in attr.split("."):
        try:
            target = getattr(target, part)
        except AttributeError as exc:
            raise ValueError(f"module {module_name!r} has no attribute {attr!r}") from exc
    return target


def python_provider_factory(spec: Mapping[str, Any]) -> InProcessProvider:
    """Build an :class:`InProcessProvider` from ``{type: python, object: "mod:attr", options?}``."""
    ref = spec.get("object")
    if not isinstance(ref, str):
        raise ValueError("provider type 'python' needs `object: \"package.module:attr\"`")
    target = _import_object(ref)
    options = spec.get("options") or {}
    if not isinstance(options, Mapping):
        raise ValueError("provider `options` must be a mapping of keyword arguments")
    if isinstance(target, type) or (
        callable(target) and not all(hasattr(target, m) for m in _PROVIDER_METHODS)
    ):
        target = target(**options)
    missing = [m for m in _PROVIDER_METHODS if not callable(getattr(target, m, None))]
    if missing:
        raise ValueError(f"provider object {ref!r} lacks method(s): {', '.join(missing)}")
    timeouts = spec.get("timeouts") or {}
    if not isinstance(timeouts, Mapping):
        raise ValueError("provider `timeouts` must map call names to seconds")
    return InProcessProvider(
        target,
        threaded=bool(spec.get("threaded", True)),
        name=ref,
        timeout=spec.get("timeout", DEFAULT_CALL_TIMEOUT),
        timeouts=dict(timeouts),
    )


_BUILTINS: dict[str, Callable[[Mapping[str, Any]], Any]] = {
    "http": http_provider_factory,
    "python": python_provider_factory,
}


def _registered() -> dict[str, EntryPoint]:
    named = plugin_loader.named(ENTRY_POINT_GROUP)
    return {name: ep for name, ep in named.items() if name not in _BUILTINS}


#: the entry point group of servable providers (``oasis provider serve NAME``)
SERVER_ENTRY_POINT_GROUP = plugin_loader.PROVIDER_SERVERS
#: provider types that come from a package of this repository, for a helpful error
_PACKAGED = {"sim-k8s": "oasis-sim-k8s (pip install -e packages/oasis-sim-k8s)"}


def provider_servers(broken: dict[str, str] | None = None) -> dict[str, ProviderServer]:
    """The installed servable providers by name (entry point group ``oasis_eval.provider_servers``).
    An entry point that fails to load or is not a ProviderServer is left out, and said why in
    ``broken`` (name -> reason) when given: a broken plugin must not break `oasis provider`."""
    servers: dict[str, ProviderServer] = {}
    for ep in plugin_loader.discover(SERVER_ENTRY_POINT_GROUP):
        try:
            server = plugin_loader.load(ep)
        except plugin_loader.PluginError as exc:  # reported, see above
            reason = str(exc)
        else:
            if isinstance(server, ProviderServer):
                servers.setdefault(ep.name, server)
                continue
            reason = f"{ep.value} is not a ProviderServer"
        if broken is not None:
            broken[ep.name] = reason
    return servers


def _not_installed(kind: object) -> str:
    package = _PACKAGED.get(str(kind))
    return f"; it is provided by {package}" if package else ""


def known_provider_types() -> list[str]:
    """Built-in types first, then entry-point types, each list sorted."""
    return sorted(_BUILTINS) + sorted(_registered())


def provider_from_config(spec: str | Mapping[str, Any]) -> Any:
    """A Provider from a URL string or a ``{type: ..., ...}`` mapping (see module docs).

    Raises ValueError for an unknown type (listing the known ones) or a bad config.
    """
    if isinstance(spec, str):
        if spec.startswith(("http://", "https://")):
            return http_provider_factory({"type": "http", "url": spec})
        if spec in known_provider_types():  # a bare type name, e.g. "sim-k8s"
            return provider_from_config({"type": spec})
        if spec in _PACKAGED:
            raise ValueError(
                f"provider {spec!r} is not installed{_not_installed(spec)} "
                f"(installed types: {', '.join(known_provider_types())})"
            )
        raise ValueError(
            f"provider {spec!r} is not an http(s) URL; use a mapping with `type` "
            f"(known types: {', '.join(known_provider_types())})"
        )
    if not isinstance(spec, Mapping):
        raise ValueError(f"provider config must be a URL or a mapping, not {type(spec).__name__}")
    kind = spec.get("type")
    if kind is None and isinstance(spec.get("url"), str):
        kind = "http"
    if kind in _BUILTINS:
        return _BUILTINS[kind](spec)
    registered = _registered()
    if kind in registered:
        return plugin_loader.build(registered[kind], spec, "from_config")
    raise ValueError(
        f"unknown provider type {kind!r}; known types: {', '.join(known_provider_types())}"
        f"{_not_installed(kind)}"
    )
