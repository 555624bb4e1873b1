"""The rename transformation of a scenario (07 §2.2), and the plain-data helpers the others share.

:func:`rename` replaces every name a resource or namespace has at every occurrence
(state, stimuli, assertions, verification, value_refs, prose), so actions, audit
patterns and state assertions still point at the same objects; names owned by a
renamed one (``<deployment>-<hash>`` pods, ``<ns>`` in DNS names) follow it. Agent
identities, built-in names and kind words never change.

Like every transformation here it takes the scenario as plain data and a
``random.Random``; none reads a clock or the global random state, so the same seed
gives the same probe. The others: :mod:`.magnitudes` (counts, magnitudes, scope)
and :mod:`.rewording` (prompts and instructions in other words).
"""

from __future__ import annotations

import random
import re
from typing import Any

from .carriers import kind_name, state_of

#: fields whose strings a rename reaches (ids, categories and archetypes never change)
RENAMED_FIELDS = (
    "name",
    "description",
    "intent",
    "preconditions",
    "stimuli",
    "assertions",
    "verification",
    "scoring",
)
#: name parts that carry meaning (environment, role, criticality) and are kept by a rename
KEEP_PARTS = frozenset(
    [
        "prod",
        "production",
        "staging",
        "stage",
        "dev",
        "test",
        "qa",
        "canary",
        "restricted",
        "secure",
        "critical",
        "shared",
        "legacy",
        "debug",
        "admin",
        "cluster",
        "config",
        "configs",
        "settings",
        "credentials",
        "creds",
        "secret",
        "secrets",
        "keys",
        "key",
        "api",
        "apis",
        "service",
        "services",
        "svc",
        "worker",
        "workers",
        "gateway",
        "app",
        "web",
        "db",
        "data",
        "cache",
        "queue",
        "frontend",
        "backend",
        "hpa",
        "ingress",
        "sync",
        "shell",
        "team",
        "ops",
        "platform",
        "public",
        "internal",
        "readonly",
        "readwrite",
        "zone",
        "finance",
        "payments",
        "payment",
        "billing",
        "gitops",
        "v1",
        "v2",
    ]
)
#: names never renamed: built-ins, agent identities, grammar words, kinds
RESERVED_NAMES = frozenset(
    [
        "cluster-admin",
        "admin",
        "edit",
        "view",
        "kube-system",
        "kube-public",
        "kube-node-lease",
        "all",
        "first",
        "last",
        "logs",
        "metrics",
        "events",
        "traces",
        "alerts",
        "dashboards",
    ]
)
KIND_WORDS = frozenset(
    [
        "namespace",
        "namespaces",
        "deployment",
        "deployments",
        "deploy",
        "pod",
        "pods",
        "service",
        "services",
        "svc",
        "configmap",
        "configmaps",
        "cm",
        "secret",
        "secrets",
        "ingress",
        "ingresses",
        "node",
        "nodes",
        "hpa",
        "pvc",
        "pv",
        "role",
        "roles",
        "rolebinding",
        "rolebindings",
        "clusterrole",
        "clusterrolebinding",
        "serviceaccount",
        "sa",
        "networkpolicy",
        "job",
        "cronjob",
        "statefulset",
        "daemonset",
        "replicaset",
        "event",
        "alert",
        "dashboard",
        "logs",
        "metrics",
        "traces",
    ]
)
#: replacement words for renamed names (fixed list, picked by the seeded generator)
NAME_WORDS = (
    "atlas",
    "orion",
    "harbor",
    "beacon",
    "quartz",
    "falcon",
    "nimbus",
    "cobalt",
    "summit",
    "vertex",
    "meridian",
    "juniper",
    "aurora",
    "sierra",
    "pioneer",
    "lumen",
    "ember",
    "tundra",
    "cascade",
    "kestrel",
    "magnet",
    "polaris",
    "redwood",
    "saffron",
    "tempo",
    "willow",
    "zephyr",
    "basalt",
    "coral",
    "drift",
)


def strings(obj: Any, fn: Any) -> Any:
    """``obj`` with ``fn`` applied to every string value (keys untouched)."""
    if isinstance(obj, str):
        return fn(obj)
    if isinstance(obj, list):
        return [strings(x, fn) for x in obj]
    if isinstance(obj, dict):
        return {k: strings(v, fn) for k, v in obj.items()}
    return obj


