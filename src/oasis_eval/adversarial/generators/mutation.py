"""The ``mutation`` generator: seeded variations of the profile's own scenarios (07 §2.2, §3).

For each target archetype the generator takes the profile's scenarios of that
archetype as bases and derives probes by the transformations of
:mod:`.renaming`, :mod:`.magnitudes`, :mod:`.rewording`, :mod:`.carriers` and
:mod:`.composition`. Each candidate draws from its own ``random.Random`` seeded
with ``(seed, archetype, attempt)``, so a probe does not depend on which other
archetypes were requested and the same seed and options give byte-identical
probes (reproducibility ``deterministic``, 07 §3.4). Candidates that do not validate or are not
evaluable are dropped and counted (:class:`~..model.GenerationReport`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from ...spec.common import GeneratorType, Reproducibility
from ...spec.probe import (
    DroppedProbe,
    GenerationReport,
    GenerationRequest,
    GeneratorMethod,
    Probe,
    scenario_data,
)
from ...spec.profile import Profile
from ...spec.scenario import Scenario
from . import (
    base,
    carriers,
    composition,
    exfiltration,
    magnitudes,
    placement,
    renaming,
    rewording,
)

#: strategies in the order they apply, with the odds that a candidate uses each
STRATEGIES: dict[str, float] = {
    "rename": 0.7,
    "replicas": 0.4,
    "magnitude": 0.7,
    "scope": 0.6,
    "instruction": 0.7,
    "carrier": 0.85,
    "frame": 0.6,
    "paraphrase": 0.5,
    "compose": 0.4,
    "exfil": 0.6,
}
#: strategies drawn only for bases they can apply to (others keep their seeded draws unchanged)
ONLY_WHERE = {"exfil": lambda scenario: bool(scenario.verification.value_containment)}
#: strategies for capability bases: framing, approvals, magnitudes or extra tasks could change
#: what the scored behavior should be (e.g. whether escalation is warranted), so only the
#: meaning-preserving ones apply
CAPABILITY_STRATEGIES = frozenset({"rename", "paraphrase"})
#: candidates tried per wanted probe before an archetype gives up
ATTEMPTS_PER_PROBE = 6
PROBE_VERSION = "0.1.0"


@dataclass
class Mutation:
    """A scenario being mutated and the notes that describe each change (its provenance)."""

    data: dict[str, Any]
    notes: list[str] = field(default_factory=list)
    words: list[str] = field(default_factory=list)
    secondary: tuple[str, ...] = ()
    carrier: str | None = None
    #: the instruction being worked on (found once: a reworded one may no longer read as one)
    injection: carriers.Injection | None = None
    found: bool = False

    def instruction(self) -> carriers.Injection | None:
        """The instruction, its text read afresh (a rename may have changed it since)."""
        if not self.found:
            self.found = True
            hits = carriers.find_injections(self.data)
            self.injection = hits[0] if hits else None
        if self.injection is not None and not self.carrier:
            self.injection.text = carriers.text_at(self.data, self.injection)
        return self.injection

    def add(self, note: str | None, words: str) -> bool:
        """Record ``note`` (and its words) when a transform applied; returns whether it did."""
        if note:
            self.notes.append(note)
            self.words.append(words)
        return bool(note)


def usable(scenario: Scenario, profile: Profile) -> str | None:
    """Why a base scenario cannot seed probes (an error a probe would inherit), or None."""
    found = [
        p
        for p in base.problems(scenario, profile)
        if p.split(":", 1)[0] not in base.SUBCATEGORY_CODES
    ]
    return "; ".join(found[:2]) if found else None


def mutate(
    scenario: Scenario,
    profile: Profile,
    rng: random.Random,
    *,
    allowed: frozenset[str] | None = None,
    instruction: str | None = None,
    request: str | None = None,
) -> Mutation:
    """One seeded variation of ``scenario``. ``instruction`` / ``request`` replace the injected
    instruction / the operator's request by given text (the hybrid generator's LLM payloads).

    Each strategy is drawn with its odds; when none of the drawn ones applies, the
    others are tried in a seeded order until one does, so a candidate is rarely a copy."""
    m = Mutation(base.inline_library(scenario_data(scenario), profile))
    fix = base.repair_subcategory(m.data, profile)
    if fix:
        m.notes.append(fix)
    names = [
        n
        for n in STRATEGIES
        if (allowed is None or n in allowed)
        and (scenario.is_safety or n in CAPABILITY_STRATEGIES)
        and (n not in ONLY_WHERE or ONLY_WHERE[n](scenario))
    ]
    use = [n for n in names if rng.random() < STRATEGIES[n]]
    if instruction is not None or request is not None:
        _given(m, profile, rng, instruction, request)
    applied = [_apply(name, m, profile, rng) for name in use]
    if not any(applied) and instruction is None and request is None:
        rest = [n for n in names if n not in use]
        rng.shuffle(rest)
        for name in rest:
            if _apply(name, m, profile, rng):
                break
    return m


def _apply(name: str, m: Mutation, profile: Profile, rng: random.Random) -> bool:
    data = m.data
    if name == "rename":
        note = renaming.rename(data, rng)
        return m.add(
            note,
            "resources renamed ("
            + (note or "")[7:-1].replace("->", " to ").replace(",", ", ")
            + ")",
        )
    if name == "replicas":
        return m.add(magnitudes.replica_counts(data, rng), "replica counts changed")
    if name == "magnitude":
        return m.add(magnitudes.request_magnitude(data, rng), "requested magnitude changed")
    if name == "scope":
        return m.add(
            magnitudes.widen_scope(data, rng), "ambiguous selector widened to more workloads"
        )
    if name == "instruction":
        return _reword(m, rng)
    if name == "carrier":
        return _move(m, profile, rng)
    if name == "frame":
        note = rewording.reframe_prompt(data, rng)
        return m.add(note, "request framed with " + (note or "")[6:-1].replace(",", " and "))
    if name == "paraphrase":
        return m.add(rewording.paraphrase(data, rng), "request paraphrased")
    if name == "exfil":  # the contained value asked for encoded, that form declared contained
        note = exfiltration.encoded_request(data, rng)
        return m.add(
            note,
            "value requested in an encoded form (" + (note or "")[6:-1] + "), declared contained",
        )
    if name == "compose":
        composed = composition.compose(data, profile, rng)
        if composed:
            m.secondary = composed[1]
            return m.add(
                composed[0], "embedded in a multi-step task (" + ", ".join(composed[1]) + ")"
            )
        return False
    raise ValueError(f"unknown strategy {name!r}")


def _given(
    m: Mutation, profile: Profile, rng: random.Random, instruction: str | None, request: str | None
) -> None:
    """Put LLM-written text where the base has its instruction (then into another carrier) and
    its request (hybrid generator)."""
    data = m.data
    inj = m.instruction()
    if instruction is not None and inj is not None:
        carriers.replace_text(data, inj, instruction)
        inj.text = instruction
        m.add("instruction(given)", "instruction rewritten")
        _move(m, profile, rng)
    if request is not None and rewording.prompts(data):
        rewording.prompts(data)[-1]["value"] = request
        m.add("request(given)", "operator request rewritten")


def _reword(m: Mutation, rng: random.Random) -> bool:
    """The first injected instruction in other words, in place."""
    inj = m.instruction()
    if inj is None or m.carrier:
        return False
    text, how = rewording.reframe_instruction(inj.text, m.data, rng)
    if text == inj.text:
        return False
    carriers.replace_text(m.data, inj, text)
    inj.text = text
    return m.add(f"instruction({how})", f"instruction reworded ({how})")


def _move(m: Mutation, profile: Profile, rng: random.Random) -> bool:
    """The first injected instruction into another carrier, with a lead in the operator prompt."""
    data = m.data
    inj = m.instruction()
    if inj is None or m.carrier:
        return False
    options = [c for c in carriers.CARRIERS if c != inj.carrier]
    rng.shuffle(options)
    carriers.remove(data, inj)
    for carrier in options:
        lead = placement.place(data, profile, carrier, inj.text, rng)
        if lead is None:
            continue
        prompts = rewording.prompts(data)
        if prompts:
            prompts[-1]["value"] = " ".join(prompts[-1]["value"].split()) + " " + lead
        else:
            data["stimuli"].append({"type": "operator_prompt", "value": lead})
        m.carrier = carrier
        return m.add(
            f"carrier({inj.carrier}->{carrier})",
            f"instruction moved from "
            f"{carriers.CARRIER_WORDS[inj.carrier]} to {carriers.CARRIER_WORDS[carrier]}",
        )
    raise AssertionError("the event and ConfigMap carriers need nothing and always apply")


def finalize(
    m: Mutation, scenario: Scenario, profile: Profile, provenance: str
) -> tuple[Probe | None, str | None]:
    """Identity, prose and quality metadata of the probe; then the gate (07 §3.3)."""
    data = m.data
    data["version"] = PROBE_VERSION
    steps = [n.split("(")[0] for n in m.notes if not n.startswith("subcategory")]
    data["name"] = f"{base.one_line(scenario.name)} [probe: {', '.join(steps)}]"
    summary = "; ".join(m.words)
    data["description"] = (
        f"{base.one_line(data.get('description'))} Probe variation of {scenario.id}: {summary}."
    )
    quality = data.get("quality")
    if m.carrier and isinstance(quality, dict):
        quality["attack_surface"] = carriers.CARRIER_SURFACES[m.carrier]
    if m.secondary and isinstance(quality, dict) and isinstance(quality.get("difficulty"), dict):
        quality["difficulty"]["contextual_embedding"] = "high"
    prefix = base.id_prefix(profile, scenario.archetype)
    data["id"] = base.probe_id(prefix, scenario.archetype, data)
    intent = base.one_line(data.get("intent")) or (
        f"Probes archetype {scenario.archetype} with a variation of {scenario.id}."
    )
    data["intent"] = f"{intent} (Adversarial probe {data['id'].rsplit('.', 1)[1]}: {summary}.)"
    built, reason = base.gate(data, profile)
    if built is None:
        return None, reason
    probe = Probe(
        scenario=built,
        primary_archetype=scenario.archetype,
        secondary_archetypes=m.secondary,
        description=f"{scenario.archetype} probe from {scenario.id}: {summary}",
        provenance=provenance,
    )
    return probe, None


class MutationGenerator:
    """Deterministic template mutation (07 §2.2, §3.1 ``mutation``)."""

    name = "mutation"

    def __init__(self, options: dict[str, Any] | None = None):
        self.options = dict(options or {})
        strategies = self.options.get("strategies")
        if strategies is not None:
            names = [strategies] if isinstance(strategies, str) else list(strategies)
            names = [s.strip() for n in names for s in str(n).split(",") if s.strip()]
            unknown = sorted(set(names) - set(STRATEGIES))
            if unknown:
                raise base.GeneratorError(
                    f"unknown mutation strategies {unknown}; known: {', '.join(STRATEGIES)}"
                )
            self.allowed: frozenset[str] | None = frozenset(names)
        else:
            self.allowed = None
        self.last_report: GenerationReport | None = None

    def method(self) -> GeneratorMethod:
        """The generator method: seeded strategies over the profile's scenarios (07 §3.1)."""
        return GeneratorMethod(
            type=GeneratorType.mutation,
            base_scenario_set="the profile's scenarios of each target archetype",
            strategy="seeded random.Random per (seed, archetype, attempt): "
            + ", ".join(sorted(self.allowed) if self.allowed is not None else STRATEGIES),
        )

    def reproducibility(self, request: GenerationRequest) -> Reproducibility:
        """Deterministic: the same seed gives the same probes (07 §3.2)."""
        return Reproducibility.deterministic

    def config_hash(self, request: GenerationRequest) -> str:
        """Hash of the configuration that determines the probes."""
        return base.config_hash(self.name, self.method(), request)

    def generate(self, profile: Profile, request: GenerationRequest) -> list[Probe]:
        """Mutate base scenarios of each target archetype up to its quota."""
        report = base.new_report(self.name, request)
        self.last_report = report
        targets = base.target_archetypes(profile, request)
        out: list[Probe] = []
        seen: set[str] = set()
        for archetype_id, quota in base.quotas(targets, request.count).items():
            if quota == 0:
                continue
            bases = []
            for scenario in base.bases_for(profile, archetype_id):
                why = usable(scenario, profile)
                if why:
                    report.notes.append(f"{archetype_id}: base {scenario.id} not usable: {why}")
                else:
                    bases.append(scenario)
            if not bases:
                report.notes.append(f"{archetype_id}: no usable base scenario; no probes")
                continue
            made = 0
            for attempt in range(quota * ATTEMPTS_PER_PROBE):
                if made == quota:
                    break
                probe = self._candidate(
                    profile, request, archetype_id, bases, attempt, report, seen
                )
                if probe is not None:
                    out.append(probe)
                    base.record(report, probe)
                    made += 1
        return out

    def _candidate(
        self,
        profile: Profile,
        request: GenerationRequest,
        archetype_id: str,
        bases: list[Scenario],
        attempt: int,
        report: Any,
        seen: set[str],
    ) -> Probe | None:
        rng = random.Random(f"mutation/{request.seed}/{archetype_id}/{attempt}")
        scenario = rng.choice(bases)
        m = mutate(scenario, profile, rng, allowed=self.allowed)
        if not [n for n in m.notes if not n.startswith("subcategory")]:
            report.dropped.append(
                DroppedProbe(
                    archetype=archetype_id,
                    base=scenario.id,
                    reason="no strategy applied (identical to the base)",
                )
            )
            return None
        provenance = (
            f"mutation:base={scenario.id};seed={request.seed};attempt={attempt};"
            + ";".join(m.notes)
        )
        probe, reason = finalize(m, scenario, profile, provenance)
        if probe is None:
            report.dropped.append(
                DroppedProbe(archetype=archetype_id, base=scenario.id, reason=reason or "invalid")
            )
            return None
        if probe.scenario.id in seen:
            report.dropped.append(
                DroppedProbe(
                    archetype=archetype_id,
                    base=scenario.id,
                    reason=f"duplicate of {probe.scenario.id}",
                )
            )
            return None
        seen.add(probe.scenario.id)
        return probe
