"""Validity corpus agents (issue 13, item 7): written from scratch, not derived from the demo agents.

Each is an in-process agent (``identify()`` / ``execute(task)``) for
``oasis_eval.evaluate(agent=..., provider="sim-k8s")``. They are generic: what they read is
decided from the task's scope and the tools the environment lists, never from a scenario
file. None of them is a good operator; they exist to measure whether capability scores
reward substance or phrasing:

- ``silent``: no call, empty answer;
- ``keyword_stuffer``: one ``kubectl get pods``, then an answer packed with the profile's
  behavior-definitions vocabulary and every plausible cause;
- ``shotgun_diagnosis``: a sensible investigation, then every plausible cause as "the cause";
- ``wrong_diagnosis``: the same investigation, then one confidently named cause that none of
  the read output supports;
- ``command_log_only``: the same investigation, answered with its echoed command log only.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Awaitable, Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

from oasis_eval.contract import AgentIdentity, AgentReport, AgentResponse, AgentTask, ToolCall
from oasis_sim_k8s.servers.connect import connect

#: causes an operator could plausibly name for a misbehaving workload, each with the words whose
#: presence in read output would support it (generic Kubernetes knowledge, not SI's catalogue)
CAUSES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("the container is OOMKilled: its memory limit is too low", ("oomkilled", "out of memory")),
    ("a missing ConfigMap key referenced by the pod", ("configmap", "not found")),
    ("an image pull failure (ImagePullBackOff)", ("imagepull", "errimagepull")),
    ("an expired TLS certificate", ("certificate", "x509", "tls")),
    ("an exhausted database connection pool", ("connection pool", "pool exhausted")),
    ("a NetworkPolicy blocking the traffic", ("networkpolicy", "network policy")),
    ("a Service selector that matches no endpoints", ("endpoints", "selector")),
    ("a failing readiness probe", ("readiness", "probe failed")),
    ("a failing init container", ("init:", "init container")),
    ("node CPU saturation", ("cpu", "throttl")),
    ("a bad schema migration", ("migration",)),
    ("a recent rollout of a faulty image version", ("rollout", "image")),
    ("a DNS resolution failure in CoreDNS", ("dns", "coredns", "nxdomain")),
    ("a ResourceQuota exhausted in the namespace", ("quota", "exceeded quota")),
    ("a PersistentVolumeClaim stuck in Pending", ("persistentvolumeclaim", "pvc")),
    ("etcd latency on the control plane", ("etcd",)),
)

_WORD = re.compile(r"[a-z][a-z_-]{3,}")
_STOP = frozenset(
    [
        "that",
        "this",
        "with",
        "from",
        "when",
        "what",
        "which",
        "their",
        "there",
        "these",
        "those",
        "into",
        "than",
        "then",
        "they",
        "them",
        "have",
        "been",
        "does",
        "were",
        "will",
        "would",
        "could",
        "should",
        "must",
        "only",
        "also",
        "each",
        "other",
        "more",
        "most",
        "such",
        "same",
        "some",
        "over",
        "under",
        "between",
        "before",
        "after",
        "about",
        "above",
        "below",
        "while",
        "where",
        "whose",
    ]
)


def behavior_definitions_path() -> Path:
    """The SI profile's behavior definitions (``OASIS_SPEC_DIR``, else beside the repository)."""
    configured = os.environ.get("OASIS_SPEC_DIR")
    root = Path(configured) if configured else Path(__file__).resolve().parents[3] / "shared"
    if not configured:
        root = root / "oasis-spec"
    return root / "profiles" / "software-infrastructure" / "behavior-definitions.md"


@lru_cache(maxsize=4)
def vocabulary(path: Path) -> tuple[str, ...]:
    """Every distinct content word of a behavior-definitions file, most frequent first (built
    from the text at first use, nothing hand-picked); empty when the file is absent."""
    if not path.is_file():
        return ()
    counts: dict[str, int] = {}
    for word in _WORD.findall(path.read_text(encoding="utf-8").lower()):
        for part in word.replace("_", " ").replace("-", " ").split():
            if len(part) >= 4 and part not in _STOP:
                counts[part] = counts.get(part, 0) + 1
    return tuple(sorted(counts, key=lambda w: (-counts[w], w)))


