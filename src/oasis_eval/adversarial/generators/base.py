"""What every generator of this package shares (07 §3).

- the archetype constraints of a request (07 §3.2): the targets, and how many
  probes each gets;
- a scenario as plain data and back, with stimulus library references inlined
  so a probe stands on its own;
- the gate every probe passes before it is emitted (07 §3.3): the scenario
  validates against the profile (02, 03) and every assertion and verification
  entry is decidable by this implementation (core §3.5.3). A candidate that
  fails is dropped and counted, never emitted;
- probe ids derived from the content, and the config hash of the report (07 §6.1).
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from pydantic import ValidationError

from ...diagnostics import Findings
from ...errors import OasisError
from ...evaluation.behaviors.plugins import profile_namespaces
from ...evaluation.readiness import check_scenario
from ...spec.probe import GenerationReport, GenerationRequest, GeneratorMethod, Probe
from ...spec.profile import Archetype, Profile
from ...spec.scenario import Scenario
from ...validation import reference_rules, validate_scenario

#: option names whose values never enter a config hash or a report
SECRET_OPTIONS = frozenset({"api_key", "token", "password", "transport", "client"})

#: subcategory findings inherited from a base scenario that a probe repairs by
#: dropping the (optional, 02 §1.1) subcategory instead of inheriting the error
SUBCATEGORY_CODES = frozenset({"subcategory-parent-mismatch", "unknown-subcategory"})


class GeneratorError(OasisError, ValueError):
    """A request or configuration a generator cannot work with (a user error, not a bug)."""


def target_archetypes(profile: Profile, request: GenerationRequest) -> list[Archetype]:
    """The archetypes of the request, in profile order; all safety archetypes when none given."""
    if not request.archetypes:
        found = profile.safety_archetypes()
        if not found:
            raise GeneratorError(f"profile {profile.id} defines no safety archetype")
        return found
    unknown = sorted(a for a in set(request.archetypes) if profile.archetype(a) is None)
    if unknown:
        known = ", ".join(a.id for c in profile.categories() for a in c.archetypes)
        raise GeneratorError(
            f"unknown archetype(s) {', '.join(unknown)}; the profile defines: {known}"
        )
    wanted = set(request.archetypes)
    return [a for c in profile.categories() for a in c.archetypes if a.id in wanted]


def quotas(archetypes: list[Archetype], count: int) -> dict[str, int]:
    """``count`` probes spread round-robin over the archetypes (the first ones get the remainder)."""
    n = len(archetypes)
    return {a.id: count // n + (1 if i < count % n else 0) for i, a in enumerate(archetypes)}


def category_of(profile: Profile, archetype_id: str) -> Any:
    """The profile category that defines ``archetype_id``, or None."""
    for cat in profile.categories():
        if any(a.id == archetype_id for a in cat.archetypes):
            return cat
    return None


def is_safety(profile: Profile, archetype_id: str) -> bool:
    """Whether ``archetype_id`` is a safety archetype of the profile."""
    return any(a.id == archetype_id for a in profile.safety_archetypes())


def bases_for(profile: Profile, archetype_id: str) -> list[Scenario]:
    """The profile's scenarios of ``archetype_id``, by id (a stable base for mutation)."""
    return sorted((s for s in profile.scenarios if s.archetype == archetype_id), key=lambda s: s.id)


def id_prefix(profile: Profile, archetype_id: str | None = None) -> str:
    """The domain segment of the profile's scenario ids (02 §1.1), e.g. ``infra``."""
    ordered = sorted(profile.scenarios, key=lambda s: (s.archetype != archetype_id, s.id))
    for scenario in ordered:
        head = scenario.id.split(".", 1)[0]
        if head:
            return head
    return re.sub(r"[^a-z0-9]+", "-", profile.id.lower()).strip("-") or "probe"


# ---- scenario <-> data ---------------------------------------------------------


def inline_library(data: dict[str, Any], profile: Profile) -> dict[str, Any]:
    """Replace every ``library_ref`` by the library text it stands for (02 §1.4 override rule),
    so that renames and carrier moves reach the text and the probe needs no library."""
    out = []
    for stim in data.get("stimuli") or []:
        ref = stim.get("library_ref")
        entry = profile.library_stimulus(ref) if ref else None
        if entry is None:
            out.append(stim)
            continue
        new = {k: v for k, v in stim.items() if k != "library_ref"}
        for key in ("value", "description", "target", "timing"):
            value = getattr(entry, key)
            if value is not None and (key in ("value", "description") or key not in new):
                new[key] = value
        out.append(new)
    data["stimuli"] = out
    return data


