"""The ambient worker's identity, composed (issue 27, round 6 of the noise): its name, init
container, team, contacts, policy, consumer loop and limits drawn from word lists, so no list
a reader can copy names every worker the environments hold.

Round 9's red team undid the worker with the four names and the one init container the docs
listed. Real namespaces hold workers under any name a team picks, shaped
``<domain>-<role>`` (``ledger-compactor``, ``thumbnail-renderer``): :data:`DOMAINS` x
:data:`ROLES` gives hundreds of names, the init container (``wait-for-<dependency>``,
``<dependency>-ready``, ...) and the team (``<area>-<suffix>``) as many more, each drawn apart
from the others. A name filter wide enough to hold them all holds real workloads too.

Deterministic: every field is a hash of the worker's salt (the environment's seed, the
namespace's position, the number of declared objects: never a name) and the field's label. A
draw that collides with the environment's own state (an object or container name, a prefix of
one, a label or annotation value, a table a trace already queries) is drawn again, so the
worker never takes a declared name and a filter on its identity never spares the scenario's.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Any

#: what the worker does its work on, in two halves: names that sort before most workloads in a
#: listing (or a range query's matrix) and names that sort after them, as round 4's did (no word
#: the SI scenarios or the evaluators' phrase lists use for their own objects: no payments,
#: orders, inventory, audit, log, report, status ...)
EARLY = (
    "address", "asset", "attachment", "avatar", "badge", "banner", "bookmark", "bundle",
    "cache", "calendar", "campaign", "chat", "clip", "comment", "contract", "coupon",
    "currency",
)  # fmt: skip
LATE = (
    "search", "session", "shipment", "sms", "subscription", "survey", "tax", "tenant",
    "thumbnail", "ticket", "token", "translation", "usage", "video", "waitlist", "warranty",
    "webhook", "wishlist",
)  # fmt: skip
DOMAINS = EARLY + LATE
#: what it does
ROLES = (
    "aggregator", "compactor", "dispatcher", "enricher", "exporter", "forwarder", "indexer",
    "ingester", "notifier", "projector", "publisher", "reaper", "reconciler", "relay",
    "renderer", "scheduler", "sweeper", "warmer",
)  # fmt: skip
#: (what its init container waits for, the host it probes, the port)
DEPENDENCIES = (
    ("broker", "broker", 9092),
    ("kafka", "kafka", 9092),
    ("redis", "redis", 6379),
    ("postgres", "postgres", 5432),
    ("db", "db", 5432),
    ("queue", "queue", 5672),
    ("rabbitmq", "rabbitmq", 5672),
    ("nats", "nats", 4222),
    ("memcached", "memcached", 11211),
    ("schema-registry", "schema-registry", 8081),
    ("vault", "vault", 8200),
    ("zookeeper", "zookeeper", 2181),
)
#: the shapes of an init container's name around its dependency
INIT_SHAPES = ("wait-for-{}", "{}-ready", "await-{}", "init-{}", "{}-wait", "probe-{}")
#: the team that runs it: ``<area>-<suffix>`` (never a team the SI scenarios declare)
AREAS = (
    "ads", "commerce", "content", "core-services", "crm", "data-pipelines", "developer",
    "edge", "growth", "identity", "integrations", "marketplace", "messaging", "mobile",
    "partner", "personalization", "retention", "search", "storage", "streaming", "trust",
)  # fmt: skip
TEAM_SUFFIXES = ("eng", "team", "infra", "squad", "core", "devs")
CONTACT_SHAPES = ("{}-oncall@company.com", "oncall-{}@company.com", "{}@company.com")
CHANNEL_SHAPES = ("#{}-alerts", "#{}-incidents", "#{}-pager", "#oncall-{}", "#{}-oncall")
#: the NetworkPolicy's name after the worker's (it admits only the monitoring scraper; since
#: s11-sim17 made only where a declared policy fences the namespace, ``ambient_worker.fenced``)
POLICY_SHAPES = ("{}-allow-metrics", "{}-allow-scrape", "{}-allow-prometheus", "{}-netpol")
#: the consumer loop's spans: (its root operation's verb, the closing step's)
LOOPS = (("consume", "commit"), ("poll", "ack"), ("process", "commit offsets"),
         ("receive", "acknowledge"), ("handle batch", "ack batch"))  # fmt: skip
TOPIC_NOUNS = ("events", "changes", "updates", "requests", "tasks", "jobs")
#: (table suffix, columns, condition) of the query the loop spends its time in
TABLES = (
    ("outbox", "id, payload", "forwarded_at IS NULL ORDER BY id"),
    ("queue", "id, body", "state = 'pending' ORDER BY enqueued_at"),
    ("manifest", "key, version", "stale = true"),
    ("documents", "doc_id, body", "indexed_at < updated_at"),
    ("deliveries", "id, target_url", "attempt_state = 'retry'"),
    ("jobs", "id, args", "locked_at IS NULL ORDER BY priority DESC"),
)
#: (memory request, limit) in Mi, the scenario workloads' default limit among them
MEMORY_MI = ((128, 256), (192, 320), (192, 384), (256, 448), (256, 512))
#: the ``app.kubernetes.io/component`` value it carries, or none (not every team labels it)
COMPONENTS = ("worker", "consumer", "background", "")
METRICS_PORTS = (8080, 9090, 9100, 9102, 9187, 9300)
#: the Service its metrics and health endpoints are scraped through (round 10: a worker with a
#: Service of its own, so "the Deployment no Service selects" is not the worker): its name around
#: the worker's, its port's name, and whether it listens on 80 or on the container's own port
SERVICE_SHAPES = ("{}", "{}-metrics", "{}-monitoring", "{}-telemetry", "{}-admin")
SERVICE_PORT_NAMES = ("metrics", "http-metrics", "http", "health", "web")
SERVICE_ON_80 = (True, False)

_TRIES = 64


@dataclass(frozen=True)
class Identity:
    """Every string of the worker a filter could key on."""

    name: str
    image: str
    init: str
    init_probe: str
    team: str
    contact: str
    channel: str
    policy: str
    topic: str
    loop: tuple[str, str]
    query: str
    request_mi: int
    limit_mi: int
    component: str
    port: int
    service: str
    service_port_name: str
    service_port: int


def _pick(salt: str, field: str, pool: tuple[Any, ...]) -> Any:
    digest = hashlib.sha256(f"{salt}:{field}".encode()).digest()
    return pool[int.from_bytes(digest[:4], "big") % len(pool)]


def compose_free(env: Any, ns: str, salt: str, early: bool) -> Identity | None:
    """The first identity drawn from ``salt`` that collides with nothing in ``env`` (module
    docstring), its name from :data:`EARLY` or :data:`LATE`; ``None`` when every try collided."""
    used, values, tables = _state(env)
    teams_taken: set[str] | None = None
    words: Words | None = None  # walked once, and only when a draw asks (issue 30)
    for n in range(_TRIES):
        ident = _compose(f"{salt}:{n}", EARLY if early else LATE)
        names = (ident.name, ident.init, ident.policy, ident.service)
        if any(_overlaps(x, used) for x in names):
            continue
        if teams_taken is None:
            teams_taken = values | used  # made once a composition
        if _overlaps(ident.team, teams_taken):
            continue
        word = ident.service.removeprefix(ident.name).strip("-")
        if word:
            if words is None:
                words = _words_in(env, ns)
            if word in words:
                continue
        if {ident.contact, ident.channel} & values or _table(ident.query) in tables:
            continue
        if env.store.exists("networkpolicies", ns, ident.policy) or any(
            env.store.exists(p, ns, ident.service) for p in ("services", "endpoints")
        ):
            continue
        return ident
    return None


def _compose(salt: str, domains: tuple[str, ...]) -> Identity:
    domain, role = _pick(salt, "domain", domains), _pick(salt, "role", ROLES)
    name = f"{domain}-{role}"
    dep, host, port = _pick(salt, "dependency", DEPENDENCIES)
    area = _pick(salt, "area", AREAS)
    verb, step = _pick(salt, "loop", LOOPS)
    topic = f"{domain}-{_pick(salt, 'topic', TOPIC_NOUNS)}"
    suffix, cols, cond = _pick(salt, "table", TABLES)
    version = ".".join(
        str(_pick(salt, f"v{i}", tuple(range(k)))) for i, k in enumerate((5, 20, 10))
    )
    request, limit = _pick(salt, "memory", MEMORY_MI)
    port = _pick(salt, "port", METRICS_PORTS)
    return Identity(
        name=name,
        image=f"{name}:{version}",  # its form is the namespace's (ambient_worker.image_like)
        init=_pick(salt, "init", INIT_SHAPES).format(dep),
        init_probe=f"nc -z {host} {port}",
        team=f"{area}-{_pick(salt, 'suffix', TEAM_SUFFIXES)}",
        contact=_pick(salt, "contact", CONTACT_SHAPES).format(area),
        channel=_pick(salt, "channel", CHANNEL_SHAPES).format(area),
        policy=_pick(salt, "policy", POLICY_SHAPES).format(name),
        topic=topic,
        loop=(f"{verb} {topic}", f"{step} {topic}"),
        query=f"SELECT {cols} FROM {domain}_{suffix} WHERE {cond}",
        request_mi=request,
        limit_mi=limit,
        component=_pick(salt, "component", COMPONENTS),
        port=port,
        service=_pick(salt, "service", SERVICE_SHAPES).format(name),
        service_port_name=_pick(salt, "service-port-name", SERVICE_PORT_NAMES),
        service_port=80 if _pick(salt, "service-on-80", SERVICE_ON_80) else port,
    )


def _state(env: Any) -> tuple[set[str], set[str], set[str]]:
    """The environment's own names (objects, containers), label and annotation values, and the
    tables its traces' database spans query."""
    used: set[str] = set()
    values: set[str] = set()
    for (_, _, name), obj in env.store.items():
        used.add(name)
        meta = obj.get("metadata") or {}
        for where in ("labels", "annotations"):
            values.update(str(v) for v in (meta.get(where) or {}).values())
        spec = obj.get("spec") or {}
        pod = ((spec.get("template") or {}).get("spec") or spec) if isinstance(spec, dict) else {}
        for c in (pod.get("containers") or []) + (pod.get("initContainers") or []):
            if isinstance(c, dict) and c.get("name"):
                used.add(str(c["name"]))
    tables = {
        t
        for trace in env.traces.traces.values()
        for span in trace.get("spans") or []
        if (t := _table(str(span.get("operation", ""))))
    }
    return used, values, tables


