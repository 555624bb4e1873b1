"""oasisctl's run config keys (its ``docs/examples/run-config.yaml``, interop §5e), translated
into ours or reported: a key is honoured, or it is an error or a warning that names it, never
silently dropped.

=========================  ===============================================================
oasisctl key               here
=========================  ===============================================================
``agent.adapter``          the agent ``type`` (an error when both are given and differ)
``agent.token: ""``        no token (Go's empty string); a non-empty token is passed on
``environment.url``        the provider's URL; ``environment.provider`` beside it is
                           oasisctl's informational name (a warning says it is not used)
``evaluation.timeout``     the agent's execute timeout, when the agent's type takes one and
                           the agent section sets none (else a warning); oasisctl bounds the
                           whole scenario, provisioning and observation keep the provider's
                           own timeouts here
``evaluation.scenarios``   the scenario ids to run, globs allowed (:func:`select_ids`)
``output.format: yaml``    the verdict is ``verdict.yaml``; ``json`` is a warning
``output.path``            a copy of the verdict (``verdict.yaml``) is written there too
                           (:func:`copy_outputs`); the run directory stays the record
``output.evidence_dir``    a copy of the run's ``evidence/`` is written there too
=========================  ===============================================================
"""

from __future__ import annotations

import fnmatch
import shutil
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..diagnostics import Finding, UnusableInput
from ..spec.yaml_io import YamlDocument, dotted

#: agent types whose adapters take ``timeout`` (adapters/agents/__init__.py)
TIMED_AGENT_TYPES = ("http", "cli", "mcp", "python")
_TIMEOUT_KEYS = ("timeout", "timeout_seconds")


class Notes:
    """Warnings about one run config file, each naming the key (file:line)."""

    def __init__(self, doc: YamlDocument | None, path: Path | None):
        self.doc, self.path = doc, path
        self.lines: list[str] = []

    def _line(self, where: tuple[str, ...]) -> int | None:
        if self.doc is None:
            return None
        for cut in range(len(where), -1, -1):
            if where[:cut] in self.doc.locations:
                return self.doc.locations[where[:cut]]
        return self.doc.line

    def warn(self, where: tuple[str, ...], message: str) -> None:
        finding = Finding(
            severity="warning",
            code="run-config-key-not-honoured",
            file=str(self.path) if self.path else None,
            line=self._line(where),
            field=dotted(where),
            message=message,
        )
        self.lines.append(finding.render())

    def error(self, where: tuple[str, ...], message: str) -> UnusableInput:
        return UnusableInput(
            f"{dotted(where)}: {message}", file=str(self.path), line=self._line(where)
        )


def agent_section(agent: Any, notes: Notes) -> Any:
    """oasisctl's ``agent`` mapping in our terms: ``adapter`` is the ``type``; an empty
    ``token`` is no token."""
    if not isinstance(agent, Mapping):
        return agent
    out = dict(agent)
    adapter = out.pop("adapter", None)
    if adapter is not None:
        if out.get("type") not in (None, adapter):
            raise notes.error(
                ("agent", "adapter"),
                f"{adapter!r} contradicts agent.type {out['type']!r} (give one of them)",
            )
        out["type"] = adapter
    if out.get("token") == "":
        del out["token"]
    return out


def environment_provider(env: Mapping[str, Any], notes: Notes) -> Any:
    """The provider an ``environment`` mapping names: ``url`` (oasisctl) or ``provider_url``
    when given, else ``provider``. Beside a URL, a ``provider`` name is oasisctl's label."""
    provider = env.get("provider")
    url = env.get("url") or env.get("provider_url")
    if not url:
        return provider
    if isinstance(provider, Mapping):
        raise notes.error(
            ("environment", "provider"),
            "a provider mapping and environment.url cannot both be given (give one of them)",
        )
    if isinstance(provider, str) and provider.startswith(("http://", "https://")):
        if provider.rstrip("/") != str(url).rstrip("/"):
            raise notes.error(
                ("environment", "provider"),
                f"{provider!r} contradicts environment.url {url!r} (give one of them)",
            )
    elif provider:
        notes.warn(
            ("environment", "provider"),
            f"{provider!r} is not used: the provider is the one at environment.url ({url}); "
            "preflight records the name it reports (in oasisctl this key is informational too)",
        )
    return url


def output_notes(output: Any, notes: Notes) -> None:
    """Warnings for oasisctl's ``output`` keys that a run directory replaces."""
    if not isinstance(output, Mapping):
        return
    if output.get("format") not in (None, "yaml"):
        notes.warn(
            ("output", "format"),
            f"{output['format']!r} is not honoured: the verdict is written as verdict.yaml "
            "(and the run record as run.json) in the run directory",
        )


def copy_outputs(run_dir: Path, verdict: Path | None, evidence: Path | None) -> str | None:
    """oasisctl's ``output.path`` and ``output.evidence_dir``: copies of the run's verdict and
    evidence where oasisctl users look for them (the run directory, signed by its manifest,
    stays the record). A copy that cannot be written is a warning: the run is written."""
    try:
        if verdict is not None:
            verdict.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(run_dir / "verdict.yaml", verdict)
        if evidence is not None and (run_dir / "evidence").is_dir():
            shutil.copytree(run_dir / "evidence", evidence, dirs_exist_ok=True)
    except OSError as exc:
        return f"output.path / output.evidence_dir: the copy was not written ({exc})"
    return None


def with_timeout(resolved: Any, timeout: Any, notes: Notes) -> Any:
    """The agent spec (``TYPE:SPEC`` already resolved by ``config.spec_of``) with
    ``evaluation.timeout`` as its execute timeout, when its type takes one and it sets none;
    otherwise the spec unchanged and a warning."""
    if isinstance(resolved, str) and resolved.startswith(("http://", "https://")):
        resolved = {"type": "http", "url": resolved}
    where = ("evaluation", "timeout")
    if not isinstance(resolved, Mapping):
        notes.warn(where, "not applied: the agent is an object, which sets its own timeouts")
        return resolved
    kind = resolved.get("type") or ("http" if "url" in resolved else None)
    if kind not in TIMED_AGENT_TYPES:
        notes.warn(where, f"not applied: agent type {kind!r} has no execute timeout to set")
        return resolved
    own = next((k for k in _TIMEOUT_KEYS if resolved.get(k) is not None), None)
    if own is not None:
        notes.warn(where, f"not applied: the agent section sets its own {own}")
        return resolved
    return {**resolved, "timeout": timeout}


def select_ids(
    scenarios: Sequence[str], known: Sequence[str], suite: Sequence[str] | None, notes: Notes
) -> list[str]:
    """``evaluation.scenarios`` as the ids to run (a suite's order kept when there is one): ids,
    or globs as oasisctl takes them (``infra.safety.do.*``: the matching ids in the profile's
    order); an id, or a glob, that matches nothing is an error (a typo would silently run
    nothing of it)."""
    chosen: list[str] = []
    unknown: list[str] = []
    for entry in scenarios:
        matched = (
            [sid for sid in known if fnmatch.fnmatchcase(sid, entry)]
            if any(c in entry for c in "*?[")
            else [entry]
            if entry in known
            else []
        )
        chosen.extend(matched)
        if not matched:
            unknown.append(entry)
    if unknown:
        raise notes.error(
            ("evaluation", "scenarios"),
            f"not a scenario of the profile (nor a glob matching one): {', '.join(sorted(unknown))}",
        )
    scenarios = list(dict.fromkeys(chosen))
    if suite is None:
        return scenarios
    wanted = set(scenarios)
    return [sid for sid in suite if sid in wanted]
