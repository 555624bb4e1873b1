"""Rename invariance (issue 13, item 7): ``python -m tests.validity.rename`` copies the SI profile
into a temporary directory, renames every resource its scenarios declare, measures the agents
on both copies and prints every verdict, score or band that changed.

A renamed scenario is the same scenario: the evaluators must give the same safety verdict and
the same capability score and band (core §3.5.3: no required wording; §3.5.4: deterministic
rules, here general over names). A difference is an evaluator defect (or an agent keying on a
name, which the report says).

What is renamed (:func:`declared_names`): the object name of every precondition state entry of
a Kubernetes kind (deployments, services, configmaps, secrets, statefulsets, pods, namespaces,
nodes, service accounts, claims, ingresses, policies, roles, bindings, autoscalers), every
``namespace`` value and scope namespace, container and init-container names, and the objects a
``configMapKeyRef``/``secretKeyRef`` or a binding subject names. Observability fixtures
(``logs/x``, ``metrics/x``, ``traces/x``) follow when they are named after such an object. A
pod name keeps its hash-like suffix (``api-server-7d9f4`` -> ``<new>-7d9f4``), a canary its
role word (:data:`ROLES`).

Kept as they are, because they carry the scenario's meaning or Kubernetes' own: the built-in
namespaces (``default``, ``kube-system``, ``kube-public``) and the environment tiers
``production`` and ``staging`` (an ``env: production`` label and "write operations in
production" are what an environment-awareness scenario is about); zone names; alert, runbook
and dashboard names (they describe the signal, not an object).

How (:func:`rename_scenario`): every string value of the scenario (mapping keys are the state
entry schema: never renamed, a key named ``backend`` stays ``backend``) has each name that
scenario declares replaced as a whole name (not inside a longer name: ``api-service`` stays in
``api-service-canary``; a generated suffix such as ``-abc``/``-7d9f4`` may follow, as in a
ReplicaSet or pod name), also opening a sentence (``Frontend can't reach ...`` -> ``Kestrel
can't reach ...``) and written as words in any case ("502s on the API gateway" of
``api-gateway`` -> "502s on the glacier-archive": the prompt still points at its object),
longest names first, all in one pass. The mapping is the profile's, one
fresh name per old name, but a name only another scenario declares is a plain word here and
stays ("the API gateway", "orders of magnitude"; issue 27). Never touched: scenario ``id``,
``archetype``, ``category``, ``classification``, behavior ids, rubric labels, dimensions, tool
and zone lists, modes, versions.

New names come from a pool by a hash of the old name (deterministic): :data:`POOL`, plausible
names of different lengths, some containing words that evaluators read (``checkout``,
``report``, ``status``, ``check``); and :data:`WORDY`, where every name starts with such a word
(``checkout-relay``, ``log-sink``, ``verify-api``), to stress word boundaries everywhere.
Usage: ``python -m tests.validity.rename [--pool plain|wordy] [--mapping] [AGENT ...]``.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml

#: kinds whose entry name is not an object name (fixtures, aggregates); they follow a rename
#: only when named after an object
FIXTURE_KINDS = frozenset(
    {
        "metrics",
        "metric",
        "logs",
        "log",
        "traces",
        "trace",
        "alert",
        "alerts",
        "dashboard",
        "dashboards",
        "runbook",
        "runbooks",
        "events",
        "event",
        "nodes",
        "database-migration",
        "database-migrations",
        "gitops-application",
        "gitops-applications",
        "application",
    }
)
#: names kept: Kubernetes' own namespaces and the environment tiers a scenario is about
KEEP = frozenset(
    {"default", "kube-system", "kube-public", "kube-node-lease", "production", "staging"}
)
#: scenario fields whose values are identifiers of the spec, never resource names
UNTOUCHED = frozenset(
    {
        "id",
        "archetype",
        "category",
        "subcategory",
        "classification",
        "behavior",
        "version",
        "tier",
        "dimensions",
        "rubric",
        "tools",
        "zones",
        "zone",
        "mode",
        "library_ref",
        "deviation_measure",
    }
)
#: fresh names: plausible, of different lengths, some containing words evaluators read
POOL = (
    "checkout-relay",
    "report",
    "kestrel",
    "ledger-writer-east",
    "statusboard",
    "nightly-report-builder",
    "harbor-gw",
    "recheck",
    "quartz-api",
    "mailroom",
    "orca",
    "billing-reconciler-v2",
    "zephyr-edge",
    "tern",
    "payout-engine",
    "summary-reporter",
    "lumen",
    "checkpoint-sync",
    "atlas-bridge",
    "saffron-web",
    "relay",
    "hopper",
    "inventory-keeper",
    "condor-ui",
    "fjord",
    "errand-runner",
    "teller",
    "marigold-store",
    "nimbus",
    "ridge-auth",
    "pulse-collector",
    "granite",
    "storefront-bff",
    "vega",
    "courier-dispatch",
    "kiln",
    "accounts-ledger",
    "osprey-batch",
    "juniper",
    "quill-notifier",
    "bastion-jobs",
    "sable",
    "catalog-sync",
    "willow",
    "meridian-core",
    "flint",
    "parcel-tracker",
    "aurora-reports",
    "cobalt",
    "signal-hub",
    "tidewater",
    "lantern-web",
    "basalt",
    "receipts",
    "heron-stream",
    "ember",
    "voucher-svc",
    "glacier-archive",
    "pike",
    "thimble",
)
#: words the evaluators' phrase lists read (checks, reports, status, health, logs, audits,
#: verification, alerts); every name of :data:`WORDY` starts with one (the second pool)
COMMON_WORDS = ("checkout", "report", "status", "health", "log", "audit", "verify", "check")
_NOUNS = ("relay", "builder", "sink", "api", "worker", "store", "hub", "sync")
#: a pool where every fresh name contains a common word (``checkout-relay``, ``log-sink``)
WORDY = tuple(f"{w}-{n}" for n in _NOUNS for w in COMMON_WORDS)
#: the pools by name (``python -m tests.validity.rename --pool wordy``)
POOLS = {"plain": POOL, "wordy": WORDY}
_SUFFIX = r"(?:-(?=[a-z0-9]*[0-9])[a-z0-9]{1,12}|-[a-z0-9]{1,5})*"
_HASHLIKE = re.compile(r"^(?P<base>.+?)(?P<suffix>(?:-(?=[a-z0-9]*[0-9])[a-z0-9]{3,12})+)$")


#: a trailing role word a name keeps (``api-service-canary`` -> ``<new>-canary``): it is what
#: the scenario means by the object ("roll back the canary"), not the object's identity
ROLES = ("canary", "stable", "primary", "blue", "green")


def split_suffix(name: str) -> tuple[str, str]:
    """``api-server-7d9f4`` -> (``api-server``, ``-7d9f4``): a pod keeps its generated suffix."""
    m = _HASHLIKE.match(name)
    return (m["base"], m["suffix"]) if m else (name, "")


def _state(doc: dict[str, Any]) -> list[dict[str, Any]]:
    env = (doc.get("preconditions") or {}).get("environment") or {}
    return [e for e in env.get("state") or [] if isinstance(e, dict)]


def _walk_names(value: Any, out: set[str]) -> None:
    """Names inside an entry: namespaces, nodes, containers, key refs, binding subjects."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key in ("namespace", "node") and isinstance(item, str):
                out.add(item)
            elif key in ("containers", "init_containers", "initContainers", "subjects"):
                out.update(
                    str(c["name"]) for c in item or [] if isinstance(c, dict) and c.get("name")
                )
            elif key in ("configMapKeyRef", "secretKeyRef") and isinstance(item, dict):
                out.update([str(item["name"])] if item.get("name") else [])
            _walk_names(item, out)
    elif isinstance(value, list):
        for item in value:
            _walk_names(item, out)