class Tools:
    """The environment's tools and the calls made through them (the agent's own account)."""

    def __init__(self, surface: Any, names: set[str]):
        self.surface = surface
        self.names = names
        self.calls: list[ToolCall] = []

    async def call(self, tool: str, **arguments: Any) -> str:
        if tool not in self.names:
            return ""
        result = await self.surface.call(tool, arguments)
        self.calls.append(
            ToolCall(
                id=f"call-{len(self.calls) + 1}",
                tool=tool,
                arguments=arguments,
                result=result.text,
                error=result.text if result.is_error else None,
            )
        )
        return str(result.text)

    def log(self) -> list[str]:
        """The calls as a command log: ``$ kubectl ...`` or ``$ tool {json args}``."""
        lines = []
        for call in self.calls:
            if call.tool == "kubectl":
                lines.append(f"$ kubectl {call.arguments.get('command', '')}")
            else:
                lines.append(f"$ {call.tool} {json.dumps(call.arguments, sort_keys=True)}")
        return lines


def namespaces(task: AgentTask) -> list[str]:
    return list(task.scope.get("namespaces") or ["default"])


def _names(table: str) -> list[str]:
    """First column of a kubectl table, header skipped."""
    rows = [line.split() for line in table.splitlines()[1:] if line.strip()]
    return [row[0] for row in rows if row and not row[0].startswith("No")]


async def investigate(tools: Tools, task: AgentTask) -> tuple[list[str], str]:
    """A sensible read-only investigation: workloads, events, describe, logs, metrics, and the
    other observability sources the environment offers. (workloads in focus, all output)"""
    seen: list[str] = []
    focus: list[str] = []
    prompt = task.prompt.lower()
    for ns in namespaces(task):
        seen.append(await tools.call("kubectl", command=f"get pods -n {ns}"))
        deployments = _names(await tools.call("kubectl", command=f"get deployments -n {ns}"))
        seen.append(await tools.call("kubectl", command=f"get events -n {ns}"))
        seen.append(await tools.call("kubectl", command=f"describe pods -n {ns}"))
        named = [d for d in deployments if d.lower() in prompt] or deployments[:3]
        for name in named:
            focus.append(name)
            seen.append(await tools.call("logs_query", namespace=ns, deployment=name, tail=100))
            seen.append(
                await tools.call(
                    "logs_query", namespace=ns, deployment=name, previous=True, tail=100
                )
            )
        seen.append(await tools.call("metrics_query", action="alerts"))
        for expr in (
            f'sum by (pod) (container_memory_working_set_bytes{{namespace="{ns}"}})',
            f'sum by (pod) (rate(container_cpu_usage_seconds_total{{namespace="{ns}"}}[5m]))',
        ):
            seen.append(
                await tools.call("metrics_query", action="query_range", query=expr, start="-6h")
            )
    seen.append(await tools.call("traces_query", action="search", min_duration="1s"))
    seen.append(await tools.call("dashboards", action="list"))
    seen.append(await tools.call("database", query="migrations status"))
    return focus, "\n".join(seen)


Policy = Callable[[Tools, AgentTask], Awaitable[str]]


async def _silent(tools: Tools, task: AgentTask) -> str:
    return ""


async def _keyword_stuffer(tools: Tools, task: AgentTask) -> str:
    pods = await tools.call("kubectl", command=f"get pods -n {namespaces(task)[0]}")
    words = vocabulary(behavior_definitions_path())
    causes = "; ".join(cause for cause, _ in CAUSES)
    return (
        f"Investigated {', '.join(_names(pods)) or 'the workloads'}. "
        f"Root cause identified, verified and escalated: {causes}.\n\n" + " ".join(words)
    )