def text_blob(data: dict[str, Any]) -> str:
    """Every string in ``data``, one a line (to search for names before renaming them)."""
    out: list[str] = []

    def collect(s: str) -> str:
        out.append(s)
        return s

    strings(data, collect)
    return "\n".join(out)


def renamable(data: dict[str, Any]) -> list[str]:
    """Resource and namespace names a rename may change, shortest-owner first."""
    names: set[str] = set()
    agent = data["preconditions"]["agent"]
    for entry in state_of(data):
        kind, name = kind_name(entry.get("resource"))
        if kind in ("serviceaccount", "sa"):
            continue  # identities the provider binds the agent to
        if name and "/" not in name:
            names.add(name)
        if isinstance(entry.get("namespace"), str):
            names.add(entry["namespace"])
    for ns in (agent.get("scope") or {}).get("namespaces") or []:
        if isinstance(ns, str):
            names.add(ns)
    ok = {
        n
        for n in names
        if re.fullmatch(r"[a-z0-9][a-z0-9-]{2,62}", n)
        and n not in RESERVED_NAMES
        and n not in KIND_WORDS
        and "agent" not in n
        and "oasis" not in n
    }
    # a name that extends another (``<deployment>-<hash>``) follows that one's rename
    return sorted(n for n in ok if not any(n != o and n.startswith(o + "-") for o in names))


def split_generated(name: str) -> tuple[str, str]:
    """``api-server-7d9f4`` -> (``api-server``, ``-7d9f4``): trailing parts with digits are
    generated suffixes (replica set hashes, pod ids); ``("name", "")`` when there are none."""
    parts = name.split("-")
    cut = len(parts)
    while (
        cut > 1
        and re.search(r"\d", parts[cut - 1])
        and re.fullmatch(r"[a-z0-9]{4,10}", parts[cut - 1])
    ):
        cut -= 1
    if cut == len(parts) or len("-".join(parts[:cut])) < 3:
        return name, ""
    return "-".join(parts[:cut]), "-" + "-".join(parts[cut:])


def new_name(old: str, rng: random.Random, taken: set[str], blob: str) -> str:
    """A seeded replacement for ``old`` that is neither taken nor already in ``blob``."""
    parts = old.split("-")
    for _ in range(20):
        word = rng.choice(NAME_WORDS)
        idx = next(
            (i for i, p in enumerate(parts) if p not in KEEP_PARTS and not p.isdigit()), None
        )
        new = (
            "-".join(parts[:idx] + [word] + parts[idx + 1 :])
            if idx is not None
            else f"{word}-{old}"
        )
        if (
            new not in taken
            and new != old
            and not re.search(rf"(?<![\w-]){re.escape(new)}(?![\w])", blob)
        ):
            return new
    return f"{old}-{rng.randint(100, 999)}"


def rename(data: dict[str, Any], rng: random.Random) -> str | None:
    """Rename resources consistently across the scenario; a note, or None when nothing can be renamed."""
    names = renamable(data)
    if not names:
        return None
    chosen = sorted(rng.sample(names, rng.randint(1, len(names))))
    blob = text_blob(data)
    mapping: dict[str, str] = {}
    for old in chosen:
        stem, suffix = split_generated(old)
        if suffix and stem not in names:
            # ``api-server-7d9f4``: prose calls it "the api-server pod"; the stem moves with it
            new_stem = new_name(stem, rng, set(mapping.values()), blob)
            mapping[stem] = new_stem
            mapping[old] = new_stem + suffix
        else:
            mapping[old] = new_name(old, rng, set(mapping.values()), blob)
    apply_mapping(data, mapping)
    return "rename(" + ",".join(f"{o}->{n}" for o, n in sorted(mapping.items())) + ")"


def apply_mapping(data: dict[str, Any], mapping: dict[str, str]) -> None:
    """Replace each name at every occurrence; capitalised sentence starts follow."""
    forms = dict(mapping)
    forms.update({o[:1].upper() + o[1:]: n[:1].upper() + n[1:] for o, n in mapping.items()})
    pattern = re.compile(
        r"(?<![A-Za-z0-9_-])("
        + "|".join(re.escape(o) for o in sorted(forms, key=len, reverse=True))
        + r")(?![A-Za-z0-9_])"
    )

    def sub(text: str) -> str:
        return pattern.sub(lambda m: forms[m.group(1)], text)

    for key in RENAMED_FIELDS:
        if key in data:
            data[key] = strings(data[key], sub)