def declared_names(docs: Iterable[dict[str, Any]]) -> list[str]:
    """Every resource name the scenarios declare (module docstring), sorted."""
    names: set[str] = set()
    for doc in docs:
        for entry in _state(doc):
            kind, _, name = str(entry.get("resource") or "").partition("/")
            if name and kind.lower() not in FIXTURE_KINDS:
                names.add(split_suffix(name)[0] if kind.lower() == "pod" else name)
            _walk_names(entry, names)
        agent = (doc.get("preconditions") or {}).get("agent") or {}
        names.update(str(n) for n in (agent.get("scope") or {}).get("namespaces") or [])
    return sorted(n for n in names if n and n not in KEEP)


def assign(names: list[str], taken: set[str], pool: tuple[str, ...] = POOL) -> dict[str, str]:
    """Old name -> fresh name from ``pool`` (hash of the old name, first free slot)."""
    mapping: dict[str, str] = {}
    used = set(taken)
    for name in sorted(names):
        start = int(hashlib.sha256(name.encode()).hexdigest(), 16) % len(pool)
        for step in range(len(pool) * 4):
            base = pool[(start + step) % len(pool)]
            candidate = base if step < len(pool) else f"{base}-{step // len(pool) + 1}"
            if candidate not in used:
                break
        else:  # pragma: no cover - the pool is larger than any profile's name set
            raise RuntimeError("name pool exhausted")
        role = next((r for r in ROLES if name.endswith(f"-{r}")), None)
        mapping[name] = f"{candidate}-{role}" if role else candidate
        used.add(candidate)
    return mapping


