"""An OpenAI-compatible chat completions client and the parsing of what comes back.

Used by the ``llm`` and ``hybrid`` generators (07 §2.2). The client is the official
``openai`` SDK, as for ``--agent openai:MODEL`` (extra ``llm``), so ``--adversarial llm``
works against the same servers; a failed call is retried in place under the harness's
retry policy (:mod:`oasis_eval.retrying`: timeouts, connection errors, 408, 429, 5xx,
``Retry-After`` honoured). A retry sends the same request, so what the generator emits
depends only on the replies it finally gets. Options every LLM-backed generator accepts:

- ``url``: the API base (``.../v1``) or the full ``.../chat/completions`` URL;
- ``model``: model identifier sent with each request (07 §3.1 requires it);
- ``api_key_env``: environment variable holding the API key (default
  :data:`DEFAULT_KEY_ENV`; no key, no ``Authorization`` header);
- ``temperature`` (default 0.7), ``max_tokens`` (default 4000),
  ``timeout_seconds`` (default 120), ``send_seed`` (default true: the request
  seed is sent, which makes the output *partially* reproducible, 07 §3.4);
- ``max_retries`` (default 2), ``retry_base_wait`` (seconds, default 0.5),
  ``retry_max_wait`` (seconds, default 30);
- ``transport`` (an ``httpx2`` transport, as the SDK's HTTP client takes; tests use
  ``httpx2.MockTransport``).

Nothing the endpoint returns is trusted: every document is parsed, checked
against the schema and the profile, and rejected with a reason when it fails.
"""

from __future__ import annotations

import importlib
import json
import os
import re
from dataclasses import dataclass
from typing import Any

import httpx2
import yaml

from ...retrying import RetryPolicy, sdk_transient, sdk_wait_hint
from ...spec.yaml_io import safe_load_all
from .base import GeneratorError

DEFAULT_KEY_ENV = "OASIS_PROBE_LLM_API_KEY"
_FENCE = re.compile(r"```[ \t]*(?:ya?ml|json)?[ \t]*\n(.*?)```", re.DOTALL | re.IGNORECASE)
_SUFFIX = "/chat/completions"


@dataclass
class Reply:
    """One chat completion: its text and the model that says it answered."""

    content: str
    #: the model the endpoint says answered (07 §3.1 model version), if it says
    model: str | None = None


def _number(options: dict[str, Any], key: str, default: float, whole: bool = False) -> Any:
    value = options.get(key, default)
    try:
        number = int(value) if whole else float(value)
    except (TypeError, ValueError):
        raise GeneratorError(f"option {key!r} must be a number, got {value!r}") from None
    if number < 0:
        raise GeneratorError(f"option {key!r} must be >= 0, got {value!r}")
    return number


def _sdk() -> Any:
    try:
        return importlib.import_module("openai")
    except ImportError:
        raise GeneratorError(
            "an LLM generator speaks through the 'openai' package, which is not installed: "
            "pip install openai (or, from the oasis-eval repository, pip install -e '.[llm]')"
        ) from None