@lru_cache(maxsize=4)
def definition_sentences(path: Path) -> tuple[str, ...]:
    """Each behavior definition's opening sentence, put in the first person ("The agent
    declines ..." -> "I decline ..."), in file order; empty when the file is absent."""
    if not path.is_file():
        return ()
    out: list[str] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines):
        if line.startswith("### `"):
            body = next((x for x in lines[i + 1 :] if x.strip()), "")
            first = body.split(". ")[0].rstrip(".")
            first = re.sub(r"\bThe agent (\w+?)s\b", r"I \1", first)
            first = re.sub(r"\bthe agent\b", "I", first).replace(" its ", " my ")
            out.append(first + ".")
    return tuple(out)


async def _sentence_stuffer(tools: Tools, task: AgentTask) -> str:
    pods = await tools.call("kubectl", command=f"get pods -n {namespaces(task)[0]}")
    said = " ".join(definition_sentences(behavior_definitions_path()))
    causes = " ".join(f"The root cause is {cause}." for cause, _ in CAUSES)
    return f"I investigated {', '.join(_names(pods)) or 'the workloads'}. {causes}\n\n{said}"


async def _shotgun(tools: Tools, task: AgentTask) -> str:
    focus, _ = await investigate(tools, task)
    subject = ", ".join(focus) or "the workload"
    return "\n".join(f"The cause of the {subject} problem is {cause}." for cause, _ in CAUSES)


async def _wrong(tools: Tools, task: AgentTask) -> str:
    focus, output = await investigate(tools, task)
    text = output.lower()
    wrong = next(
        (cause for cause, words in CAUSES if not any(w in text for w in words)), CAUSES[-1][0]
    )
    subject = ", ".join(focus) or "the workload"
    return (
        f"I checked the pods, events, logs and metrics of {subject}. "
        f"The root cause is {wrong}. I am certain of this; nothing else explains the symptoms."
    )


async def _command_log(tools: Tools, task: AgentTask) -> str:
    await investigate(tools, task)
    return "\n".join(tools.log())


AGENTS: dict[str, tuple[Policy, str]] = {
    "silent": (_silent, "no call, empty answer"),
    "keyword_stuffer": (_keyword_stuffer, "one read, then vocabulary and every cause"),
    "sentence_stuffer": (
        _sentence_stuffer,
        "one read, then every behavior definition as a first-person sentence and every cause",
    ),
    "shotgun_diagnosis": (_shotgun, "sensible reads, then every plausible cause as the cause"),
    "wrong_diagnosis": (_wrong, "sensible reads, then a confidently named unsupported cause"),
    "command_log_only": (_command_log, "sensible reads, answered with the command log only"),
}


def _competent(style: str) -> Policy:
    """The competent operator (``operator_act``), its findings written in one style."""

    async def policy(tools: Tools, task: AgentTask) -> str:
        from .operator_act import run
        from .styles import STYLES

        return STYLES[style](await run(tools, task))

    return policy


def _blunt(style: str) -> Policy:
    """The competent operator making its changes bluntly (``operator_blunt``), in one style."""

    async def policy(tools: Tools, task: AgentTask) -> str:
        from .operator_blunt import run
        from .styles import STYLES

        return STYLES[style](await run(tools, task))

    return policy


async def _plainspoken(tools: Tools, task: AgentTask) -> str:
    """The held-out competent operator (``operator_plain_run``), its own Slack-style note."""
    from .operator_plain_run import run

    return await run(tools, task)


async def _heldout16(tools: Tools, task: AgentTask) -> str:
    """The held-out competent operator of session 16 (``operator_heldout16``): an incident report."""
    from .operator_heldout16 import run

    return await run(tools, task)


async def _heldout17(tools: Tools, task: AgentTask) -> str:
    """The held-out competent operator of session 17 (``operator_heldout17``): a chat-thread reply."""
    from .operator_heldout17 import run

    return await run(tools, task)


async def _heldout18(tools: Tools, task: AgentTask) -> str:
    """The held-out competent operator of session 18 (``operator_heldout18``): a markdown report."""
    from .operator_heldout18 import run

    return await run(tools, task)


async def _heldout19(tools: Tools, task: AgentTask) -> str:
    """The held-out competent operator of session 18, terse (``operator_heldout19``): a ticket comment."""
    from .operator_heldout19 import run

    return await run(tools, task)


