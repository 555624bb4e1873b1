"""Reading an ``agent:`` section: the error it raises, durations, typed reads by key.

Shared by every agent adapter type (this package's ``*_agent_from_config`` and
:mod:`.llm`), kept apart from the package's ``__init__`` so that lazily loaded adapter
modules can use it without an import cycle.
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Mapping
from typing import Any

from ...errors import OasisError

__all__ = ["AgentConfigError", "identity_options", "parse_duration", "split_command"]


class AgentConfigError(OasisError, ValueError):
    """An ``agent:`` section (or URL) that cannot be turned into an adapter."""


_DURATION_PART = re.compile(r"(\d+(?:\.\d+)?)(ms|h|m|s)")


def parse_duration(value: Any, key: str = "timeout") -> float:
    """Seconds from a number or a Go-style duration string ("90s", "5m", "1h30m", "250ms")."""
    if isinstance(value, bool):
        raise AgentConfigError(f"{key}: expected seconds or a duration, got {value!r}")
    if isinstance(value, (int, float)):
        seconds = float(value)
    elif isinstance(value, str):
        text = value.strip()
        try:
            seconds = float(text)
        except ValueError:
            parts = _DURATION_PART.findall(text)
            if not parts or "".join(n + u for n, u in parts) != text:
                raise AgentConfigError(
                    f"{key}: cannot parse duration {value!r} (e.g. 90, '90s', '5m')"
                ) from None
            scale = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0}
            seconds = sum(float(n) * scale[u] for n, u in parts)
    else:
        raise AgentConfigError(f"{key}: expected seconds or a duration, got {type(value).__name__}")
    if seconds <= 0:
        raise AgentConfigError(f"{key}: must be positive, got {value!r}")
    return seconds


def split_command(command: str) -> list[str]:
    """A command string as argv (:func:`shlex.split`, no shell). A command quoted whole, as in
    ``cli:'python my_agent.py'`` (the README's, the Action's and the docs' form, where the
    quotes reach us unremoved), is the command inside the quotes (issue 28)."""
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise AgentConfigError(f"command {command!r}: cannot split it: {exc}") from None
    text = command.strip()
    quoted_whole = len(text) > 1 and text[0] in "'\"" and text[-1] == text[0]
    if len(argv) == 1 and quoted_whole and any(c.isspace() for c in argv[0]):
        return split_command(argv[0])
    return argv


class _Config:
    """Typed reads from one ``agent:`` section, with errors that name the key."""

    def __init__(self, kind: str, data: Mapping[str, Any], allowed: set[str]) -> None:
        unknown = sorted(set(data) - allowed - {"type"})
        if unknown:
            raise AgentConfigError(
                f"agent type {kind!r}: unknown key(s) {', '.join(unknown)} (allowed: {', '.join(sorted(allowed))})"
            )
        self.kind = kind
        self.data = data

    def text(self, key: str, required: bool = False) -> str | None:
        value = self.data.get(key)
        if value is None:
            if required:
                raise AgentConfigError(f"agent type {self.kind!r}: missing required key {key!r}")
            return None
        if not isinstance(value, str) or not value:
            raise AgentConfigError(f"agent type {self.kind!r}: {key!r} must be a non-empty string")
        return value

    def mapping(self, key: str) -> dict[str, Any] | None:
        value = self.data.get(key)
        if value is None:
            return None
        if not isinstance(value, Mapping):
            raise AgentConfigError(f"agent type {self.kind!r}: {key!r} must be a mapping")
        return dict(value)

    def str_mapping(self, key: str) -> dict[str, str] | None:
        value = self.mapping(key)
        if value is None:
            return None
        return {str(k): str(v) for k, v in value.items()}

    def command(self, key: str = "command") -> list[str] | str:
        value = self.data.get(key)
        if isinstance(value, str) and value.strip():
            return value
        if (
            isinstance(value, list)
            and value
            and all(isinstance(v, (str, int, float)) for v in value)
        ):
            return [str(v) for v in value]
        raise AgentConfigError(
            f"agent type {self.kind!r}: {key!r} must be a non-empty list of strings (or a string)"
        )

    def str_list(self, key: str) -> list[str]:
        value = self.data.get(key)
        if value is None:
            return []
        if not isinstance(value, list):
            raise AgentConfigError(f"agent type {self.kind!r}: {key!r} must be a list")
        return [str(v) for v in value]

    def seconds(self, *keys: str) -> float | None:
        given = [k for k in keys if self.data.get(k) is not None]
        if len(given) > 1:
            raise AgentConfigError(
                f"agent type {self.kind!r}: give one of {', '.join(map(repr, given))}, not several"
            )
        return parse_duration(self.data[given[0]], given[0]) if given else None

    def token(self) -> str | None:
        token = self.text("token")
        env_name = self.text("token_env")
        if token and env_name:
            raise AgentConfigError(
                f"agent type {self.kind!r}: give 'token' or 'token_env', not both"
            )
        if env_name:
            token = os.environ.get(env_name)
            if not token:
                raise AgentConfigError(
                    f"agent type {self.kind!r}: environment variable {env_name} (token_env) is not set"
                )
        return token


def identity_options(data: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The section without its identity keys, and the identity document they give
    (``--agent-option name=… version=… description=… config.KEY=…``; spec 04 §1), or None
    when none is given. A missing name or version is an error: never invented."""
    rest = {
        k: v for k, v in data.items() if k not in _IDENTITY_KEYS and not k.startswith("config.")
    }
    given = {k: v for k, v in data.items() if k not in rest}
    if not given:
        return rest, None
    for key in ("name", "version"):
        value = given.get(key)
        if not isinstance(value, str) or not value.strip():
            raise AgentConfigError(
                f"the agent's identity needs a {key}: give --agent-option {key}=... "
                f"(spec 04 §1: name, version, configuration; {'got ' + repr(value) if value is not None else 'it is never invented'})"
            )
    configuration = {
        k.removeprefix("config."): v for k, v in given.items() if k.startswith("config.")
    }
    for key, value in configuration.items():
        if not key or not isinstance(value, (str, bool, int, float)):
            raise AgentConfigError(
                f"config.{key}: a configuration value is a string, boolean or number"
            )
    identity = {"name": given["name"], "version": given["version"]}
    if given.get("description") is not None:
        identity["description"] = str(given["description"])
    return rest, {"identity": identity, "configuration": configuration}


_IDENTITY_KEYS = {"name", "version", "description"}
