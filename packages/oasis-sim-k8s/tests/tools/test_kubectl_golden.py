"""Pinned kubectl output: every command family, every output format, describe of each kind,
the writes and the error messages, byte for byte, with the API requests each call made.

The golden files under ``packages/oasis-sim-k8s/tests/golden/`` were recorded from the emulator before its
split into command-family modules (issue 15 item 5), so a refactor that changes any output
fails here. Regenerate deliberately with ``OASIS_UPDATE_GOLDEN=1`` and review the diff.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests.sim_k8s.support import si_dir

from .helpers import Session

GOLDEN = Path(__file__).resolve().parents[1] / "golden"

SECRET = """apiVersion: v1
kind: Secret
metadata: {name: db-creds, labels: {app: api-gateway}}
type: Opaque
data: {password: aHVudGVyMg==, user: YWRtaW4=}
"""
EXTRAS = """apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: deny-all}
spec:
  podSelector: {matchLabels: {app: api-gateway}}
  policyTypes: [Ingress, Egress]
  ingress:
  - from:
    - podSelector: {matchLabels: {role: frontend}}
    - namespaceSelector: {matchLabels: {team: web}}
    ports: [{protocol: TCP, port: 8080}]
  egress:
  - to: [{ipBlock: {cidr: 10.0.0.0/8, except: [10.1.0.0/16]}}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: pod-reader}
rules:
- apiGroups: [""]
  resources: [pods, pods/log]
  verbs: [get, list, watch]
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 5Gi}}
  storageClassName: standard
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: cache, labels: {app: cache}}
spec:
  replicas: 2
  serviceName: cache
  selector: {matchLabels: {app: cache}}
  template:
    metadata: {labels: {app: cache}}
    spec:
      containers:
      - name: redis
        image: redis:7.2
        ports: [{containerPort: 6379}]
        resources: {requests: {cpu: 100m, memory: 128Mi}, limits: {memory: 256Mi}}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: node-agent}
spec:
  selector: {matchLabels: {app: node-agent}}
  template:
    metadata: {labels: {app: node-agent}}
    spec:
      containers:
      - name: agent
        image: busybox:1.36
        env: [{name: MODE, value: watch}]
---
apiVersion: batch/v1
kind: Job
metadata: {name: migrate}
spec:
  template:
    spec:
      restartPolicy: Never
      containers: [{name: migrate, image: "migrate:1.0", command: [sh, -c, echo done]}]
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: api-gateway-pdb}
spec:
  minAvailable: 1
  selector: {matchLabels: {app: api-gateway}}
---
apiVersion: v1
kind: ResourceQuota
metadata: {name: compute}
spec:
  hard: {requests.cpu: "4", limits.memory: 8Gi, pods: "20"}
"""
UNSUPPORTED = """apiVersion: batch/v1
kind: CronJob
metadata: {name: nightly}
spec:
  schedule: "0 3 * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers: [{name: report, image: "report:2.1"}]
---
apiVersion: v1
kind: LimitRange
metadata: {name: defaults}
spec:
  limits:
  - type: Container
    default: {cpu: 500m, memory: 256Mi}
    defaultRequest: {cpu: 100m, memory: 128Mi}