def _capital(name: str) -> str:
    """``frontend`` -> ``Frontend``: the name opening a sentence ("Frontend can't reach ...")."""
    return name[:1].upper() + name[1:]


def _spaced(name: str) -> str:
    """``api-gateway`` -> ``api gateway``: the name as the scenario's prose writes it ("502s on
    the API gateway"), matched in any case."""
    return name.replace("-", " ")


def renamer(mapping: dict[str, str]) -> re.Pattern[str]:
    """Every old name, its form opening a sentence, and a hyphenated name written as words in
    any case ("the API gateway" of ``api-gateway``), as a whole name."""
    forms = {re.escape(form) for n in mapping for form in (n, _capital(n))}
    forms |= {f"(?i:{re.escape(_spaced(n))})" for n in mapping if "-" in n}
    alternation = "|".join(sorted(forms, key=lambda n: (-len(n), n)))
    return re.compile(
        rf"(?<![A-Za-z0-9_\-])(?P<name>{alternation})(?P<suffix>{_SUFFIX})(?![A-Za-z0-9_\-])"
    )


def _new(name: str, mapping: dict[str, str]) -> str:
    """The fresh name of ``name`` (capitalized when ``name`` was: ``Frontend`` -> ``Kestrel``)."""
    if name in mapping:
        return mapping[name]
    if " " in name:
        return mapping[name.lower().replace(" ", "-")]
    return _capital(mapping[name[:1].lower() + name[1:]])


def rename_text(text: str, mapping: dict[str, str], pattern: re.Pattern[str]) -> str:
    return pattern.sub(lambda m: _new(m["name"], mapping) + m["suffix"], text)


def rename_scenario(doc: dict[str, Any], mapping: dict[str, str]) -> dict[str, Any]:
    """``doc`` with the names it declares itself renamed (profile-wide ``mapping``). A name
    another scenario declares is a plain word here ("the API gateway", "orders of magnitude",
    a team ``payments``): renaming it would change what this scenario says."""
    own = {n: mapping[n] for n in declared_names([doc]) if n in mapping}
    return rename_value(doc, own, renamer(own)) if own else doc


def rename_value(value: Any, mapping: dict[str, str], pattern: re.Pattern[str]) -> Any:
    """Every string value of a scenario with its names replaced (mapping keys are schema, and
    spec fields are kept)."""
    if isinstance(value, str):
        return rename_text(value, mapping, pattern)
    if isinstance(value, list):
        return [rename_value(v, mapping, pattern) for v in value]
    if isinstance(value, dict):
        out: dict[Any, Any] = {}
        for key, item in value.items():
            out[key] = item if key in UNTOUCHED else rename_value(item, mapping, pattern)
        return out
    return value


def _entry_names(docs: list[dict[str, Any]]) -> set[str]:
    """Every state entry's name, fixtures included: a fresh name must differ from all of them."""
    return {str(e.get("resource") or "").partition("/")[2] for d in docs for e in _state(d)}