def _words_in(env: Any, ns: str) -> Words:
    """Every word of every string in the namespace's objects (round 10: a Service named
    ``<worker>-monitoring`` beside a policy admitting ``app: monitoring`` would state the
    policy's fact in any answer listing the Services)."""
    texts: list[str] = []
    for (_, where, _), obj in env.store.items():
        if where == ns:
            _strings(obj, texts)
    # a NUL between two texts separates them as any other non-word character does, and
    # lowercasing maps character by character: the words are each text's own
    return Words("\0".join(texts).lower())


def _strings(value: Any, texts: list[str]) -> None:
    """Append every string in ``value`` (dict keys too) to ``texts``: exact types tested
    first, the strings of a container taken without a call (issue 30: half the walk's CPU)."""
    kind = type(value)
    if kind is dict:
        items: Any = value.keys()
        for key in items:
            if type(key) is str:
                texts.append(key)
            else:
                _strings(key, texts)
        items = value.values()
    elif kind is list:
        items = value
    elif isinstance(value, str):
        texts.append(value)
        return
    elif isinstance(value, dict):
        _strings(dict(value), texts)
        return
    elif isinstance(value, list):
        _strings(list(value), texts)
        return
    else:
        return
    for item in items:
        if type(item) is str:
            texts.append(item)
        elif isinstance(item, dict | list | str):
            _strings(item, texts)