class ChatClient:
    """``{messages, model, temperature, seed?, max_tokens}`` to a chat completions endpoint."""

    def __init__(self, options: dict[str, Any]):
        url = options.get("url")
        model = options.get("model")
        if not isinstance(url, str) or not url.startswith(("http://", "https://")):
            raise GeneratorError(
                "an LLM generator needs option 'url': the http(s) URL of an OpenAI-compatible API"
            )
        if not isinstance(model, str) or not model.strip():
            raise GeneratorError("an LLM generator needs option 'model': the model identifier")
        base = url.rstrip("/")
        base = base[: -len(_SUFFIX)] if base.endswith(_SUFFIX) else base
        self.url = base + _SUFFIX
        self.model = model
        self.temperature = _number(options, "temperature", 0.7)
        self.max_tokens = _number(options, "max_tokens", 4000, whole=True)
        self.send_seed = bool(options.get("send_seed", True))
        self.retry = RetryPolicy(
            _number(options, "max_retries", 2, whole=True),
            _number(options, "retry_base_wait", 0.5),
            _number(options, "retry_max_wait", 30.0),
        )
        key = os.environ.get(str(options.get("api_key_env") or DEFAULT_KEY_ENV))
        self.sdk = _sdk()
        # no key, no Authorization header (a local server that asks for none)
        self._headers = {} if key else {"Authorization": self.sdk.Omit()}
        timeout = _number(options, "timeout_seconds", 120)
        transport = options.get("transport")
        self._client = self.sdk.OpenAI(
            base_url=base,
            api_key=key or "unused",
            timeout=timeout,
            max_retries=0,  # the retries are the policy's (module doc)
            http_client=None
            if transport is None
            else httpx2.Client(transport=transport, timeout=timeout),
        )

    def complete(self, messages: list[dict[str, str]], seed: int | None) -> Reply:
        """One chat completion for ``messages`` (seeded when the endpoint supports it)."""
        body: dict[str, Any] = {
            "model": self.model,
            "messages": messages,
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
        }
        if self.send_seed and seed is not None:
            body["seed"] = seed
        sdk = self.sdk
        try:
            answer = self.retry.call_sync(
                lambda: self._client.chat.completions.create(**body, extra_headers=self._headers),
                sdk_transient(sdk),
                sdk_wait_hint,
            )
        except sdk.APIStatusError as exc:
            raise GeneratorError(
                f"LLM endpoint {self.url} answered HTTP {exc.status_code}: {str(exc)[:200]}"
            ) from None
        except sdk.APIConnectionError as exc:
            raise GeneratorError(f"LLM endpoint {self.url} unreachable: {exc}") from None
        except sdk.APIError:
            raise GeneratorError(
                f"LLM endpoint {self.url} did not answer in the chat completions format"
            ) from None
        try:
            content = answer.choices[0].message.content
        except (AttributeError, IndexError, TypeError):
            raise GeneratorError(
                f"LLM endpoint {self.url} did not answer in the chat completions format"
            ) from None
        if not isinstance(content, str):
            raise GeneratorError(f"LLM endpoint {self.url} returned no text content")
        model = getattr(answer, "model", None)
        return Reply(content=content, model=model if isinstance(model, str) else None)

    def close(self) -> None:
        """Close the SDK client."""
        self._client.close()


def extract_document(text: str) -> tuple[Any, str | None]:
    """The YAML/JSON document in a reply (a fenced block, else the whole text), or why not."""
    blocks = _FENCE.findall(text or "")
    if len(blocks) > 1:
        return None, f"expected one document, found {len(blocks)} fenced blocks"
    raw = blocks[0] if blocks else (text or "")
    if not raw.strip():
        return None, "empty reply"
    try:
        docs = [d for d in safe_load_all(raw) if d is not None]
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark else ""
        return None, f"not YAML/JSON{where}: {getattr(exc, 'problem', None) or exc}"
    if len(docs) != 1:
        return None, f"expected one document, found {len(docs)}"
    return docs[0], None


def extract_strings(text: str) -> tuple[list[str], str | None]:
    """A JSON/YAML list of strings (or ``{items: [...]}``) from a reply."""
    doc, reason = extract_document(text)
    if reason:
        return [], reason
    if isinstance(doc, dict) and len(doc) == 1:
        doc = next(iter(doc.values()))
    if not isinstance(doc, list):
        return [], f"expected a list of strings, got {type(doc).__name__}"
    return [x for x in doc if isinstance(x, str)], None


def dumps(data: Any) -> str:
    """Block-style YAML as shown to the model (readable, key order kept)."""
    return yaml.safe_dump(
        data, sort_keys=False, allow_unicode=True, default_flow_style=False, width=100
    )


def compact(data: Any) -> str:
    """Compact canonical JSON of ``data``."""
    return json.dumps(data, sort_keys=True, ensure_ascii=False)
