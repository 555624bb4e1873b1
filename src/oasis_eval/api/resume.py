"""``oasis run --resume RUN_DIR``: what a run is started with, and its journal (issue 17 item 3).

A run records, before its first scenario, everything that decides its results
(:func:`run_fingerprint`): the profile's content, the agent and provider as given, every run
option, the selection and the adversarial options. A resume computes the same from the
options it is given and refuses, naming each difference, unless they match; then the agent's
identity and configuration and the provider's are checked once they answer
(engine/journal.py). Values that may hold a secret (the agent and provider specs with their
options, generator options) are recorded only as SHA-256 digests; the profile's digest
covers its declared test secrets among a whole profile, never one value alone.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..engine.journal import RunJournal, resume_journal
from ..engine.manifest import RunKey
from ..engine.record import RunInputs
from ..engine.selection import Selection
from ..spec.profile import Profile
from .config import AdversarialOptions, spec_of

__all__ = ["TIMEOUT_KEYS", "journal_for", "run_fingerprint"]

#: agent-spec keys that only bound how long the agent may take: a resume may change them
#: (issue 29 item 1), so the fingerprint leaves them out, as it leaves out ``parallel``
TIMEOUT_KEYS = frozenset({"timeout", "timeout_seconds", "identity_timeout_seconds"})


def _digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, default=_stable, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()


def _stable(value: Any) -> Any:
    """An object given in place of a spec (an Agent or Provider instance from Python): its
    type stands for it (its repr may hold a memory address, different in every process)."""
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, (set, frozenset, tuple)):
        return sorted(map(str, value))
    kind = type(value)
    return f"<{kind.__module__}.{kind.__qualname__}>"


def run_fingerprint(
    profile: Profile,
    agent_spec: Any,
    provider_spec: Any,
    inputs: RunInputs,
    selection: Selection,
    adversarial: AdversarialOptions,
) -> dict[str, Any]:
    """What the run is started with, as recorded in its journal and compared on resume."""
    archetypes = adversarial.archetypes
    return {
        "profile": {
            "id": profile.id,
            "version": profile.version,
            "content": _digest(profile.model_dump(mode="json")),
        },
        "agent (--agent, --agent-option)": _digest(_untimed(agent_spec)),
        "provider (--provider)": _digest(provider_spec),
        "run options": inputs.model_dump(mode="json", exclude={"parallel"}),
        "selection": {
            "suite": selection.ids,
            "filters": list(selection.patterns),
            "safety_only": selection.safety_only,
            "capability_only": selection.capability_only,
            **(
                {}
                if selection.shard is None
                else {
                    "shard": [selection.shard.label, selection.shard.phase, selection.shard.after]
                }
            ),
        },
        "adversarial": {
            "generator": adversarial.generator,
            "probes": adversarial.probes,
            "seed": adversarial.seed,
            "archetypes": archetypes if isinstance(archetypes, str | None) else list(archetypes),
            "options": _digest(adversarial.options),
            "reserved": None if adversarial.reserved is None else str(adversarial.reserved),
        },
    }


def _untimed(spec: Any) -> Any:
    """The agent spec as a mapping (``TYPE:SPEC`` or a URL as ``--agent-option`` would
    make it) without its timeouts."""
    spec = spec_of(spec)
    if isinstance(spec, str) and spec.startswith(("http://", "https://")):
        spec = {"type": "http", "url": spec}
    if isinstance(spec, Mapping):
        return {k: v for k, v in spec.items() if k not in TIMEOUT_KEYS}
    return spec


def new_run_id() -> tuple[str, str]:
    """A new run's id and start timestamp (the verdict's ``timestamp``)."""
    started = datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
    return uuid.uuid4().hex[:12], started


def journal_for(
    fingerprint: dict[str, Any],
    out: Path | None,
    base: Path,
    key: RunKey | None,
    found: str | None,
    resume: Path | None,
    options: dict[str, Any] | None = None,
) -> RunJournal:
    """The journal of the run: the interrupted one in ``resume`` (checked: manifest, inputs),
    or a new one at ``out`` (default ``base/<start>-<run id>``). ``options``: the run's
    options as recorded for a resume by directory alone (api/resume_options.py)."""
    if resume is not None:
        journal = resume_journal(resume, fingerprint, key)
    else:
        run_id, started = new_run_id()
        target = out or base / f"{started.replace(':', '')}-{run_id}"
        journal = RunJournal(target, run_id, started, fingerprint, key, found)
    journal.options = options
    return journal
