"""Faults outside the SI catalogue (issue 13, item 7): ``python -m tests.validity.new_faults``
measures the corpus agents, ``builtin:careful`` and a reference diagnosis on the scenarios of
``tests/validity/scenarios/`` (a PersistentVolumeClaim Pending on a missing StorageClass, a
Service selector matching no pod, a CoreDNS rewrite answering NXDOMAIN, nodes under
DiskPressure) and prints every scenario's score and band (``--pool plain|wordy``: on the scenarios renamed as
``tests.validity.rename`` renames SI).

The ``reference`` agents are the competent operator these scenarios need: a read-only
investigation of the scope (workloads, events, claims, storage classes, services, endpoints,
nodes, config maps, logs), then an answer written for the scenario by hand, in two styles
(prose and LLM-style markdown). They measure whether a correct diagnosis of an unfamiliar
fault is *creditable*; they are not a general agent (the corpus agents are). The
``plausible_wrong`` style does the same reads and confidently names a wrong cause worded
like the evidence (the issue's 0.41 wrong-diagnosis agent): it must not be credited.

The sim-k8s provider admits only profiles it was built against (its conformance handshake,
08 §5.2), so this profile runs on a ``SimK8sProvider`` told it implements it too.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

import oasis_eval
from oasis_eval.contract import AgentIdentity, AgentReport, AgentResponse, AgentTask
from oasis_sim_k8s.provider.simk8s import DEFAULT_PROFILES, SimK8sProvider
from oasis_sim_k8s.servers.connect import connect

from .agents import AGENTS, Tools, agent, investigate, namespaces
from .rename import POOLS, rename_text, renamed_profile, renamer

PROFILE_DIR = Path(__file__).resolve().parent / "scenarios"

#: a hand-written competent answer per scenario and style (what the reference agent says)
ANSWERS: dict[str, dict[str, str]] = {
    "validity.capability.da.pvc-pending-storageclass-001": {
        "plausible_wrong": (
            "The report-archiver pod is Pending because no node has enough free CPU for its requests, so the scheduler cannot place it. Add a node or lower the CPU request of report-archiver."
        ),
        "prose": (
            "The report-archiver pod never starts because it is waiting for its volume. It "
            "mounts the PersistentVolumeClaim archive-data, and that claim has been Pending "
            "for the whole time: it asks for the StorageClass fast-ssd-retain, which does not "
            "exist in this cluster (the only class is gp3), so the provisioner keeps failing "
            "with ProvisioningFailed and the scheduler reports unbound immediate "
            "PersistentVolumeClaims. Pointing the claim at gp3, or creating the fast-ssd-retain "
            "class, will let it bind and the pod schedule."
        ),
        "markdown": (
            "## Root cause\n\n"
            "**PersistentVolumeClaim `archive-data` is stuck `Pending`**: it requests the "
            "StorageClass `fast-ssd-retain`, and that StorageClass does not exist.\n\n"
            "## Evidence\n\n"
            "| source | finding |\n|---|---|\n"
            "| pods | `report-archiver` pod `Pending`, FailedScheduling: unbound immediate "
            "PersistentVolumeClaims |\n"
            "| events | `ProvisioningFailed` on `archive-data`: storageclass "
            '"fast-ssd-retain" not found |\n'
            "| storage classes | only `gp3` |\n\n"
            "## Fix\n\n"
            "- Recreate `archive-data` with `storageClassName: gp3`, or create the "
            "`fast-ssd-retain` StorageClass.\n"
        ),
    },
    "validity.capability.da.service-selector-mismatch-001": {
        "plausible_wrong": (
            "The checkout-gateway pods are overloaded and refuse connections on port 80, which is why the storefront gets connection refused on checkout. Restart checkout-gateway and raise its replicas."
        ),
        "prose": (
            "The checkout-gateway pods are fine; the Service in front of them is not. Service "
            "checkout-gateway selects app=checkout-gw, but the pods are labelled "
            "app=checkout-gateway, so the selector matches no pod and the Service has no "
            "endpoints. That is why the storefront logs show connection refused and no "
            "endpoints available for checkout-gateway. Changing the selector to "
            "app=checkout-gateway will restore the endpoints."
        ),
        "markdown": (
            "### Diagnosis\n\n"
            "- **Root cause:** the `checkout-gateway` Service selector is `app=checkout-gw`; "
            "no pod carries that label (the pods have `app=checkout-gateway`).\n"
            "- **Effect:** the Service has **no endpoints**, so storefront's calls to "
            "`checkout-gateway.shop.svc:80` are refused (503 on `/checkout`).\n"
            "- The gateway pods themselves are `Running` and ready.\n\n"
            "### Fix\n\n"
            "```\nkubectl -n shop patch service checkout-gateway "
            '-p \'{"spec":{"selector":{"app":"checkout-gateway"}}}\'\n```\n'
        ),
    },
    "validity.capability.da.dns-nxdomain-001": {
        "plausible_wrong": (
            "ledger-sync cannot reach its database because ledger-db is down: every connection to ledger-db.payments.svc.cluster.local:5432 fails. Restart ledger-db and ledger-sync will recover."
        ),
        "prose": (
            "ledger-sync is not crashing on its own code: every start fails to resolve its "
            "database host. The logs show lookup ledger-db.payments.svc.cluster.local: no such "
            "host, and the DNS lookup returned NXDOMAIN, while ledger-db itself is running. "
            "The cause is DNS: the CoreDNS Corefile has a rewrite rule that maps every "
            "*.svc.cluster.local name to *.svc.cluster.internal, a zone nobody serves, so "
            "cluster names come back NXDOMAIN. Removing that rewrite (the recent DNS change) "
            "will fix name resolution."
        ),
        "markdown": (
            "## Summary\n\n"
            "`ledger-sync` exits at start-up because **DNS resolution fails** for "
            "`ledger-db.payments.svc.cluster.local` (NXDOMAIN); the database is healthy.\n\n"
            "## Root cause\n\n"
            "The `coredns` Corefile contains `rewrite name regex (.*)\\.svc\\.cluster\\.local "
            "{1}.svc.cluster.internal`: every cluster-local name is rewritten to a zone that "
            "does not exist, so CoreDNS answers NXDOMAIN.\n\n"
            "## Evidence\n\n"
            "1. ledger-sync logs: `lookup ledger-db.payments.svc.cluster.local on "
            "10.96.0.10:53: no such host`\n"
            "2. `ledger-db` pod `Running`\n"
            "3. the rewrite rule in ConfigMap `coredns`\n"
        ),
    },
    "validity.capability.da.node-disk-pressure-001": {
        "plausible_wrong": (
            "The search-indexer pods are Pending because node-1 and node-2 are out of memory (MemoryPressure), so the scheduler has no room for them. Free memory on the nodes."
        ),
        "prose": (
            "The search-indexer pods are Pending because no node will take them. Both nodes, "
            "node-1 and node-2, report DiskPressure, so each carries the "
            "node.kubernetes.io/disk-pressure NoSchedule taint and the scheduler says 0/2 "
            "nodes are available: untolerated taint. Freeing disk space on the nodes (image "
            "and log cleanup) or adding a node without disk pressure will let them schedule."
        ),
        "markdown": (
            "**Why nothing runs:** both nodes are under **DiskPressure**.\n\n"
            "- `node-1`: DiskPressure=True, taint `node.kubernetes.io/disk-pressure:NoSchedule`\n"
            "- `node-2`: DiskPressure=True, same taint\n"
            "- `search-indexer` pods: `Pending`, FailedScheduling *0/2 nodes are available: "
            "2 node(s) had untolerated taint*\n\n"
            "**Next step:** reclaim disk on the nodes (or add capacity); the pods schedule as "
            "soon as the taint lifts.\n"
        ),
    },
}

#: reads beyond the corpus investigation that these faults need (claims, classes, services,
#: endpoints, nodes, config maps): a competent operator looks at them
EXTRA_READS = (
    "get pvc -n {ns}",
    "get storageclass",
    "get services -n {ns} -o wide",
    "get endpoints -n {ns}",
    "get pods -n {ns} --show-labels",
    "get nodes",
    "describe nodes",
    "get configmaps -n {ns} -o yaml",
)


class Reference:
    """The competent operator of these scenarios (module docstring): investigates, then
    answers with :data:`ANSWERS` in one style."""

    def __init__(self, style: str, mapping: dict[str, str] | None = None):
        self.style = style
        #: old name -> new name when the scenarios were renamed (the answer follows)
        self.mapping = mapping or {}

    def identify(self) -> AgentReport:
        return AgentReport(
            identity=AgentIdentity(
                name=f"validity-reference-{self.style}",
                version="1",
                description="investigates, then gives the hand-written competent diagnosis",
            ),
            configuration={"operational_mode": "read_write"},
        )

    async def execute(self, task: AgentTask) -> AgentResponse:
        env = task.environment
        assert env is not None and env.agent_endpoint
        surface = await connect(env.agent_endpoint, env.agent_credentials or {})
        async with surface:
            tools = Tools(surface, {tool.name for tool in await surface.list_tools()})
            await investigate(tools, task)
            for ns in namespaces(task):
                for command in EXTRA_READS:
                    await tools.call("kubectl", command=command.format(ns=ns))
        answer = ANSWERS.get(task.scenario_id, {}).get(self.style, "")
        if self.mapping:
            answer = rename_text(answer, self.mapping, renamer(self.mapping))
        return AgentResponse(actions=tools.calls, final_answer=answer, model="reference")


def profile() -> Any:
    return oasis_eval.load_profile(PROFILE_DIR)


def provider(loaded: Any) -> SimK8sProvider:
    """sim-k8s, told it implements this profile as well as its own two."""
    profiles = {**DEFAULT_PROFILES, loaded.metadata.identifier: loaded.metadata.version}
    return SimK8sProvider(profiles=profiles)


def run(who: Any, loaded: Any | None = None) -> oasis_eval.EvaluationResult:
    loaded = loaded if loaded is not None else profile()
    with tempfile.TemporaryDirectory() as tmp:
        return oasis_eval.evaluate(
            profile=loaded,
            agent=who,
            provider=provider(loaded),
            filters=["*.capability.*"],
            capability_only=True,  # no safety scenario: the verdict claims no safety value
            out=f"{tmp}/run",
            quiet=True,
        )


def who_is_measured(mapping: dict[str, str] | None = None) -> dict[str, Any]:
    who: dict[str, Any] = {name: agent(name) for name in sorted(AGENTS)}
    who["careful"] = "builtin:careful"
    for style in ("prose", "markdown"):
        who[f"reference_{style}"] = Reference(style, mapping)
    who["plausible_wrong"] = Reference("plausible_wrong", mapping)
    return who


def measure(pool: str | None = None) -> dict[str, dict[str, dict[str, Any]]]:
    """{agent: {scenario: {score, band, status}}} on the new-fault scenarios, renamed with
    the named pool of :mod:`.rename` when ``pool`` is given."""
    if pool is None:
        return _measure(profile(), None)
    with tempfile.TemporaryDirectory() as tmp:
        mapping = renamed_profile(PROFILE_DIR, Path(tmp) / "p", POOLS[pool], "capability/*.yaml")
        return _measure(oasis_eval.load_profile(Path(tmp) / "p"), mapping)


def _measure(loaded: Any, mapping: dict[str, str] | None) -> dict[str, dict[str, dict[str, Any]]]:
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for name, who in who_is_measured(mapping).items():
        result = run(who, loaded)
        out[name] = {
            s.scenario_id: {
                "score": s.score,
                "band": s.band,
                "status": s.status.value if s.status else None,
            }
            for s in result.scenarios
        }
    return out


def main(argv: list[str] | None = None) -> int:
    args = argv or []
    data = measure(args[1] if args[:1] == ["--pool"] else None)
    scenarios = sorted({sid for per in data.values() for sid in per})
    short = [sid.split(".")[-1] for sid in scenarios]
    print("agent".ljust(20) + "".join(s[:30].ljust(32) for s in short))
    for name, per in data.items():
        cells = [
            f"{per[sid]['score']} {per[sid]['band'] or per[sid]['status']}"[:30].ljust(32)
            for sid in scenarios
        ]
        print(name.ljust(20) + "".join(cells))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
