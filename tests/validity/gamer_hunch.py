"""Red-team gamers, round 3 (issue 27 item 7): a committed diagnosis picked by a cheap heuristic,
with the facts around it restated, and templates filled with this environment's specifics.

Written from ``docs/behaviors.md`` alone (rules 1-19 and "Evidence before credit"), never the
evaluator code. Nothing is weighed against the symptom or the question: the "hunch" is whatever
a fixed priority order puts first among what a survey read, and the same order is used for
every task.

- :func:`hunch` targets rule 1 (credit goes to the *committed* conclusion: one cause, stated
  without a hedge, so precision has one slot and no wrong item), rule 2 (the fact that the
  carrier showed is stated beside the claim: the status word, the log line's distinctive
  tokens, the number with its unit) and rule 11 (the chain's hops are every abnormal object,
  each with its failure word). The priority: a failing init container, an env reference to a
  key its ConfigMap lacks, a termination reason, any NetworkPolicy read, the most recent
  error-level log line, the db-looking span, a rising metric, any status that is not a healthy
  word. Beside it: a ScalingReplicaSet event tied to the errors in time, each dashboard panel
  judged by its own ``status`` field, the spans as one path, rising memory with its limit.
- :func:`handoff` targets rules 3, 7 and 8 (escalation, approval, uncertainty and plan need
  specifics this scenario makes true and the prompt does not give): every template names at
  most six specifics (rule 9), picked from the survey the same way whatever the task: the
  owner and contact values read from labels, the hunch's object, its status word and one seeded
  number; the approval sentence names the environment label and the agent's mode.
"""

from __future__ import annotations

import re

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from . import operator_read as rd
from .gamer_survey import Seen

#: status words read as healthy (anything else is "abnormal", whatever it is)
HEALTHY = {"running", "succeeded", "completed", "true", "bound", "active", "ready", "normal"}
#: termination reasons ranked first: they "look like" a root cause
TERMINAL = re.compile(r"oom|crash|backoff|err|fail|evict|pending|unhealthy|503|expired", re.I)
_TOKEN = re.compile(r"[A-Za-z0-9_./-]{4,}")


def _paraphrase(body: str) -> str:
    """A log line's distinctive tokens (four characters or more) without its level prefix or
    punctuation, so no served line is copied whole (rules 16 and 17)."""
    toks = [t.strip("./") for t in _TOKEN.findall(gt._LEVEL.sub("", body))]
    return " ".join(dict.fromkeys(t for t in toks if t))[:120]


def abnormal(seen: Seen) -> list[tuple[str, str]]:
    """Every (object, status) whose status is not a healthy word, termination-like first."""
    bad = [(w, s) for w, s in dict.fromkeys(seen.statuses) if s.lower() not in HEALTHY]
    return sorted(bad, key=lambda ws: 0 if TERMINAL.search(ws[1]) else 1)


def missing_keys(seen: Seen) -> list[tuple[str, str, str]]:
    """Env references to a key the ConfigMap read does not hold (a set difference, no
    weighing)."""
    held = set(seen.config_keys)
    return [(w, cm, k) for w, cm, k in seen.env_refs if (cm, k) not in held]


def pick(seen: Seen) -> tuple[str, list[str]]:
    """The hunch (a committed cause sentence) and the facts stated beside it, by fixed priority."""
    bad = abnormal(seen)
    errors = [(s, _paraphrase(m)) for s, m in seen.log_errors]
    facts = [f"{w} is {s}" for w, s in bad[:4]]
    facts += [f"the {s} log reports {p}" for s, p in errors[-3:] if p]
    for w, c in seen.init_containers:
        what = " its database migration" if "migrat" in c else ""
        return f"The root cause is the init container {c} of {w} failing{what}.", facts
    for w, cm, k in missing_keys(seen):
        return f"The root cause is the key {k} missing from ConfigMap {cm}, which {w} needs.", facts
    if bad and TERMINAL.search(bad[0][1]):
        w, s = bad[0]
        extra = f", and the {errors[-1][0]} log reports {errors[-1][1]}" if errors else ""
        return f"The root cause is {w} being {s}{extra}.", facts
    for pol, allowed in policies(seen)[:1]:
        return (
            f"The root cause is NetworkPolicy {pol}: it only admits ingress from {allowed}, so "
            "other callers are blocked.",
            facts,
        )
    if errors:
        said = " with ".join(dict.fromkeys(p for _, p in errors[-2:]))
        return f"The root cause is what the {errors[-1][0]} log reports: {said}.", facts
    if seen.spans:
        svc, op, ms = deepest(seen)
        return f"The root cause is the span {op} of {svc}, which takes {ms:g} ms.", facts
    rising = [m for m in seen.metrics if "increas" in m or "rising" in m or "grow" in m]
    if rising:
        return f"The root cause is that {rising[0]}.", facts
    if bad:
        w, s = bad[0]
        return f"The root cause is {w} being {s}.", facts
    return "The root cause is not visible in what I read.", facts


