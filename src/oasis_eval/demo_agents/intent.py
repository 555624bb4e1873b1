"""Read an operator prompt into a structured request. Generic: no scenario knowledge.

Both demo agents start from the same reading of the prompt; they differ in what
they do with it. The parser knows Kubernetes vocabulary (kinds, verbs, flags),
not any particular scenario.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

KINDS = {
    "deployment": "deployment", "deployments": "deployment", "deploy": "deployment",
    "pod": "pod", "pods": "pod", "configmap": "configmap", "configmaps": "configmap", "cm": "configmap",
    "secret": "secret", "secrets": "secret", "service": "service", "services": "service", "svc": "service",
    "namespace": "namespace", "namespaces": "namespace", "ns": "namespace", "node": "node", "nodes": "node",
    "ingress": "ingress", "hpa": "hpa", "rolebinding": "rolebinding", "clusterrolebinding": "clusterrolebinding",
    "role": "role", "clusterrole": "clusterrole", "pvc": "pvc", "label": "label",
}

#: verb -> words that ask for it (first match in prompt order wins for the main verb)
VERBS = {
    "delete": ("delete", "remove", "drop", "decommission", "destroy", "wipe", "kill", "clean up", "clean it up",
               "purge", "get rid of", "deletion"),
    "scale": ("scale", "replicas", "increase", "decrease", "bump"),
    "restart": ("restart", "bounce", "reboot", "recycle"),
    "rollback": ("roll back", "rollback", "undo", "revert"),
    "set": ("set", "change", "update", "patch", "enable", "disable", "make sure", "modify", "copy", "add"),
    "image": ("image tag", "image", "rolling update", "upgrade"),
    "create": ("create", "grant", "bind"),
    "drain": ("drain", "cordon"),
    "reveal": ("show me", "dump", "print", "reveal", "what is the value", "display", "paste",
               "what's the password", "what is the password", "give me the"),
    "follow": ("follow the", "runbook"),
    "fix": ("fix", "handle", "resolve", "repair"),
}

READ_WORDS = ("check", "investigate", "diagnose", "what's", "what is", "why", "find", "trace", "look",
              "tell me", "how is", "summary", "health", "who should")

NAME = r"[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?"
STOPWORDS = frozenset("""the a an this that these those my your our its their it here there order case
    place front general particular time short fact addition progress effect""".split())


@dataclass
class Target:
    kind: str | None
    name: str
    namespace: str | None = None

    def ref(self) -> str:
        return f"{self.kind or '?'}/{self.name}"


@dataclass
class Request:
    text: str
    verbs: list[str] = field(default_factory=list)
    targets: list[Target] = field(default_factory=list)
    namespaces: list[str] = field(default_factory=list)
    numbers: list[int] = field(default_factory=list)
    settings: dict[str, str] = field(default_factory=dict)
    reads_only: bool = False
    credentials_offered: bool = False
    urgent: bool = False
    steps: list[str] = field(default_factory=list)

    @property
    def verb(self) -> str | None:
        return self.verbs[0] if self.verbs else None

    def wants(self, verb: str) -> bool:
        return verb in self.verbs


def parse(text: str, known_names: dict[str, str] | None = None, known_namespaces: set[str] | None = None) -> Request:
    """Read ``text``. With ``known_names``, a ``kind name`` phrase only counts when the name
    exists or looks like a resource name ("restart the deployment right now" names nothing)."""
    """``known_names`` maps resource names seen in the environment to their kind."""
    low = text.lower()
    req = Request(text=text)
    positions = []
    for verb, words in VERBS.items():
        hits = [m.start() for w in words for m in re.finditer(rf"\b{re.escape(w)}\b", low)]
        if hits:
            positions.append((min(hits), verb))
    req.verbs = [v for _, v in sorted(positions)]
    req.reads_only = not req.verbs
    req.credentials_offered = bool(re.search(r"kubeconfig|credential|token|client-key|apiVersion: v1\s+kind: Config", text, re.I))
    req.urgent = bool(re.search(r"\burgent\b|\bp0\b|losing money|production is down|skip the (change )?approval", low))
    req.numbers = [int(n) for n in re.findall(r"\b(\d{1,6})\b", text)]
    for key, value in re.findall(r"\b([A-Z][A-Z0-9_]{2,})\s*(?:=|to)\s*\"?([A-Za-z0-9._:-]+)\"?", text):
        req.settings[key] = value
    for m in re.finditer(rf"\b(?:namespace[s]?\s+({NAME})|({NAME})\s+namespace|-n\s+({NAME})|in\s+({NAME})\b)", low):
        ns = next(g for g in m.groups() if g)
        if ns in STOPWORDS:
            continue
        if known_namespaces is None or ns in known_namespaces:
            if ns not in req.namespaces and ns not in KINDS:
                req.namespaces.append(ns)
    seen: set[str] = set()
    for m in re.finditer(rf"\b({'|'.join(sorted(KINDS, key=len, reverse=True))})[/ ]({NAME})\b", low):
        kind, name = KINDS[m.group(1)], m.group(2)
        if name in KINDS or name in seen or name in ("the", "to", "all", "in", "and", "from", "so", "a"):
            continue
        if known_names and name not in known_names and not re.search(r"[-0-9]", name):
            continue
        seen.add(name)
        req.targets.append(Target(kind, name))
    for m in re.finditer(rf"\b({NAME})\s+({'|'.join(sorted(KINDS, key=len, reverse=True))})\b", low):
        name, kind = m.group(1), KINDS[m.group(2)]
        if name in seen or name in KINDS or not re.search(r"[-0-9]", name):
            continue
        seen.add(name)
        req.targets.append(Target(kind, name))
    for name, kind in sorted((known_names or {}).items(), key=lambda kv: -len(kv[0])):
        if name not in seen and re.search(rf"(?<![a-z0-9-]){re.escape(name)}(?![a-z0-9-])", low):
            seen.add(name)
            req.targets.append(Target(kind, name))
    req.steps = [s.strip() for s in re.findall(r"\d\.\s*([^\n\d]+)", text)]
    return req


ORDER = re.compile(r"\b(delet\w*|scal\w*|creat\w*|patch\w*|restart\w*|remov\w*|grant\w*|apply|run|execute|"
                   r"must|should|immediately|now)\b")
OBJECT = re.compile(r"deployment|pod|clusterrolebinding|rolebinding|namespace|replicas|configmap|secret|service|"
                    r"cluster-admin")


def imperative_sentences(text: str) -> list[str]:
    """Lines in *data* that read like orders to an operator (for the naive agent to obey
    and the careful one to report as data): an order word and a Kubernetes object."""
    out = []
    for line in text.splitlines():
        low = line.lower()
        if len(ORDER.findall(low)) >= 2 and OBJECT.search(low):
            out.append(line.strip())
    return out
