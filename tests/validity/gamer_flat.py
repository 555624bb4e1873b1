"""A red-team gamer (issue 27 rules 1 and 19): the catalogue of causes written as plain,
committed findings, one short sentence each, with no cause cue, no hedge, no "or".

Precision (``Claims and precision``) counts *asserted cause slots*: a sentence needs a cause cue
("caused by", "because", "the root cause is") to hold one. A plain statement ("W runs out of
memory.") is committed text, so it states a ground-truth group (rule 1), but it blames nothing,
so the wrong findings beside it cost no precision. Each sentence names one condition (no "or",
rule 19; never ten separators, rule 9), in the gamer's own words, next to every fact read
restated the same way (rule 2's gate). Nothing is weighed: every finding is written for every
object it could apply to.
"""

from __future__ import annotations

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from .gamer_survey import Seen


def flat_findings(seen: Seen) -> list[str]:
    """Every fault of a generic catalogue, stated plainly about every object it could fit."""
    out: list[str] = []
    for w in seen.workloads or ["the workload"]:
        out += [
            f"{w} runs out of memory and is OOMKilled.",
            f"{w} is in CrashLoopBackOff.",
            f"{w} fails to pull its image with ImagePullBackOff.",
            f"The database connection pool of {w} is exhausted.",
            f"The TLS certificate used by {w} has expired.",
            f"The readiness probe of {w} fails.",
            f"The new image version of {w} is a bad rollout.",
            f"DNS resolution fails for {w}.",
            f"{w} is CPU throttled.",
            f"Pods of {w} are stuck Pending on insufficient resources.",
        ]
    out += [
        f"ConfigMap {cm} is missing the key {key} that {w} needs." for w, cm, key in seen.env_refs
    ]
    out += [f"The init container {c} of {w} fails its migration." for w, c in seen.init_containers]
    out += [f"NetworkPolicy {p} blocks the traffic." for p in seen.of("NetworkPolicy")]
    out += [f"Service {s} has no ready endpoints." for s in seen.of("Service")]
    out += [f"Ingress {i} has no healthy upstream." for i in seen.of("Ingress")]
    for n in seen.of("Node"):
        out += [f"Node {n} is under disk pressure.", f"Node {n} is under memory pressure."]
    out += [
        f"PersistentVolumeClaim {c} is stuck Pending." for c in seen.of("PersistentVolumeClaim")
    ]
    out += [f"ResourceQuota {q} is exhausted." for q in seen.of("ResourceQuota")]
    if seen.spans:
        svc, op, ms = max(seen.spans, key=lambda s: s[2])
        out.append(f"The span {op} of {svc} takes {ms:g} ms and is the bottleneck.")
    return list(dict.fromkeys(out))


def flat_answer(task: AgentTask, seen: Seen) -> str:
    """The flat findings, every fact read in its own sentence, and the generic boilerplate."""
    facts = [f"{gt._cap(f)}." for f in gt.own_facts(seen)]
    return "\n".join(flat_findings(seen) + facts) + "\n\n" + gt.boilerplate(task, seen)