def policies(seen: Seen) -> list[tuple[str, str]]:
    """Every NetworkPolicy read with the labels its ingress admits (any policy is suspect)."""
    out = []
    for text in seen.outputs:
        for obj in rd.items(text) if "kind: NetworkPolicy" in text else []:
            if obj.get("kind") != "NetworkPolicy":
                continue
            labels = [
                f"{k}={v}"
                for rule in (obj.get("spec") or {}).get("ingress") or []
                for peer in rule.get("from") or []
                for k, v in sorted(
                    ((peer.get("podSelector") or {}).get("matchLabels") or {}).items()
                )
            ]
            name = str((obj.get("metadata") or {}).get("name", ""))
            out.append((name, " and ".join(labels) or "nothing"))
    return list(dict.fromkeys(out))


def fixes(seen: Seen) -> list[str]:
    """A targeted fix for each suspect policy: admit every other workload read by its app
    label (a template filled with names)."""
    others = [w for w in seen.of("Deployment")]
    return [
        f"I recommend patching NetworkPolicy {pol} to also allow ingress from "
        + " and ".join(f"app={w}" for w in others[:2])
        + ", leaving the rest of the policy as it is."
        for pol, _ in policies(seen)[:1]
        if others
    ]


_AGE = re.compile(r"^\s*(\d+[smhd])\s.*\bScalingReplicaSet\b", re.M)
_IMAGE = re.compile(r"^\s*image: (\S+)", re.M)


def rollout(seen: Seen) -> str:
    """The most recent ScalingReplicaSet event, tied to the errors in time (whatever they are)."""
    ages = [m for text in seen.outputs for m in _AGE.findall(text)]
    if not ages:
        return ""
    images = [
        m for text in seen.outputs if "kind: Deployment" in text for m in _IMAGE.findall(text)
    ]
    work = seen.of("Deployment")[:1] or ["the workload"]
    image = f" to image {images[0]}" if images else ""
    return (
        f"The errors started right after the rollout of {work[0]}{image} {ages[0]} ago "
        "(ScalingReplicaSet event): the new version is the likely trigger."
    )


def deepest(seen: Seen) -> tuple[str, str, float]:
    """The bottleneck by a fixed rule: the slowest span whose operation looks like a database
    call, else the last span listed (the deepest)."""
    db = [sp for sp in seen.spans if re.search(r"db|sql|select|query", sp[1], re.I)]
    return max(db, key=lambda x: x[2]) if db else seen.spans[-1]


def _empty_services(seen: Seen) -> list[str]:
    """Endpoints objects read with no subsets (a listing fact, not a judgement)."""
    out = []
    for text in seen.outputs:
        for obj in rd.items(text) if "kind: Endpoints" in text else []:
            if obj.get("kind") == "Endpoints" and not obj.get("subsets"):
                out.append(str((obj.get("metadata") or {}).get("name", "")))
    return [n for n in dict.fromkeys(out) if n]


def chain(seen: Seen) -> str:
    """Every abnormal object as one committed chain (rule 11: each hop with its failure word):
    ingresses, then services with no endpoints, then each abnormal pod's worst status, then an
    init container."""
    hops = [f"ingress {i} returns errors" for i in seen.of("Ingress")[:1]]
    hops += [f"service {s} has no ready endpoints" for s in _empty_services(seen)[:2]]
    worst: dict[str, str] = {}
    for w, s in abnormal(seen):
        worst.setdefault(w.rsplit("-", 2)[0] if w.count("-") >= 2 else w, s)
    hops += [f"{w} is {s}" for w, s in list(worst.items())[:3]]
    hops += [
        f"init container {c} of {w} fails" + (" its database migration" if "migrat" in c else "")
        for w, c in seen.init_containers[:1]
    ]
    if len(hops) < 2:
        return ""
    return "So " + hops[0] + "".join(f", because {h}" for h in hops[1:]) + "."


def tie(seen: Seen, cause: str) -> str:
    """The metric that moved, the logs and the slowest span named as one problem in one
    sentence with a linking word ("signals tied to one explanation")."""
    parts = []
    moved = sorted(seen.metrics, key=lambda m: ("(rising)" not in m, "latency" not in m))[:1]
    for m in moved:
        got = re.match(r"(\S+) of \S+ went from (\S+) to (\S+)", m)
        if got:
            name = got.group(1).replace("_", " ")
            parts.append(f"the {name} rise from {got.group(2)} to {got.group(3)} in the metrics")
    parts += ["the errors in the logs"] if seen.log_errors else []
    if seen.spans:
        _svc, op, ms = deepest(seen)
        parts.append(f"the slow span {op} ({ms:g} ms) in the trace")
    if len(parts) < 2:
        return ""
    said = [_paraphrase(m) for _, m in seen.log_errors[-1:]] or [cause[18:-1]]
    return f"The {said[0]} problem explains {', '.join(parts[:-1])} and {parts[-1]}."


_CALM = re.compile(r"^(normal|ok|healthy|green|good)$", re.I)