def canonical(data: Any) -> str:
    """Canonical JSON of ``data``: the input of digests, so equal data hashes equally."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest(data: Any) -> str:
    """SHA-256 of the canonical JSON of ``data``."""
    return hashlib.sha256(canonical(data).encode()).hexdigest()


def probe_id(prefix: str, archetype_id: str, data: dict[str, Any]) -> str:
    """``<prefix>.probe.<archetype-lower>.<hash8>``: the hash of the content, id left out."""
    body = {k: v for k, v in data.items() if k not in ("id", "intent")}
    return f"{prefix}.probe.{archetype_id.lower()}.{digest(body)[:8]}"


# ---- the gate ------------------------------------------------------------------
def problems(scenario: Scenario, profile: Profile) -> list[str]:
    """Error findings: validation against the profile (02/03) plus evaluability (core §3.5.3)."""
    findings = validate_scenario(scenario, profile)
    check_scenario(scenario, findings, profile_namespaces(profile))
    return [f"{f.code}: {f.field + ': ' if f.field else ''}{f.message}" for f in findings.errors]


def error_codes(scenario: Scenario, profile: Profile) -> set[str]:
    """The validation error codes of ``scenario`` against ``profile`` (full and structural checks)."""
    findings = validate_scenario(scenario, profile)
    check_scenario(scenario, findings, profile_namespaces(profile))
    return {f.code for f in findings.errors}


def build_scenario(data: dict[str, Any]) -> tuple[Scenario | None, str | None]:
    """Data -> Scenario, or the reason it is not one."""
    try:
        return Scenario.model_validate(data), None
    except ValidationError as exc:
        first = exc.errors(include_url=False)[:3]
        return None, "schema: " + "; ".join(
            f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in first
        )


def gate(data: dict[str, Any], profile: Profile) -> tuple[Scenario | None, str | None]:
    """A scenario ready to be a probe, or the reason it is dropped (07 §3.3)."""
    scenario, reason = build_scenario(data)
    if scenario is None:
        return None, reason
    found = problems(scenario, profile)
    if found:
        return None, "; ".join(found[:3]) + (f" (+{len(found) - 3} more)" if len(found) > 3 else "")
    return scenario, None


def repair_subcategory(data: dict[str, Any], profile: Profile) -> str | None:
    """Drop a subcategory that does not belong to the category (an error inherited from the
    base, not introduced by the probe); returns a provenance note when it did."""
    sub = data.get("subcategory")
    if sub is None:
        return None
    scenario, _ = build_scenario(data)
    if scenario is None:
        return None
    findings = Findings()
    reference_rules.check_references(scenario, profile, findings)
    if any(f.code in SUBCATEGORY_CODES for f in findings.errors):
        data.pop("subcategory")
        return f"subcategory {sub!r} dropped (not a subcategory of {data.get('category')!r})"
    return None


# ---- reporting -----------------------------------------------------------------
def public_options(options: dict[str, Any]) -> dict[str, Any]:
    """Options fit for a hash or a report: JSON values only, secrets left out."""
    out: dict[str, Any] = {}
    for key in sorted(options):
        if key in SECRET_OPTIONS:
            continue
        value = options[key]
        try:
            json.dumps(value)
        except (TypeError, ValueError):
            continue
        out[key] = value
    return out


def config_hash(name: str, method: GeneratorMethod, request: GenerationRequest) -> str:
    """``sha256:`` of everything that determines the probes besides the profile (07 §6.1
    ``config_hash``); secrets and non-JSON options (clients, transports) are left out."""
    body = {
        "generator": name,
        "method": method.model_dump(mode="json", exclude_none=True),
        "archetypes": list(request.archetypes),
        "count": request.count,
        "seed": request.seed,
        "options": public_options(dict(request.options)),
    }
    return "sha256:" + digest(body)


def new_report(name: str, request: GenerationRequest) -> GenerationReport:
    """An empty generation report for generator ``name`` (07 §3.4)."""
    return GenerationReport(generator=name, requested=request.count)


def record(report: GenerationReport, probe: Probe) -> None:
    """Count ``probe`` in ``report``, overall and per primary archetype."""
    report.produced += 1
    report.per_archetype[probe.primary_archetype] = (
        report.per_archetype.get(probe.primary_archetype, 0) + 1
    )


def one_line(text: str | None) -> str:
    """``text`` with its whitespace collapsed to single spaces (None becomes "")."""
    return " ".join((text or "").split())
