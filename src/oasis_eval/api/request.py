"""The options of one run as given: what ``oasis run`` flags and :func:`oasis_eval.evaluate`
arguments become, before :func:`.compose.prepare` checks them. Its own module so that both
the composition and the resume's recorded options (api/resume_options.py) use it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..spec.profile import Profile
from .config import AdversarialOptions

__all__ = ["RunRequest"]


@dataclass
class RunRequest:
    """The options of one run as the user gave them (``oasis run`` flags or API arguments)."""

    config: Path | None = None
    profile: Profile | Path | str | None = None
    agent: Any = None
    #: ``--agent-option KEY=VALUE`` items (or a mapping), merged into the agent's section
    agent_options: Sequence[str] | Mapping[str, Any] = ()
    provider: Any = None
    suite: Path | None = None
    tier: int | None = None
    evaluator: str | None = None
    parallel: int | None = None
    #: ``--workers``: worker processes sharing the scenarios (engine/workers.py; 0: one per
    #: core); None keeps the run config's (default 1: none)
    workers: int | None = None
    #: ``--agent-retries``: None keeps the run config's (engine/attempts.py)
    agent_retries: int | None = None
    #: ``--plugin-timeout``: None keeps the run config's (engine/plugin_watch.py)
    plugin_timeout: float | None = None
    filters: Sequence[str] = ()
    safety_only: bool = False
    #: ``--capability-only``: measure capability alone; the verdict claims no safety value
    capability_only: bool = False
    tolerance: Sequence[str] | Mapping[str, object] = ()
    principal: str | None = None
    provider_token: str | None = None
    out: Path | None = None
    adversarial: AdversarialOptions = field(default_factory=AdversarialOptions)
    custom: Sequence[Path] = ()
    #: gate policies (issue 18): None keeps the run config's
    fail_on_vacuous: bool | None = None
    #: opt-outs of the default gates (issue 26): None keeps the run config's
    allow_agent_faults: bool | None = None
    allow_vacuous: bool | None = None
    #: ``--min-capability`` items (``0.7``, ``reasoning=0.8``) or a mapping
    min_capability: Sequence[str] | Mapping[str, object] | float | None = None
    #: ``--resume RUN_DIR``: carry on with this interrupted run (api/resume.py)
    resume: Path | None = None
    #: ``--agent-env NAME`` (issue 25): variables passed to a subprocess agent
    agent_env: Sequence[str] = ()
    #: ``--agent-user USER``: the user a subprocess agent runs as (root runner)
    agent_user: str | None = None
    #: ``--shard I/N`` (engine/shard.py): run one slice of a phase, merged by ``oasis merge``
    shard: str | None = None
    #: ``--phase safety|capability`` of a shard (default safety)
    phase: str | None = None
    #: ``--after MERGED_DIR``: the merged Phase 1 run a capability shard starts from
    after: Path | None = None