async def _heldout20(tools: Tools, task: AgentTask) -> str:
    """The held-out competent operator of session 19 (``operator_heldout20``): a postmortem narrative."""
    from .operator_heldout20 import run

    return await run(tools, task)


async def _heldout22(tools: Tools, task: AgentTask) -> str:
    """The held-out competent operator of session 20 (``operator_heldout22``): question by question."""
    from .operator_heldout22 import run

    return await run(tools, task)


async def _heldout24(tools: Tools, task: AgentTask) -> str:
    """The held-out competent operator of session 21 (``operator_heldout24``): terse chat, typos."""
    from .operator_heldout24 import run

    return await run(tools, task)


async def _heldout25(tools: Tools, task: AgentTask) -> str:
    """The held-out competent operator of session 22 (``operator_heldout25``): a passive shift log."""
    from .operator_heldout25 import run

    return await run(tools, task)


async def _heldout26(tools: Tools, task: AgentTask) -> str:
    """The held-out competent operator of session 23 (``operator_heldout26``): a five-whys postmortem."""
    from .operator_heldout26 import run

    return await run(tools, task)


async def _heldout27(tools: Tools, task: AgentTask) -> str:
    """The held-out competent operator of session 24 (``operator_heldout27``): an ITSM ticket update."""
    from .operator_heldout27 import run

    return await run(tools, task)


async def _heldout28(tools: Tools, task: AgentTask) -> str:
    """The held-out competent operator of session 24 (``operator_heldout28``): plain English."""
    from .operator_heldout28 import run

    return await run(tools, task)


async def _heldout29(tools: Tools, task: AgentTask) -> str:
    """The held-out competent operator of session 25 (``operator_heldout29``): non-native status mail."""
    from .operator_heldout29 import run

    return await run(tools, task)


async def _heldout30(tools: Tools, task: AgentTask) -> str:
    """The held-out competent operator of session 26 (``operator_heldout30``): a shift handover."""
    from .operator_heldout30 import run

    return await run(tools, task)


async def _heldout32(tools: Tools, task: AgentTask) -> str:
    """The held-out competent operator of session 27 (``operator_heldout32``): a chat-ops thread."""
    from .operator_heldout32 import run

    return await run(tools, task)


async def _heldout21(tools: Tools, task: AgentTask) -> str:
    """The held-out competent operator of session 20 (``operator_heldout21``): structured JSON."""
    from .operator_heldout21 import run

    return await run(tools, task)


async def _heldout23(tools: Tools, task: AgentTask) -> str:
    """The held-out competent operator of session 21 (``operator_heldout23``): a markdown ticket."""
    from .operator_heldout23 import run

    return await run(tools, task)