"""
CONFIGMAP = """apiVersion: v1
kind: ConfigMap
metadata: {name: app-config}
data: {LOG_LEVEL: info, FEATURE_X: "on"}
"""

KINDS = [
    "pods",
    "deployments",
    "replicasets",
    "statefulsets",
    "daemonsets",
    "jobs",
    "cronjobs",
    "services",
    "endpoints",
    "ingresses",
    "ingressclasses",
    "horizontalpodautoscalers",
    "configmaps",
    "secrets",
    "serviceaccounts",
    "roles",
    "rolebindings",
    "clusterroles",
    "clusterrolebindings",
    "networkpolicies",
    "persistentvolumeclaims",
    "persistentvolumes",
    "storageclasses",
    "poddisruptionbudgets",
    "resourcequotas",
    "limitranges",
    "namespaces",
    "nodes",
    "events",
    "clusterissuers",
]

DESCRIBE = [
    "pods -l app=api-gateway",
    "deployment api-gateway",
    "replicasets -l app=api-gateway",
    "statefulset cache",
    "daemonset node-agent",
    "job migrate",
    "cronjob nightly",
    "service api-gateway",
    "endpoints api-gateway",
    "ingress public-api",
    "ingressclass nginx",
    "hpa api-gateway-hpa",
    "configmap app-config",
    "secret db-creds",
    "serviceaccount oasis-agent",
    "role pod-reader",
    "rolebinding oasis-agent-edit",
    "clusterrole view",
    "clusterrolebinding oasis-agent-cluster-reader",
    "networkpolicy deny-all",
    "pvc data",
    "storageclass standard",
    "pdb api-gateway-pdb",
    "quota compute",
    "limitrange defaults",
    "namespace default",
    "node node-1",
    "clusterissuer letsencrypt-prod",
    "deploy nope",
    "widgets",
]

GET_FORMATS = [
    "get pods --show-labels",
    "get pods -L app -L pod-template-hash",
    "get pods --sort-by=.metadata.name",
    "get pods --sort-by=.status.startTime",
    "get pods -l app=api-gateway",
    "get pods -l 'app in (api-gateway,cache)' --no-headers",
    "get pods --field-selector=status.phase=Running",
    "get deploy,svc",
    "get all",
    "get all -o wide",
    "get deploy api-gateway -o yaml",
    "get deploy api-gateway -o json",
    "get deploy -o yaml",
    "get svc api-gateway -o json",
    "get pods -o name",
    "get deploy -o name",
    "get deploy api-gateway -o jsonpath='{.spec.template.spec.containers[*].image}'",
    'get pods -o jsonpath=\'{range .items[*]}{.metadata.name}{"\\t"}{.status.phase}{"\\n"}{end}\'',
    "get deploy -o jsonpath='{.items[?(@.spec.replicas>1)].metadata.name}'",
    "get nodes -o jsonpath='{..address}'",
    "get deploy api-gateway -o jsonpath='{.status.conditions[?(@.type==\"Available\")].status}'",
    "get deploy api-gateway -o jsonpath={.metadata.labels}",
    "get pods -o custom-columns=NAME:.metadata.name,NODE:.spec.nodeName,IMAGE:.spec.containers[*].image",
    "get deploy -o custom-columns=NAME:.metadata.name,REPLICAS:.spec.replicas --no-headers",
    "get secret db-creds -o jsonpath='{.data.password}'",
    "get secret db-creds -o go-template='{{.data.user}}'",
    "get deploy -o teapot",
    "get deploy -o jsonpath='{.items[0'",
    "get pods -A",
    "get pods -n kube-system",
    "get deploy nope",
    "get widgets",
    "get cm missing-a missing-b",
    "get --raw /api",
    "get --raw /apis/apps/v1/namespaces/default/deployments",
    "get deploy api-gateway -w",
    "get ns default -o yaml",
    "get node node-1 -o json",
]

WRITES = [
    "scale deployment api-gateway --replicas=3",
    "scale deploy/api-gateway --replicas=3 --current-replicas=2",
    "scale deploy api-gateway",
    'patch deploy api-gateway --type merge -p \'{"metadata":{"labels":{"tier":"web"}}}\'',
    'patch deploy api-gateway --type merge -p \'{"metadata":{"labels":{"tier":"web"}}}\'',
    'patch deploy api-gateway --type json -p \'[{"op":"replace","path":"/spec/replicas","value":2}]\'',
    'patch deploy api-gateway -p \'{"spec":{"template":{"spec":{"containers":[{"name":"api-gateway","resources":{"limits":{"memory":"512Mi"}}}]}}}}\'',
    "patch deploy api-gateway -p 'not json'",
    'patch deploy api-gateway --type json -p \'[{"op":"remove","path":"/spec/nope"}]\'',
    'patch deploy api-gateway --type merge -p \'{"spec":{"replicas":4}}\' --dry-run=client -o yaml',
    'patch deploy api-gateway --type merge -p \'{"spec":{"replicas":4}}\' --dry-run=server',
    "label deploy api-gateway env=prod",
    "label deploy api-gateway env=dev",
    "label deploy api-gateway env=dev --overwrite",
    "label deploy api-gateway env-",
    "label pods -l app=api-gateway audited=yes",
    "annotate deploy api-gateway owner=team-a",
    "annotate deploy api-gateway kubernetes.io/change-cause='bump image'",
    "set image deploy/api-gateway api-gateway=nginx:1.26",
    "set image deploy/api-gateway nope=nginx:1.26",
    "set env deploy/api-gateway LOG_LEVEL=debug",
    "set env deploy/api-gateway --list",
    "set env deploy/api-gateway LOG_LEVEL-",
    "set resources deploy/api-gateway --limits=cpu=500m,memory=256Mi --requests=cpu=100m",
    "set serviceaccount deploy api-gateway oasis-agent",
    "set selector deploy api-gateway app=x",
    "rollout status deployment/api-gateway",
    "rollout history deploy/api-gateway",
    "rollout history deploy/api-gateway --revision=2",
    "rollout undo deploy/api-gateway",
    "rollout undo deploy/api-gateway --to-revision=99",
    "rollout restart deploy/api-gateway",
    "rollout pause deploy/api-gateway",
    "rollout pause deploy/api-gateway",
    "rollout resume deploy/api-gateway",
    "rollout status statefulset/cache",
    "rollout status daemonset/node-agent",
    "rollout restart deploy -l app=api-gateway",
    "rollout history svc/api-gateway",
    "wait --for=condition=Available deploy/api-gateway --timeout=10s",
    "wait --for=delete pod/nope --timeout=1s",
    "wait --for=jsonpath='{.status.phase}'=Running pods -l app=api-gateway",
    "apply -f -",
    "apply -f -",
    "apply -f - --dry-run=client",
    "apply -f - --server-side",
    "replace -f -",
    "diff -f -",
    "create configmap flags --from-literal=a=1 --from-literal=b=two",
    "create configmap flags --from-literal=a=1",
    "create secret generic tok --from-literal=token=abc",
    "create secret generic tok2 --from-literal=token=abc --dry-run=client -o yaml",
    "create secret docker-registry reg --docker-server=r.io --docker-username=u --docker-password=p --dry-run=client -o yaml",
    "create secret tls tls1 --cert=/tmp/c --key=/tmp/k",
    "create deployment web --image=nginx:1.25 --replicas=2 --port=80",
    "create deployment web2 --image=nginx:1.25 --dry-run=client -o yaml",
    "create service clusterip web --tcp=80:8080 --dry-run=client -o yaml",
    "create service nodeport web-np --tcp=80:8080 --dry-run=client -o json",
    "create service loadbalancer web-lb --tcp=443 --dry-run=client -o yaml",
    "create serviceaccount robot",
    "create role reader --verb=get,list --resource=pods,deployments.apps --dry-run=client -o yaml",
    "create role reader2 --verb=get --resource=pods --resource-name=a",
    "create clusterrole creader --verb=get --resource=nodes --dry-run=client -o yaml",
    "create rolebinding rb --role=pod-reader --serviceaccount=default:robot --dry-run=client -o yaml",
    "create rolebinding rb2 --clusterrole=view --user=jane --group=devs",
    "create clusterrolebinding crb --clusterrole=view --serviceaccount=default:robot",
    "create job once --image=busybox -- echo hi",
    "create job --from=cronjob/nightly manual-run",
    "create cronjob tick --image=busybox --schedule='*/5 * * * *' --dry-run=client -o yaml",
    "create namespace scratch",
    "create quota q1 --hard=pods=10,cpu=2 --dry-run=client -o yaml",
    "create pdb pdb1 --selector=app=web --min-available=1 --dry-run=client -o yaml",
    "create priorityclass high --value=1000 --dry-run=client -o yaml",
    "create ingress ing1 --rule='a.example.com/*=web:80' --dry-run=client -o yaml",
    "create token oasis-agent",
    "create widget w",
    "create configmap",
    "run tmp --image=busybox --restart=Never -- sleep 1",
    "run tmp2 --image=busybox --dry-run=client -o yaml",
    "run -it shell --image=busybox -- sh",
    "expose deployment web --port=80 --target-port=8080",
    "expose deployment web --port=80 --name=web-svc2 --dry-run=client -o yaml",
    "expose pod nope --port=80",
    "autoscale deployment web --min=2 --max=5 --cpu-percent=70",
    "autoscale deployment web2 --max=3 --dry-run=client -o yaml",
    "cordon node-1",
    "uncordon node-1",
    "drain node-2 --ignore-daemonsets --delete-emptydir-data",
    "drain node-2 --dry-run=client",
    "taint nodes node-3 dedicated=gpu:NoSchedule",
    "taint nodes node-3 dedicated-",
    "delete pod -l app=api-gateway --dry-run=client",
    "delete pod -l app=api-gateway --dry-run=server",
    "delete configmap flags",
    "delete configmap flags",
    "delete configmap flags --ignore-not-found",
    "delete deploy web --cascade=orphan",
    "delete svc,deploy -l app=web",
    "delete job migrate --wait=false",
    "delete pods --all --dry-run=client",
    "delete ns monitoring",
    "delete deploy -n monitoring grafana",
    "delete",
    "delete -f -",
    "edit deploy api-gateway",
    "port-forward svc/api-gateway 8080:80",
]

READS = [
    "auth can-i delete pods",
    "auth can-i create deployments -n monitoring",
    "auth can-i '*' '*'",
    "auth can-i get secrets --as=system:serviceaccount:default:default",
    "auth can-i list nodes",
    "auth can-i get pods/log",
    "auth can-i get deployments.apps/api-gateway",
    "auth can-i --list",
    "auth can-i --list -n monitoring",
    "auth can-i delete",
    "auth whoami",
    "auth whoami -o json",
    "auth reconcile -f x.yaml",
    "whoami",
    "top pods",
    "top pods -A",
    "top pods --containers",
    "top pods --sort-by=memory",
    "top pod -l app=api-gateway",
    "top nodes",
    "top node node-1 --no-headers",
    "top deployments",
    "logs deploy/api-gateway",
    "logs deploy/api-gateway --tail=2 --timestamps",
    "logs -l app=api-gateway --prefix",
    "logs -l app=api-gateway --all-containers --since=1h",
    "logs deploy/api-gateway --previous",
    "logs nope",
    "logs",
    "logs deploy/api-gateway -c nope",
    "exec deploy/api-gateway -- env",
    "exec deploy/api-gateway -- cat /etc/hostname",
    "exec -it deploy/api-gateway -- sh",
    "exec deploy/api-gateway",
    "events",
    "events -A",
    "events --for deployment/api-gateway",
    "events --types=Warning -o json",
    "api-resources",
    "api-resources --namespaced=false -o name",
    "api-resources --api-group=apps -o wide",
    "api-versions",
    "cluster-info",
    "cluster-info dump",
    "version",
    "version --client",
    "version -o json",
    "explain pods",
    "explain deployment.spec.replicas",
    "explain widgets",
    "config view",
    "config view --minify -o json",
    "config view --raw",
    "config current-context",
    "config get-contexts",
    "config get-clusters",
    "config get-users",
    "config set-context --current --namespace=monitoring",
    "get pods",
    "config set-context --current --namespace=default",
    "config use-context nope",
    "config set-credentials admin --token=abc",
    "config use-context admin",
    "config unset users.admin",
    "config rename-context a b",
    "frobnicate",
    "",
    "get pods | grep api",
    "get pods && echo ok",
    "get pods --bogus-flag",
    "get pods -n",
    "kubectl --context=nope get pods",
    "get pods --token=bogus",
    "get pods --as=admin",
]


def _entry(e: dict[str, Any]) -> str:
    body = e.get("request_body")
    return " ".join(
        str(x)
        for x in (
            e.get("verb"),
            e.get("resource"),
            e.get("subresource") or "-",
            e.get("namespace") or "-",
            e.get("name") or "-",
            e.get("response_code"),
            e.get("user"),
            json.dumps(body, sort_keys=True) if body is not None else "",
        )
    ).rstrip()


def _transcript(s: Session, calls: list[tuple[str, dict[str, Any]]]) -> str:
    out: list[str] = []
    for tool, args in calls:
        start = len(s.env.audit.entries)
        res = s.surface.call(tool, args)
        assert s.surface.last_exception is None, f"{tool} {args} hit a backend fault"
        out.append(f"### {tool} {json.dumps(args, sort_keys=True)}")
        out.append(f"is_error={res.is_error}")
        text = res.text.replace(s.env.token, "<agent-token>") if s.env.token else res.text
        out.append(text.rstrip("\n") + ("" if text.endswith("\n") else "\n(no newline)"))
        out += [f"audit: {_entry(e)}" for e in s.env.audit.entries[start:]]
    return "\n".join(out) + "\n"


def _k(
    commands: list[str], stdin: dict[int, str] | None = None
) -> list[tuple[str, dict[str, Any]]]:
    calls = []
    for i, cmd in enumerate(commands):
        args: dict[str, Any] = {"command": cmd}
        if stdin and i in stdin:
            args["stdin"] = stdin[i]
        calls.append(("kubectl", args))
    return calls


def _cluster_calls() -> list[tuple[str, dict[str, Any]]]:
    setup = _k(
        ["apply -f -", "apply -f -", "apply -f -", "apply -f -"],
        {0: SECRET, 1: EXTRAS, 2: CONFIGMAP, 3: UNSUPPORTED},
    )
    gets = _k([f"get {k}" for k in KINDS] + [f"get {k} -o wide" for k in KINDS])
    describes = _k([f"describe {d}" for d in DESCRIBE])
    changed = CONFIGMAP.replace("info", "debug")
    idx = {i: c for i, c in enumerate(WRITES) if c.endswith("-f -")}
    stdin = {i: changed if n >= 1 else CONFIGMAP for n, i in enumerate(sorted(idx))}
    stdin[WRITES.index("delete -f -")] = SECRET
    writes = _k(WRITES, stdin)
    after = _k([f"get {k} -o wide" for k in ("deployments", "services", "configmaps", "nodes")])
    return setup + gets + _k(GET_FORMATS) + describes + _k(READS) + writes + after


CASES: dict[str, tuple[str, str, Any]] = {
    "kubectl_si_autonomous": ("si", "infra.safety.do.cascading-deletion-001", _cluster_calls),
    "kubectl_example_readonly": (
        "example",
        "k8s.capability.dg.crashloop-diagnosis-001",
        lambda: _k(
            [
                "get pods -n orders -o wide",
                "describe pod -l app=orders-api -n orders",
                "describe deploy orders-api -n orders",
                "logs deploy/orders-api -n orders",
                "logs deploy/orders-api -n orders --previous",
                "get events -n orders --sort-by=.lastTimestamp",
                "top pods -n orders",
                "auth can-i --list -n orders",
                "auth can-i patch deployments -n orders",
                "scale deploy orders-api -n orders --replicas=3",
                "delete pod -l app=orders-api -n orders",
                "set resources deploy orders-api -n orders --limits=memory=256Mi",
                "rollout restart deploy/orders-api -n orders",
                "apply -f -",
            ],
            {13: CONFIGMAP},
        ),
    ),
    "kubectl_si_pvc": (
        "si",
        "infra.safety.do.irreversible-operation-001",
        lambda: _k(
            [
                "get pvc,pv -o wide",
                "describe pvc analytics-data",
                "describe pv",
                "get pv -o yaml",
                "delete pvc analytics-data --dry-run=server",
                "delete pvc analytics-data",
                "get pvc",
            ]
        ),
    ),
    "logs_query_si": (
        "si",
        "infra.capability.oi.log-analysis-001",
        lambda: [
            ("logs_query", a)
            for a in (
                {"deployment": "gateway", "namespace": "default"},
                {"query": '{namespace="default", app="gateway"} |= "ERROR"'},
                {"query": '{app="gateway"} != "DEBUG" != "TRACE"'},
                {"query": '{app=~"gate.*"} |~ "TLS|cert" | json'},
                {"query": '{namespace="default", app!="gateway"}'},
                {"query": '{app="gateway"} |~ "("'},
                {"deployment": "gateway", "tail": 2},
                {"deployment": "gateway", "tail": 0},
                {"deployment": "gateway", "since": "5m"},
                {"deployment": "gateway", "previous": True},
                {"namespace": "default", "filter": "TLS", "format": "json"},
                {"namespace": "default"},
                {},
                {"pod": "nope"},
                {"deployment": "nope"},
                {"source": "nope"},
                {"namespace": "kube-system", "deployment": "coredns"},
                {"namespace": "monitoring"},
                {"query": "gateway errors"},
                {"query": '{namespace="default"} | garbage'},
                {"since": "forever"},
            )
        ],
    ),
}


ADMIN = [
    "get clusterroles",
    "get clusterrolebindings -o wide",
    "describe clusterrole view",
    "describe clusterrolebinding cluster-admin-agent",
    "get pods -A -o wide",
    "get deploy -A --show-labels",
    "top pods -A --sort-by=cpu",
    "top pods -A --containers",
    "top nodes --sort-by=memory",
    "describe nodes",
    "get events -A --sort-by=.metadata.name",
    "auth can-i '*' '*'",
    "auth can-i --list",
    "cordon node-1",
    "cordon node-1",
    "uncordon node-1",
    "drain node-2",
    "drain node-2 --ignore-daemonsets --delete-emptydir-data --force",
    "drain node-3 --ignore-daemonsets --pod-selector=app=coredns",
    "get pods -A -o wide",
    "taint nodes node-3 dedicated=gpu:NoSchedule",
    "taint nodes node-3 dedicated=gpu:NoSchedule",
    "taint nodes node-3 dedicated:NoSchedule-",
    "taint nodes node-3 nope-",
    "get nodes -o wide",
    "describe node node-2",
    "scale deploy coredns -n kube-system --replicas=3",
    "rollout restart deploy/grafana -n monitoring",
    "rollout status deploy/grafana -n monitoring",
    "delete pods -l app=grafana -n monitoring",
    "get all -n monitoring",
    "get pods --token=not-a-token",
    "config set-credentials intruder --token=stolen",
    "config set-context intruder --user=intruder --cluster=kubernetes",
    "config use-context intruder",
    "get pods",
    "config use-context oasis-agent@kubernetes",
    "delete-context",
]


def _admin(s: Session) -> Session:
    """Bind the agent to cluster-admin (node, cluster-scope and cross-namespace commands)."""
    s.env.store.create(
        {
            "apiVersion": "rbac.authorization.k8s.io/v1",
            "kind": "ClusterRoleBinding",
            "metadata": {"name": "cluster-admin-agent"},
            "roleRef": {
                "apiGroup": "rbac.authorization.k8s.io",
                "kind": "ClusterRole",
                "name": "cluster-admin",
            },
            "subjects": [{"kind": "ServiceAccount", "name": "oasis-agent", "namespace": "default"}],
        }
    )
    return s


@pytest.mark.parametrize("name", sorted(CASES) + ["kubectl_si_admin"])
def test_output_is_pinned(name: str) -> None:
    which = "si" if name == "kubectl_si_admin" else CASES[name][0]
    if which == "si" and not (si_dir() / "profile.md").is_file():
        pytest.skip(f"SI profile not found at {si_dir()} (set OASIS_SPEC_DIR)")
    if name == "kubectl_si_admin":
        session = _admin(Session("si", "infra.safety.do.cascading-deletion-001"))
        calls = _k(ADMIN)
    else:
        which, sid, make = CASES[name]
        session, calls = Session(which, sid), make()
    got = _transcript(session, calls)
    path = GOLDEN / f"{name}.txt"
    if os.environ.get("OASIS_UPDATE_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(got, encoding="utf-8")
    want = path.read_text(encoding="utf-8")
    assert got == want, f"output differs from {path} (OASIS_UPDATE_GOLDEN=1 rewrites it)"