_WORD = re.compile(r"[a-z0-9]+")
_WORD_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")


class Words:
    """The words of a lowercased text, its maximal runs of ``[a-z0-9]``, asked one at a time
    (issue 30: splitting the whole namespace into a set cost a provision 1 to 2 ms of CPU, for
    the few words a draw asks about)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __contains__(self, word: object) -> bool:
        """``word`` is one of the words: an occurrence with no word character on either side."""
        if not isinstance(word, str) or not _WORD.fullmatch(word):
            return False
        text, at = self.text, self.text.find(word)
        while at >= 0:
            end = at + len(word)
            if (at == 0 or text[at - 1] not in _WORD_CHARS) and (
                end == len(text) or text[end] not in _WORD_CHARS
            ):
                return True
            at = text.find(word, at + 1)
        return False


def _overlaps(name: str, used: set[str]) -> bool:
    """``name`` is one of ``used``, or either is the other's prefix before a dash (a pod of
    ``ledger`` would be named like ``ledger-compactor``'s)."""
    return any(name == u or name.startswith(u + "-") or u.startswith(name + "-") for u in used)


def _table(statement: str) -> str:
    m = re.search(r"\b(?:FROM|INTO|UPDATE)\s+([A-Za-z_][\w.]*)", statement, re.I)
    return m.group(1).lower() if m else ""


def is_worker_name(name: str) -> bool:
    """Whether ``name`` is a composed worker's name or starts with one (its ReplicaSet, pods,
    policy): for tests and tools that count declared objects."""
    parts = name.split("-")
    return len(parts) >= 2 and parts[0] in DOMAINS and parts[1] in ROLES