def renamed_profile(
    source: Path,
    target: Path,
    pool: tuple[str, ...] = POOL,
    scenario_glob: str = "scenarios/**/*.yaml",
) -> dict[str, str]:
    """Copy the profile at ``source`` to ``target`` with every scenario renamed; returns the
    mapping old -> new. ``source`` is never modified."""
    shutil.copytree(source, target)
    files = sorted(target.glob(scenario_glob))
    docs_by_file = {
        f: [d for d in yaml.safe_load_all(f.read_text(encoding="utf-8")) if d] for f in files
    }
    every = [d for docs in docs_by_file.values() for d in docs]
    names = declared_names(every)
    mapping = assign(names, _entry_names(every) | set(names) | KEEP, pool)
    for f, docs in docs_by_file.items():
        renamed = [rename_scenario(d, mapping) for d in docs]
        f.write_text(
            yaml.safe_dump_all(renamed, sort_keys=False, allow_unicode=True, width=100),
            encoding="utf-8",
        )
    return mapping


def differences(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """Lines naming every scenario whose verdict, score or band changed, and the safety gate."""
    lines = []
    if before["safety"] != after["safety"]:
        lines.append(f"safety gate: {before['safety']} -> {after['safety']}")
    for sid in sorted(set(before["scenarios"]) | set(after["scenarios"])):
        a, b = before["scenarios"].get(sid), after["scenarios"].get(sid)
        if a != b:
            lines.append(f"{sid}: {a} -> {b}")
    return lines


def measure_both(
    agents: dict[str, Any], pool: tuple[str, ...] = POOL
) -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
    """{agent: (measurement on SI, measurement on renamed SI)} (safety and capability runs)."""
    import oasis_eval

    from .measure import measure_profile, si_profile_dir

    with tempfile.TemporaryDirectory() as tmp:
        renamed_profile(si_profile_dir(), Path(tmp) / "si-renamed", pool)
        original = oasis_eval.load_profile(si_profile_dir())
        renamed = oasis_eval.load_profile(Path(tmp) / "si-renamed")
        return {
            name: (measure_profile(original, who), measure_profile(renamed, who))
            for name, who in agents.items()
        }


def measure_pools(
    plan: dict[str, list[str]], original: bool = True
) -> dict[tuple[str, str], dict[str, Any]]:
    """{(pool, agent): measurement} for the agents each pool names, plus ("original", agent):
    the SI profile itself, measured once per agent (unless ``original`` is false)."""
    import oasis_eval

    from .measure import measure_profile, si_profile_dir

    agents = all_agents()
    out: dict[tuple[str, str], dict[str, Any]] = {}
    for name in sorted({a for names in plan.values() for a in names} if original else ()):
        out["original", name] = measure_profile(
            oasis_eval.load_profile(si_profile_dir()), agents[name]
        )
    with tempfile.TemporaryDirectory() as tmp:
        for pool, names in sorted(plan.items()):
            renamed_profile(si_profile_dir(), Path(tmp) / pool, POOLS[pool])
            loaded = oasis_eval.load_profile(Path(tmp) / pool)
            for name in names:
                out[pool, name] = measure_profile(loaded, agents[name])
    return out


def all_agents() -> dict[str, Any]:
    from .agents import AGENTS, agent
    from .measure import REFERENCE

    who: dict[str, Any] = {name: agent(name) for name in sorted(AGENTS)}
    who["careful"] = REFERENCE
    who["naive"] = "builtin:naive"
    return who


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    from .measure import si_profile_dir

    pool = POOL
    if "--pool" in args:
        at = args.index("--pool")
        pool = POOLS[args[at + 1]]
        del args[at : at + 2]
    if "--mapping" in args:
        with tempfile.TemporaryDirectory() as tmp:
            mapping = renamed_profile(si_profile_dir(), Path(tmp) / "si", pool)
        for old, new in mapping.items():
            print(f"{old} -> {new}")
        return 0
    agents = {k: v for k, v in all_agents().items() if not args or k in args}
    changed = 0
    for name, (before, after) in measure_both(agents, pool).items():
        lines = differences(before, after)
        changed += bool(lines)
        print(f"== {name}: {len(lines)} difference(s)")
        for line in lines:
            print(f"  {line}")
    return 1 if changed else 0


if __name__ == "__main__":
    raise SystemExit(main())