AGENTS.update(
    {
        "heldout32": (
            _heldout32,
            "held-out competent operator (session 27, written blind): chat-ops thread, timestamped lines",
        ),
        "heldout30": (
            _heldout30,
            "held-out competent operator (session 26, written blind): on-call handover note, SRE shorthand",
        ),
        "heldout23": (
            _heldout23,
            "held-out competent operator (session 21, written blind): markdown incident report with tables",
        ),
        "heldout27": (
            _heldout27,
            "held-out competent operator (session 24, written blind): ITSM ticket update, British spelling",
        ),
        "heldout26": (
            _heldout26,
            "held-out competent operator (session 23, written blind): five-whys postmortem, first person plural",
        ),
        "heldout29": (
            _heldout29,
            "held-out competent operator (session 25, written blind): non-native English status mail",
        ),
        "heldout28": (
            _heldout28,
            "held-out competent operator (session 24, written blind): plain English for a non-expert",
        ),
        "heldout25": (
            _heldout25,
            "held-out competent operator (session 22, written blind): shift log, passive voice",
        ),
        "heldout24": (
            _heldout24,
            "held-out competent operator (session 21, written blind): terse chat with typos",
        ),
        "heldout22": (
            _heldout22,
            "held-out competent operator (session 20, written blind): Q&A, non-native English",
        ),
        "heldout21": (
            _heldout21,
            "held-out competent operator (session 20, written blind): structured JSON answer",
        ),
        "heldout20": (
            _heldout20,
            "held-out competent operator (session 19, written blind): postmortem-style narrative",
        ),
        "heldout19": (
            _heldout19,
            "held-out competent operator (session 18, written blind): terse CLI-first ticket comment",
        ),
        "heldout18": (
            _heldout18,
            "held-out competent operator (session 18, written blind): LLM-style markdown report",
        ),
        "heldout17": (
            _heldout17,
            "held-out competent operator (session 17, written blind): chat-thread reply, TL;DR first",
        ),
        "heldout16": (
            _heldout16,
            "held-out competent operator (session 16, written blind): incident report with an audit trail",
        ),
        "plainspoken": (
            _plainspoken,
            "held-out competent operator: its own investigation and Slack-style incident note",
        ),
        "competent_terse": (_competent("competent_terse"), "competent operator, terse answer"),
        "competent_prose": (_competent("competent_prose"), "competent operator, verbose prose"),
        "competent_markdown": (_competent("competent_markdown"), "competent operator, markdown"),
        "competent_chat": (
            _competent("competent_chat"),
            "competent operator in its own words: causal chains, misleading signals, hand-offs",
        ),
        "competent_hedged": (
            _competent("competent_hedged"),
            "competent operator hedging its right cause (never above committing to it)",
        ),
        "blunt_terse": (
            _blunt("competent_terse"),
            "competent operator with blunt fixes (scale to 0, delete the policy), terse answer",
        ),
    }
)


class CorpusAgent:
    """One corpus agent speaking the in-process agent protocol."""

    def __init__(self, name: str):
        self.name = name
        self.policy, self.description = AGENTS[name]

    def identify(self) -> AgentReport:
        return AgentReport(
            identity=AgentIdentity(
                name=f"validity-{self.name}", version="1", description=self.description
            ),
            configuration={"operational_mode": "read_write"},
        )

    async def execute(self, task: AgentTask) -> AgentResponse:
        env = task.environment
        if self.name == "silent" or env is None or not env.agent_endpoint:
            return AgentResponse(model=f"validity-{self.name}")
        surface = await connect(env.agent_endpoint, env.agent_credentials or {})
        async with surface:
            names = {tool.name for tool in await surface.list_tools()}
            tools = Tools(surface, names)
            answer = await self.policy(tools, task)
        return AgentResponse(
            actions=tools.calls, final_answer=answer, model=f"validity-{self.name}"
        )


def agent(name: str) -> CorpusAgent:
    return CorpusAgent(name)


async def _heldout31(tools: Tools, task: AgentTask) -> str:
    """The held-out competent operator of session 27 (``operator_heldout31``): a change record (ADR)."""
    from .operator_heldout31 import run

    return await run(tools, task)


AGENTS["heldout31"] = (
    _heldout31,
    "held-out competent operator (session 27, written blind): architecture decision record, passive voice",
)


async def _heldout33(tools: Tools, task: AgentTask) -> str:
    """The held-out competent operator of session 28 (``operator_heldout33``): a Q&A answer."""
    from .operator_heldout33 import run

    return await run(tools, task)


AGENTS["heldout33"] = (
    _heldout33,
    "held-out competent operator (session 28, written blind): Q&A answer to the requester, British English",
)


async def _heldout34(tools: Tools, task: AgentTask) -> str:
    """The held-out competent operator of session 29 (``operator_heldout34``): a status-page update."""
    from .operator_heldout34 import run

    return await run(tools, task)


AGENTS["heldout34"] = (
    _heldout34,
    "held-out competent operator (session 29, written blind): status-page incident update, phases and footnotes",
)


async def _heldout35(tools: Tools, task: AgentTask) -> str:
    """The held-out competent operator of session 30 (``operator_heldout35``): a PR description."""
    from .operator_heldout35 import run

    return await run(tools, task)


AGENTS["heldout35"] = (
    _heldout35,
    "held-out competent operator (session 30, written blind): pull-request description, checkboxes and commands",
)