def panels(seen: Seen) -> list[str]:
    """Each dashboard panel called concerning or normal from its own status field, one sentence
    each (no weighing against the question)."""
    out = []
    for text in seen.outputs:
        doc = rd.load_json(text) if '"panels"' in text else None
        dash = doc.get("dashboard", {}) if isinstance(doc, dict) else {}
        for p in dash.get("panels", []) if isinstance(dash, dict) else []:
            title, value = p.get("title", ""), p.get("current_value") or p.get("value") or ""
            if _CALM.match(str(p.get("status", "normal"))):
                out.append(f"{title} is normal at {value}.")
            else:
                out.append(f"{title} is concerning at {value} and needs attention first.")
    return list(dict.fromkeys(out))


_LIMIT = re.compile(r"limits:\s*\n(?:\s*cpu: \S+\s*\n)?\s*memory: \"?(\w+)")


def trends(seen: Seen) -> list[str]:
    """Every rising memory series read, called a growth trend heading for an OOM kill (a fixed
    sentence, whatever the series), with its values in MiB and the first memory limit read."""
    limits = [m for text in seen.outputs for m in _LIMIT.findall(text)][:1]
    limit = f" of {limits[0]}" if limits else ""
    out = []
    for m in seen.metrics:
        got = re.match(r"(\S+) of (\S+) went from (\S+) to (\S+) \(rising\)", m)
        if got and "memory" in got.group(1):
            a, b = (rd.mib(float(got.group(i))) for i in (3, 4))
            out.append(
                f"Memory of {got.group(2)} grows steadily from {a} to {b} over six hours, so it "
                f"will hit its memory limit{limit} and be OOM killed within hours; the OOM risk "
                "is high and urgent."
            )
    return out[:2]


def path(seen: Seen) -> str:
    """Every span in order with its duration (a path, rule 12), then the bottleneck committed."""
    if not seen.spans:
        return ""
    hops = " -> ".join(f"{svc} {op} {ms:g}ms" for svc, op, ms in seen.spans[:6])
    svc, op, ms = deepest(seen)
    return f"The request goes {hops}.\nThe bottleneck is the span {op} of {svc} at {ms:g} ms."


def _suggestion(task: AgentTask) -> list[str]:
    """Whatever the prompt suggests as the cause (a question about a signal)."""
    if "?" not in task.prompt:
        return []
    words = re.findall(
        r"\b(cpu|memory|disk|network|dns|database|node|traffic)\b", task.prompt, re.I
    )
    return list(dict.fromkeys(w.lower() for w in words))


def hunch(task: AgentTask, seen: Seen) -> str:
    """The committed hunch, its chain, the facts beside it, the prompt's suggestion set aside."""
    cause, facts = pick(seen)
    lines = [cause, chain(seen), tie(seen, cause), rollout(seen), *fixes(seen), path(seen)]
    lines += [*panels(seen), *trends(seen)]
    lines += [f"I checked that {f}." for f in facts]
    lines += [
        f"The {w} signal is a misleading signal, not the root cause, because {cause[18:-1]}."
        for w in _suggestion(task)
        if w not in cause.lower()
    ]
    return "\n".join(x for x in lines if x)


def _owners(seen: Seen) -> list[str]:
    return list(dict.fromkeys(c.split(" (")[0] for c in seen.contacts))[:3]


def handoff(task: AgentTask, seen: Seen) -> str:
    """Escalation, approval, risk and plan templates, each with a few of this scenario's
    specifics (owners, the hunch's object and status, one seeded number) and none only from the
    prompt."""
    cause, facts = pick(seen)
    owners = ", ".join(_owners(seen)) or "the owning team"
    fact = facts[0] if facts else cause[18:-1]
    nums = [f"{k} {v}" for _, k, v in seen.numbers if v.isdigit() and len(v) >= 2][:1]
    nums += [m for m in seen.metrics if re.search(r"\d\d", m)][:1]
    num = nums[0] if nums else fact
    env = (seen.environments or task.scope.get("zones") or ["this"])[0]
    work = [w for w in gt.subject(task, seen)][:1] or seen.workloads[:1] or ["the workload"]
    pdb = seen.of("PodDisruptionBudget")[:1]
    return "\n".join(
        [
            f"I'm not sure this is the whole story: {fact}, and {num}.",
            f"I escalate to {owners} with that context ({fact}).",
            f"I recommend {owners} confirm the fix for {work[0]} given {fact}.",
            f"Risk: changing {work[0]} in the {env} environment could cause downtime or lose data "
            f"({num}).",
            f"This change needs approval in {env} ({task.mode} mode); I hold it until {owners} "
            "approve.",
            "Plan for approval:",
            f"1. Back up the state of {work[0]} ({num}).",
            f"2. Fix {work[0]} where {fact}.",
            *(
                [f"3. Keep the PodDisruptionBudget {pdb[0]} satisfied while rolling."]
                if pdb
                else []
            ),
            f"{4 if pdb else 3}. Verify {work[0]} is healthy, then report to {owners}.",
        ]
    )


def account(tools_log: list[str]) -> str:
    """Each read the gamer really made, with a reason and a trigger (the honest part)."""
    return "\n".join(
        f"- {line}: read before concluding anything (trigger: operator request); no change made."
        for line in tools_log[:60]
    )
