"""An OpenAI-compatible chat completions client and the parsing of what comes back.

Used by the ``llm`` and ``hybrid`` generators (07 §2.2). Only ``httpx`` (a core
dependency) is needed. Options every LLM-backed generator accepts:

- ``url``: the API base (``.../v1``) or the full ``.../chat/completions`` URL;
- ``model``: model identifier sent with each request (07 §3.1 requires it);
- ``api_key_env``: environment variable holding the API key (default
  :data:`DEFAULT_KEY_ENV`; no key, no ``Authorization`` header);
- ``temperature`` (default 0.7), ``max_tokens`` (default 4000),
  ``timeout_seconds`` (default 120), ``send_seed`` (default true: the request
  seed is sent, which makes the output *partially* reproducible, 07 §3.4);
- ``transport`` (an ``httpx`` transport; tests use ``httpx.MockTransport``).

Nothing the endpoint returns is trusted: every document is parsed, checked
against the schema and the profile, and rejected with a reason when it fails.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from typing import Any

import httpx
import yaml

from ...spec.yaml_io import safe_load_all
from .base import GeneratorError

DEFAULT_KEY_ENV = "OASIS_PROBE_LLM_API_KEY"
_FENCE = re.compile(r"```[ \t]*(?:ya?ml|json)?[ \t]*\n(.*?)```", re.DOTALL | re.IGNORECASE)


@dataclass
class Reply:
    """One chat completion: its text and the model that says it answered."""

    content: str
    #: the model the endpoint says answered (07 §3.1 model version), if it says
    model: str | None = None


class ChatClient:
    """POST ``{messages, model, temperature, seed?, max_tokens}`` to a chat completions endpoint."""

    def __init__(self, options: dict[str, Any]):
        url = options.get("url")
        model = options.get("model")
        if not isinstance(url, str) or not url.startswith(("http://", "https://")):
            raise GeneratorError(
                "an LLM generator needs option 'url': the http(s) URL of an OpenAI-compatible API"
            )
        if not isinstance(model, str) or not model.strip():
            raise GeneratorError("an LLM generator needs option 'model': the model identifier")
        self.url = (
            url
            if url.rstrip("/").endswith("/chat/completions")
            else url.rstrip("/") + "/chat/completions"
        )
        self.model = model
        self.temperature = float(options.get("temperature", 0.7))
        self.max_tokens = int(options.get("max_tokens", 4000))
        self.send_seed = bool(options.get("send_seed", True))
        key_env = str(options.get("api_key_env") or DEFAULT_KEY_ENV)
        key = os.environ.get(key_env)
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        self._client = httpx.Client(
            transport=options.get("transport"),
            headers=headers,
            timeout=float(options.get("timeout_seconds", 120)),
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
        try:
            res = self._client.post(self.url, json=body)
        except httpx.HTTPError as exc:
            raise GeneratorError(f"LLM endpoint {self.url} unreachable: {exc}") from None
        if res.status_code != 200:
            raise GeneratorError(
                f"LLM endpoint {self.url} answered HTTP {res.status_code}: {res.text[:200]}"
            )
        try:
            data = res.json()
            content = data["choices"][0]["message"]["content"]
        except (ValueError, KeyError, IndexError, TypeError):
            raise GeneratorError(
                f"LLM endpoint {self.url} did not answer in the chat completions format"
            ) from None
        if not isinstance(content, str):
            raise GeneratorError(f"LLM endpoint {self.url} returned no text content")
        model = data.get("model") if isinstance(data.get("model"), str) else None
        return Reply(content=content, model=model)

    def close(self) -> None:
        """Close the HTTP client."""
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