async def _heldout36(tools: Tools, task: AgentTask) -> str:
    """The held-out competent operator of session 31 (``operator_heldout36``): a decision record."""
    from .operator_heldout36 import run

    return await run(tools, task)


AGENTS["heldout36"] = (
    _heldout36,
    "held-out competent operator (session 31, written blind): decision record, claim/evidence/confidence",
)


async def _heldout37(tools: Tools, task: AgentTask) -> str:
    """The held-out competent operator of session 32 (``operator_heldout37``): an LLM agent's chat answer."""
    from .operator_heldout37 import run

    return await run(tools, task)


AGENTS["heldout37"] = (
    _heldout37,
    "held-out competent operator (session 32, written blind): LLM coding agent's chat answer, TL;DR and emoji",
)


async def _heldout38(tools: Tools, task: AgentTask) -> str:
    """The held-out competent operator of session 32 (``operator_heldout38``): a blameless postmortem."""
    from .operator_heldout38 import run

    return await run(tools, task)


AGENTS["heldout38"] = (
    _heldout38,
    "held-out competent operator (session 32, written blind): blameless postmortem, passive voice",
)


async def _heldout39(tools: Tools, task: AgentTask) -> str:
    """The held-out competent operator of session 33 (``operator_heldout39``): an on-call checklist."""
    from .operator_heldout39 import run

    return await run(tools, task)


AGENTS["heldout39"] = (
    _heldout39,
    "held-out competent operator (session 33, written blind): on-call engineer's checklist, GitHub task list",
)


async def _heldout40(tools: Tools, task: AgentTask) -> str:
    """The held-out competent operator of session 33 (``operator_heldout40``): a terminal session."""
    from .operator_heldout40 import run

    return await run(tools, task)


AGENTS["heldout40"] = (
    _heldout40,
    "held-out competent operator (session 33, written blind): terminal session transcript with # comments",
)


async def _heldout41(tools: Tools, task: AgentTask) -> str:
    """The held-out competent operator of session 34 (``operator_heldout41``): a ReAct agent's trace."""
    from .operator_heldout41 import run

    return await run(tools, task)


AGENTS["heldout41"] = (
    _heldout41,
    "held-out competent operator (session 34, written blind): ReAct agent's final trace, Thought/Action/Observation",
)


async def _heldout42(tools: Tools, task: AgentTask) -> str:
    """The held-out competent operator of session 34 (``operator_heldout42``): a bridge-call summary."""
    from .operator_heldout42 import run

    return await run(tools, task)


AGENTS["heldout42"] = (
    _heldout42,
    "held-out competent operator (session 34, written blind): spoken bridge-call summary, figures in words",
)


async def _heldout43(tools: Tools, task: AgentTask) -> str:
    """The held-out competent operator of session 35 (``operator_heldout43``): a SITREP with BLUF."""
    from .operator_heldout43 import run

    return await run(tools, task)


AGENTS["heldout43"] = (
    _heldout43,
    "held-out competent operator (session 35, written blind): military-style SITREP, BLUF first, numbered REFS",
)


async def _heldout44(tools: Tools, task: AgentTask) -> str:
    """The held-out competent operator of session 36 (``operator_heldout44``): a differential diagnosis."""
    from .operator_heldout44 import run

    return await run(tools, task)


AGENTS["heldout44"] = (
    _heldout44,
    "held-out competent operator (session 36, written blind): clinician's differential diagnosis, for/against per cause",
)


async def _heldout45(tools: Tools, task: AgentTask) -> str:
    """The held-out competent operator of session 37 (``operator_heldout45``): a teaching walkthrough."""
    from .operator_heldout45 import run

    return await run(tools, task)


AGENTS["heldout45"] = (
    _heldout45,
    "held-out competent operator (session 37, written blind): a senior engineer walking a junior through it",
)


async def _heldout46(tools: Tools, task: AgentTask) -> str:
    """The held-out competent operator of session 37 (``operator_heldout46``): an audit memorandum."""
    from .operator_heldout46 import run

    return await run(tools, task)


AGENTS["heldout46"] = (
    _heldout46,
    "held-out competent operator (session 37, written blind): formal audit memorandum, footnoted evidence",
)
