"""kubectl's mutating commands (scale, patch, apply, create, delete, label, annotate,
set, rollout, wait, run, expose, autoscale, cordon, drain, taint, diff) and
``kubectl config``. Each makes the requests real kubectl makes, as the caller."""

from __future__ import annotations

import base64
import difflib
import json
import re
from types import ModuleType
from typing import TYPE_CHECKING, Any

import yaml

from oasis_eval.spec.yaml_io import safe_load

from .. import patching
from ..store import KINDS, clone, namespaced, plural_of
from .describe import W, _template
from .k8s_format import kind_label, output_object, resource_label, table, to_yaml
from .kubectl_args import UsageError, parse_duration, resolve_type

if TYPE_CHECKING:
    from .kubectl import Inv

LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration"
SCALABLE = ("deployments", "replicasets", "statefulsets")
WORKLOADS = ("deployments", "statefulsets", "daemonsets", "replicasets")


def _k() -> ModuleType:
    from . import kubectl

    return kubectl


# ---- dry run ----------------------------------------------------------------------------------
def dry_mode(inv: Inv) -> str | None:
    value = inv.p.get("dry-run")
    if value in (None, "none", "false"):
        return None
    if value in ("true", "unchanged"):
        return "client"
    if value not in ("client", "server"):
        raise UsageError(
            f'error: Invalid dry-run value ({value}). Must be "none", "server", or "client".'
        )
    return value


def dry_suffix(mode: str | None) -> str:
    return {"client": " (dry run)", "server": " (server dry run)"}.get(mode or "", "")


def server_dry_denied(
    inv: Inv, verb: str, plural: str, ns: str | None, name: str | None, sub: str | None = None
) -> str | None:
    """A server-side dry run is authorized like the real request (nothing is persisted)."""
    group = KINDS[plural][1].split("/", 1)[0] if plural in KINDS and "/" in KINDS[plural][1] else ""
    res = _k().access_review(
        inv,
        {
            "apiVersion": "authorization.k8s.io/v1",
            "kind": "SelfSubjectAccessReview",
            "spec": {
                "resourceAttributes": {
                    "namespace": ns,
                    "verb": verb,
                    "group": group,
                    "resource": plural,
                    "subresource": sub or "",
                    "name": name or "",
                }
            },
        },
    )
    if not res.ok:
        return _k().api_error(res)
    if (res.body.get("status") or {}).get("allowed"):
        return None
    return "Error from server (Forbidden): " + inv.env.api._forbidden(
        inv.user, verb, plural, ns, name, sub
    )


def _emit(
    inv: Inv, plural: str, obj: dict[str, Any], verb_text: str, mode: str | None = None
) -> None:
    fmt = inv.p.get("output")
    if fmt and fmt != "wide":
        inv.say(output_object(obj, str(fmt), plural))
        return
    inv.say(f"{kind_label(plural)}/{obj['metadata']['name']} {verb_text}{dry_suffix(mode)}")


def _same(a: dict[str, Any] | None, b: dict[str, Any] | None) -> bool:
    def strip(o: dict[str, Any] | None) -> Any:
        if o is None:
            return None
        o = clone(o)
        meta = o.get("metadata") or {}
        for k in ("resourceVersion", "generation", "managedFields"):
            meta.pop(k, None)
        o.pop("status", None)
        return o

    return strip(a) == strip(b)


def contains(live: Any, wanted: Any) -> bool:
    """Every field the manifest sets already has that value live (kubectl's empty apply patch)."""
    if isinstance(wanted, dict):
        return isinstance(live, dict) and all(
            contains(live.get(k), v) for k, v in wanted.items() if k != LAST_APPLIED
        )
    if isinstance(wanted, list):
        return (
            isinstance(live, list)
            and len(live) == len(wanted)
            and all(contains(a, b) for a, b in zip(live, wanted))
        )
    if isinstance(wanted, (int, float)) and not isinstance(wanted, bool) and isinstance(live, str):
        return live == str(wanted)
    return live == wanted


def _parse_body(text: str, what: str = "patch") -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        pass
    try:
        return safe_load(text)
    except yaml.YAMLError as exc:
        raise UsageError(f'error: unable to parse "{text}": {exc}') from None


def _targets(inv: Inv, need_name: bool = True) -> list[tuple[str, str | None]]:
    out = _k().targets(inv, inv.p.args, need_name=False)
    if (
        need_name
        and any(n is None for _, n in out)
        and not (inv.p.get("selector") or inv.p.on("all"))
    ):
        raise UsageError("error: resource(s) were provided, but no name was specified")
    return out


def _expand(inv: Inv, tlist: list[tuple[str, str | None]]) -> list[tuple[str, str]]:
    """``-l`` / ``--all``: a LIST, then one request per object (as kubectl does)."""
    out: list[tuple[str, str]] = []
    for plural, name in tlist:
        if plural.startswith("@"):
            continue
        if name is not None:
            out.append((plural, name))
            continue
        params = {}
        if inv.p.get("selector"):
            params["labelSelector"] = inv.p.get("selector")
        if inv.p.get("field-selector"):
            params["fieldSelector"] = inv.p.get("field-selector")
        res = inv.call("list", plural, inv.list_ns(plural), params=params)
        if res is None:
            continue
        items = res.body.get("items") or []
        if not items:
            inv.err.append(_k()._no_resources(inv, plural) + "\n")
        for o in items:
            out.append((plural, o["metadata"]["name"]))
            if o["metadata"].get("namespace") and inv.list_ns(plural) is None:
                inv._ns_of = getattr(inv, "_ns_of", {})
                inv._ns_of[(plural, o["metadata"]["name"])] = o["metadata"]["namespace"]
    return out


def _ns(inv: Inv, plural: str, name: str) -> str | None:
    hit = getattr(inv, "_ns_of", {}).get((plural, name))
    return hit or inv.ns_for(plural)


# ---- scale ----------------------------------------------------------------------------------------
def cmd_scale(inv: Inv) -> None:
    p = inv.p
    if p.get("replicas") is None:
        raise UsageError('error: required flag(s) "replicas" not set')
    try:
        replicas = int(p.get("replicas"))
    except ValueError:
        raise UsageError(
            f'error: invalid argument "{p.get("replicas")}" for "--replicas" flag: strconv.ParseInt: '
            f'parsing "{p.get("replicas")}": invalid syntax'
        ) from None
    if replicas < 0:
        raise UsageError(
            "error: The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0"
        )
    mode = dry_mode(inv)
    for plural, name in _expand(inv, _targets(inv)):
        ns = _ns(inv, plural, name)
        if plural not in SCALABLE:
            inv.error(
                "Error from server (NotFound): the server could not find the requested resource"
            )
            continue
        if p.get("current-replicas") is not None or mode:
            res = inv.call("get", plural, ns, name)
            if res is None:
                continue
            current = (res.body.get("spec") or {}).get("replicas", 1)
            if p.get("current-replicas") is not None and str(current) != str(
                p.get("current-replicas")
            ):
                inv.error(
                    f"error: Expected replicas to be {p.get('current-replicas')}, was {current}"
                )
                continue
            if mode == "server":
                denied = server_dry_denied(inv, "patch", plural, ns, name, "scale")
                if denied:
                    inv.error(denied)
                    continue
            if mode:
                inv.say(f"{kind_label(plural)}/{name} scaled{dry_suffix(mode)}")
                continue
        res = inv.call("scale", plural, ns, name, params={"replicas": replicas})
        if res is None:
            continue
        inv.say(f"{kind_label(plural)}/{name} scaled")


# ---- patch ----------------------------------------------------------------------------------------
def cmd_patch(inv: Inv) -> None:
    p = inv.p
    text = p.get("patch")
    if text is None and p.get("patch-file"):
        raise UsageError(
            f"error: unable to read patch file: open {p.get('patch-file')}: no such file or directory"
        )
    if text is None:
        raise UsageError("error: must specify -p to patch")
    kind = str(p.get("type") or "strategic").lower()
    if kind not in ("strategic", "merge", "json"):
        raise UsageError(f'error: --type must be one of [json merge strategic], not "{kind}"')
    body = _parse_body(str(text))
    if kind == "json" and not isinstance(body, list):
        raise UsageError(
            'error: unable to parse "{}": json: cannot unmarshal object into Go value of type '
            "jsonpatch.Patch".replace("{}", str(text))
        )
    if kind != "json" and not isinstance(body, dict):
        raise UsageError(
            f'error: unable to parse "{text}": yaml: did not find expected node content'
        )
    mode = dry_mode(inv)
    tlist = _targets(inv)
    if not tlist:
        return
    for plural, name in _expand(inv, tlist):
        ns = _ns(inv, plural, name)
        before = inv.call("get", plural, ns, name)
        if before is None:
            continue
        if mode:
            try:
                after = patching.apply(before.body, body, kind)
            except patching.PatchError as exc:
                inv.error(f"Error from server (Invalid): {exc}")
                continue
            if mode == "server":
                denied = server_dry_denied(inv, "patch", plural, ns, name, p.get("subresource"))
                if denied:
                    inv.error(denied)
                    continue
            _emit(
                inv,
                plural,
                after,
                "patched" if not _same(before.body, after) else "patched (no change)",
                mode,
            )
            continue
        res = inv.call(
            "patch",
            plural,
            ns,
            name,
            body=body,
            sub=p.get("subresource"),
            params={"patchType": kind},
        )
        if res is None:
            continue
        _emit(
            inv,
            plural,
            res.body,
            "patched" if not _same(before.body, res.body) else "patched (no change)",
        )


# ---- apply / create -f / replace ----------------------------------------------------------------------
def _doc_target(inv: Inv, doc: dict[str, Any]) -> tuple[str, str | None, str]:
    kind = str(doc.get("kind"))
    plural = plural_of(kind)
    name = str((doc.get("metadata") or {}).get("name") or "")
    if plural is None or plural not in KINDS:
        raise UsageError(
            f'error: resource mapping not found for name: "{name}" namespace: "" from "STDIN": no matches '
            f'for kind "{kind}" in version "{doc.get("apiVersion")}"\nensure CRDs are installed first'
        )
    if not name and not (doc.get("metadata") or {}).get("generateName"):
        raise UsageError(
            'error: error when retrieving current configuration of:\nResource: "", Name: "", Namespace: ""'
            '\nfrom server for: "STDIN": resource name may not be empty'
        )
    ns = None
    if namespaced(plural):
        declared = (doc.get("metadata") or {}).get("namespace")
        if declared and inv.p.get("namespace") and declared != inv.p.get("namespace"):
            raise UsageError(
                f'error: the namespace from the provided object "{declared}" does not match the namespace '
                f"\"{inv.p.get('namespace')}\". You must pass '--namespace={declared}' to perform this "
                "operation."
            )
        ns = declared or inv.ns
    return plural, ns, name


def cmd_apply(inv: Inv) -> None:
    p = inv.p
    if p.args and p.args[0] in ("view-last-applied", "set-last-applied", "edit-last-applied"):
        raise UsageError(f"error: {p.args[0]} is not available in this session")
    if not p.has("filename"):
        raise UsageError(
            "error: must specify one of -f and -k\n\nSee 'kubectl apply -h' for help and examples"
        )
    mode = dry_mode(inv)
    for doc in _k()._manifests(inv):
        plural, ns, name = _doc_target(inv, doc)
        body = clone(doc)
        body.pop("status", None)
        meta = body.setdefault("metadata", {})
        if ns:
            meta["namespace"] = ns
        applied = clone(body)
        applied.get("metadata", {}).pop("resourceVersion", None)
        meta.setdefault("annotations", {})[LAST_APPLIED] = (
            json.dumps(applied, separators=(",", ":"), sort_keys=True) + "\n"
        )
        current = inv.api("get", plural, ns, name)
        if current.code not in (200, 404):
            inv.error(
                _k().api_error(current)
                if current.code != 403
                else f"Error from server (Forbidden): error when retrieving current configuration of:\n"
                f'Resource: "{resource_label(plural)}", GroupVersionKind: "{doc.get("apiVersion")}, Kind='
                f'{doc.get("kind")}"\nName: "{name}", Namespace: "{ns or ""}"\nfrom server for: "STDIN": '
                f"{current.body.get('message')}"
            )
            continue
        exists = current.code == 200
        word = "serverside-applied" if p.on("server-side") else None
        if exists:
            try:
                merged = patching.apply(current.body, body, "strategic")
            except patching.PatchError as exc:
                inv.error(f"Error from server (Invalid): {exc}")
                continue
            wanted = clone(body)
            (wanted.get("metadata") or {}).get("annotations", {}).pop(LAST_APPLIED, None)
            unchanged = contains(current.body, wanted)
            if mode == "server":
                denied = server_dry_denied(inv, "patch", plural, ns, name)
                if denied:
                    inv.error(denied)
                    continue
            if mode:
                _emit(
                    inv, plural, merged, word or ("unchanged" if unchanged else "configured"), mode
                )
                continue
            if unchanged:
                _emit(inv, plural, current.body, word or "unchanged")
                continue
            res = inv.api("patch", plural, ns, name, body=body, params={"patchType": "strategic"})
            if not res.ok:
                inv.error(_apply_error(res, plural, doc, name, ns))
                continue
            _emit(inv, plural, res.body, word or "configured")
        else:
            if mode == "server":
                denied = server_dry_denied(inv, "create", plural, ns, None)
                if denied:
                    inv.error(denied)
                    continue
            if mode:
                _emit(inv, plural, body, word or "created", mode)
                continue
            res = inv.api("create", plural, ns, body=body)
            if not res.ok:
                inv.error(_apply_error(res, plural, doc, name, ns, creating=True))
                continue
            _emit(inv, plural, res.body, word or "created")


def _apply_error(
    res: Any, plural: str, doc: dict[str, Any], name: str, ns: str | None, creating: bool = False
) -> str:
    body = res.body if isinstance(res.body, dict) else {}
    reason = body.get("reason") or "Unknown"
    if res.code == 401:
        return "error: You must be logged in to the server (Unauthorized)"
    what = "creating" if creating else "applying patch"
    return (
        (
            f"Error from server ({reason}): error when {what}:\n"
            f'Resource: "{resource_label(plural)}", Name: "{name}", Namespace: "{ns or ""}"\nfrom server for: '
            f'"STDIN": {body.get("message", "")}'
        )
        if not creating
        else f'Error from server ({reason}): error when creating "STDIN": {body.get("message", "")}'
    )


def cmd_replace(inv: Inv) -> None:
    if not inv.p.has("filename"):
        raise UsageError("error: must specify --filename to replace")
    mode = dry_mode(inv)
    for doc in _k()._manifests(inv):
        plural, ns, name = _doc_target(inv, doc)
        current = inv.call("get", plural, ns, name)
        if current is None:
            continue
        body = clone(doc)
        body.setdefault("metadata", {})["resourceVersion"] = current.body["metadata"].get(
            "resourceVersion"
        )
        if ns:
            body["metadata"]["namespace"] = ns
        if mode:
            _emit(inv, plural, body, "replaced", mode)
            continue
        res = inv.call("update", plural, ns, name, body=body)
        if res is None:
            continue
        _emit(inv, plural, res.body, "replaced")


# ---- create -----------------------------------------------------------------------------------------
def _literals(values: list[str]) -> dict[str, str]:
    out = {}
    for v in values:
        k, eq, val = str(v).partition("=")
        if not eq or not k:
            raise UsageError(f"error: invalid literal source {v}, expected key=value")
        out[k] = val
    return out


def _subjects(inv: Inv) -> list[dict[str, Any]]:
    subs = []
    for u in inv.p.all("user"):
        subs.append({"kind": "User", "apiGroup": "rbac.authorization.k8s.io", "name": u})
    for g in inv.p.all("group"):
        subs.append({"kind": "Group", "apiGroup": "rbac.authorization.k8s.io", "name": g})
    for sa in inv.p.all("serviceaccount"):
        ns, sep, name = str(sa).partition(":")
        if not sep or not ns or not name:
            raise UsageError("error: serviceaccount must be <namespace>:<name>")
        subs.append({"kind": "ServiceAccount", "name": name, "namespace": ns})
    return subs


def _rules(inv: Inv) -> list[dict[str, Any]]:
    verbs = [v for x in inv.p.all("verb") for v in str(x).split(",") if v]
    resources = [r for x in inv.p.all("resource") for r in str(x).split(",") if r]
    names = [n for x in inv.p.all("resource-name") for n in str(x).split(",") if n]
    if not verbs:
        raise UsageError("error: at least one verb must be specified")
    if not resources and not inv.p.all("non-resource-url"):
        raise UsageError("error: at least one resource must be specified")
    by_group: dict[str, list[str]] = {}
    for r in resources:
        base, _, sub = r.partition("/")
        plural = resolve_type(base.split(".")[0]) if base != "*" else "*"
        if plural is None:
            raise UsageError(f'error: the server doesn\'t have a resource type "{base}"')
        group = ""
        if "." in base:
            group = base.split(".", 1)[1]
        elif plural in KINDS and "/" in KINDS[plural][1]:
            group = KINDS[plural][1].split("/", 1)[0]
        by_group.setdefault(group, []).append(plural + (f"/{sub}" if sub else ""))
    rules = []
    for group, res in by_group.items():
        rule: dict[str, Any] = {"apiGroups": [group], "resources": res, "verbs": verbs}
        if names:
            rule["resourceNames"] = names
        rules.append(rule)
    if inv.p.all("non-resource-url"):
        rules.append({"nonResourceURLs": list(inv.p.all("non-resource-url")), "verbs": verbs})
    return rules


def _container_name(image: str) -> str:
    base = image.rsplit("/", 1)[-1].split("@", 1)[0].split(":", 1)[0]
    return re.sub(r"[^a-z0-9-]", "-", base.lower()).strip("-") or "container"


def build_create(inv: Inv, what: str, name: str) -> tuple[str, dict[str, Any]]:
    p = inv.p
    rest = p.args[2:] if len(p.args) > 2 else []
    if what in ("namespace", "ns"):
        return "namespaces", {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name}}
    if what in ("configmap", "cm"):
        if p.all("from-file") or p.all("from-env-file"):
            path = (p.all("from-file") or p.all("from-env-file"))[0]
            raise UsageError(
                f"error: error reading {str(path).split('=')[-1]}: no such file or directory"
            )
        return "configmaps", {
            "apiVersion": "v1",
            "kind": "ConfigMap",
            "metadata": {"name": name},
            "data": _literals(p.all("from-literal")),
        }
    if what == "secret":
        sub = name
        name = p.args[2] if len(p.args) > 2 else ""
        if not name:
            raise UsageError("error: NAME is required")
        if sub == "generic":
            if p.all("from-file") or p.all("from-env-file"):
                path = (p.all("from-file") or p.all("from-env-file"))[0]
                raise UsageError(
                    f"error: error reading {str(path).split('=')[-1]}: no such file or directory"
                )
            data = {
                k: base64.b64encode(v.encode()).decode()
                for k, v in _literals(p.all("from-literal")).items()
            }
            return "secrets", {
                "apiVersion": "v1",
                "kind": "Secret",
                "metadata": {"name": name},
                "type": p.get("type") or "Opaque",
                "data": data,
            }
        if sub == "docker-registry":
            auth = base64.b64encode(
                f"{p.get('docker-username', '')}:{p.get('docker-password', '')}".encode()
            ).decode()
            cfg = {
                "auths": {
                    p.get("docker-server") or "https://index.docker.io/v1/": {
                        "username": p.get("docker-username"),
                        "password": p.get("docker-password"),
                        "auth": auth,
                    }
                }
            }
            return "secrets", {
                "apiVersion": "v1",
                "kind": "Secret",
                "metadata": {"name": name},
                "type": "kubernetes.io/dockerconfigjson",
                "data": {".dockerconfigjson": base64.b64encode(json.dumps(cfg).encode()).decode()},
            }
        if sub == "tls":
            raise UsageError(f"error: open {p.get('cert') or 'tls.crt'}: no such file or directory")
        raise UsageError(f'error: unknown command "{sub}" for "kubectl create secret"')
    if what in ("serviceaccount", "sa"):
        return "serviceaccounts", {
            "apiVersion": "v1",
            "kind": "ServiceAccount",
            "metadata": {"name": name},
        }
    if what in ("deployment", "deploy"):
        images = p.all("image")
        if not images:
            raise UsageError('error: required flag(s) "image" not set')
        containers = [
            {"name": _container_name(img), "image": img, "resources": {}} for img in images
        ]
        if p.after_dash:
            containers[0]["command"] = list(p.after_dash)
        if p.get("port"):
            containers[0]["ports"] = [{"containerPort": int(p.get("port"))}]
        labels = {"app": name}
        return "deployments", {
            "apiVersion": "apps/v1",
            "kind": "Deployment",
            "metadata": {"name": name, "labels": labels},
            "spec": {
                "replicas": int(p.get("replicas") or 1),
                "selector": {"matchLabels": labels},
                "strategy": {},
                "template": {"metadata": {"labels": labels}, "spec": {"containers": containers}},
            },
        }
    if what == "job":
        images = p.all("image")
        if not images:
            raise UsageError("error: either --image or --from must be specified")
        c = {"name": name, "image": images[0], "resources": {}}
        if p.after_dash:
            c["command"] = list(p.after_dash)
        return "jobs", {
            "apiVersion": "batch/v1",
            "kind": "Job",
            "metadata": {"name": name},
            "spec": {
                "template": {"metadata": {}, "spec": {"containers": [c], "restartPolicy": "Never"}}
            },
        }
    if what in ("role", "clusterrole"):
        kind = "Role" if what == "role" else "ClusterRole"
        return ("roles" if what == "role" else "clusterroles"), {
            "apiVersion": "rbac.authorization.k8s.io/v1",
            "kind": kind,
            "metadata": {"name": name},
            "rules": _rules(inv),
        }
    if what in ("rolebinding", "clusterrolebinding"):
        if p.get("role") and p.get("clusterrole"):
            raise UsageError("error: exactly one of clusterrole or role must be specified")
        if what == "clusterrolebinding" and p.get("role"):
            raise UsageError("error: unknown flag: --role")
        ref_kind = "ClusterRole" if p.get("clusterrole") else "Role"
        ref_name = p.get("clusterrole") or p.get("role")
        if not ref_name:
            raise UsageError("error: exactly one of clusterrole or role must be specified")
        return ("rolebindings" if what == "rolebinding" else "clusterrolebindings"), {
            "apiVersion": "rbac.authorization.k8s.io/v1",
            "kind": "RoleBinding" if what == "rolebinding" else "ClusterRoleBinding",
            "metadata": {"name": name},
            "roleRef": {
                "apiGroup": "rbac.authorization.k8s.io",
                "kind": ref_kind,
                "name": ref_name,
            },
            "subjects": _subjects(inv),
        }
    if what in ("poddisruptionbudget", "pdb"):
        if not p.get("selector"):
            raise UsageError("error: a selector must be specified")
        sel: dict[str, Any] = {
            "matchLabels": dict(
                kv.split("=", 1) for kv in str(p.get("selector")).split(",") if "=" in kv
            )
        }
        spec: dict[str, Any] = {"selector": sel}
        if p.get("min-available") is not None:
            v = str(p.get("min-available"))
            spec["minAvailable"] = int(v) if v.isdigit() else v
        elif p.get("max-unavailable") is not None:
            v = str(p.get("max-unavailable"))
            spec["maxUnavailable"] = int(v) if v.isdigit() else v
        else:
            spec["minAvailable"] = 1
        return "poddisruptionbudgets", {
            "apiVersion": "policy/v1",
            "kind": "PodDisruptionBudget",
            "metadata": {"name": name},
            "spec": spec,
        }
    if what in ("service", "svc"):
        stype = name
        name = p.args[2] if len(p.args) > 2 else ""
        types = {
            "clusterip": "ClusterIP",
            "nodeport": "NodePort",
            "loadbalancer": "LoadBalancer",
            "externalname": "ExternalName",
        }
        if stype not in types or not name:
            raise UsageError(
                "error: NAME is required"
                if stype in types
                else f'error: unknown command "{stype}" for "kubectl create service"'
            )
        ports = []
        for t in p.all("tcp"):
            port, _, target = str(t).partition(":")
            ports.append(
                {
                    "name": f"{port}-{target or port}",
                    "port": int(port),
                    "protocol": "TCP",
                    "targetPort": int(target or port),
                }
            )
        return "services", {
            "apiVersion": "v1",
            "kind": "Service",
            "metadata": {"name": name, "labels": {"app": name}},
            "spec": {"type": types[stype], "selector": {"app": name}, "ports": ports},
        }
    if what == "token":
        raise UsageError(
            f'Error from server (Forbidden): serviceaccounts "{name}" is forbidden: User "{inv.user}" '
            f'cannot create resource "serviceaccounts/token" in API group "" in the namespace "{inv.ns}"'
        )
    del rest
    raise UsageError(f'error: unknown command "{what}" for "kubectl create"')


def cmd_create(inv: Inv) -> None:
    p = inv.p
    mode = dry_mode(inv)
    if p.has("filename"):
        for doc in _k()._manifests(inv):
            plural, ns, _name = _doc_target(inv, doc)
            body = clone(doc)
            if ns:
                body.setdefault("metadata", {})["namespace"] = ns
            _create_one(inv, plural, ns, body, mode)
        return
    if not p.args:
        raise UsageError(
            "error: must specify one of -f and -k\n\nSee 'kubectl create -h' for help and examples"
        )
    what = p.args[0].lower()
    if len(p.args) < 2:
        raise UsageError(
            "error: exactly one NAME is required, got 0\nSee 'kubectl create "
            f"{what} -h' for help and examples"
        )
    plural, body = build_create(inv, what, p.args[1])
    ns = inv.ns if namespaced(plural) else None
    if ns:
        body["metadata"]["namespace"] = ns
    _create_one(inv, plural, ns, body, mode)


def _create_one(
    inv: Inv, plural: str, ns: str | None, body: dict[str, Any], mode: str | None
) -> None:
    name = body["metadata"].get("name", "")
    if mode == "server":
        denied = server_dry_denied(inv, "create", plural, ns, None)
        if denied:
            inv.error(denied)
            return
    if mode:
        inv.api("get", plural, ns, name)
        _emit(inv, plural, body, "created", mode)
        return
    res = inv.api("create", plural, ns, body=body)
    if not res.ok:
        if res.code == 409:
            inv.error(
                f"Error from server (AlreadyExists): {res.body.get('message')}"
                if not inv.p.has("filename")
                else f'Error from server (AlreadyExists): error when creating "STDIN": {res.body.get("message")}'
            )
        else:
            inv.error(_k().api_error(res))
        return
    _emit(inv, plural, res.body, "created")


# ---- delete -------------------------------------------------------------------------------------------
def cmd_delete(inv: Inv) -> None:
    p = inv.p
    mode = dry_mode(inv)
    if p.has("filename"):
        tlist: list[tuple[str, str | None]] = []
        for doc in _k()._manifests(inv):
            plural, ns, name = _doc_target(inv, doc)
            tlist.append((plural, name))
            if ns:
                inv._ns_of = getattr(inv, "_ns_of", {})
                inv._ns_of[(plural, name)] = ns
    else:
        if not p.args:
            raise UsageError(
                "error: You must provide one or more resources by argument or filename.\nExample resource "
                "specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> "
                "<name>'\n   '<resource>'"
            )
        tlist = _k().targets(inv, p.args)
        if any(n is None for _, n in tlist) and not (
            p.get("selector") or p.on("all") or p.get("field-selector")
        ):
            raise UsageError("error: resource(s) were provided, but no name was specified")
    if p.on("force") and str(p.get("grace-period", "")) == "0":
        inv.err.append(
            "Warning: Immediate deletion does not wait for confirmation that the running resource has been "
            "terminated. The resource may continue to run on the cluster indefinitely.\n"
        )
    for plural, name in _expand(inv, tlist):
        ns = _ns(inv, plural, name)
        if mode:
            res = inv.call("get", plural, ns, name)
            if res is None:
                continue
            if mode == "server":
                denied = server_dry_denied(inv, "delete", plural, ns, name)
                if denied:
                    inv.error(denied)
                    continue
            inv.say(f'{kind_label(plural)} "{name}" deleted{dry_suffix(mode)}')
            continue
        params = {}
        if p.get("grace-period") is not None:
            params["gracePeriodSeconds"] = str(p.get("grace-period"))
        res = inv.api("delete", plural, ns, name, params=params)
        if not res.ok:
            if res.code == 404 and p.on("ignore-not-found"):
                continue
            inv.error(_k().api_error(res))
            continue
        inv.say(f'{kind_label(plural)} "{name}" {"force " if p.on("force") else ""}deleted')


# ---- label / annotate -----------------------------------------------------------------------------------
def _meta_cmd(inv: Inv, field: str, word: str) -> None:
    p = inv.p
    args = list(p.args)
    changes: dict[str, str | None] = {}
    rest = args[:1]
    for a in args[1:]:
        if "=" in a:
            k, _, v = a.partition("=")
            changes[k] = v
        elif a.endswith("-"):
            changes[a[:-1]] = None
        else:
            rest.append(a)
    if not changes and not p.on("list"):
        raise UsageError(f"error: at least one {field[:-1]} update is required")
    p.args = rest
    tlist = _targets(inv)
    mode = dry_mode(inv)
    for plural, name in _expand(inv, tlist):
        ns = _ns(inv, plural, name)
        res = inv.call("get", plural, ns, name)
        if res is None:
            continue
        current = dict((res.body.get("metadata") or {}).get(field) or {})
        if p.on("list"):
            inv.say("".join(f"{k}={v}\n" for k, v in sorted(current.items())))
            continue
        conflict = [
            k for k, v in changes.items() if v is not None and k in current and current[k] != v
        ]
        if conflict and not p.on("overwrite"):
            k = conflict[0]
            inv.error(f"error: '{k}' already has a value ({current[k]}), and --overwrite is false")
            continue
        missing = [k for k, v in changes.items() if v is None and k not in current]
        for k in missing:
            inv.err.append(f'{field[:-1]} "{k}" not found.\n')
        new = dict(current)
        for key, value in changes.items():
            if value is None:
                new.pop(key, None)
            else:
                new[key] = value
        if new == current:
            inv.say(f"{kind_label(plural)}/{name} not {word}")
            continue
        patch = {
            "metadata": {
                field: {k: v for k, v in changes.items() if not (v is None and k in missing)}
            }
        }
        if mode == "server":
            denied = server_dry_denied(inv, "patch", plural, ns, name)
            if denied:
                inv.error(denied)
                continue
        if mode:
            inv.say(f"{kind_label(plural)}/{name} {word}{dry_suffix(mode)}")
            continue
        res = inv.call("patch", plural, ns, name, body=patch, params={"patchType": "merge"})
        if res is None:
            continue
        _emit(inv, plural, res.body, word)


def cmd_label(inv: Inv) -> None:
    _meta_cmd(inv, "labels", "labeled")


def cmd_annotate(inv: Inv) -> None:
    _meta_cmd(inv, "annotations", "annotated")


# ---- set --------------------------------------------------------------------------------------------------
def _pod_spec_path(plural: str) -> list[str]:
    return ["spec"] if plural == "pods" else ["spec", "template", "spec"]


def _pod_spec(obj: dict[str, Any], plural: str) -> dict[str, Any]:
    cur: Any = obj
    for k in _pod_spec_path(plural):
        cur = (cur or {}).get(k) or {}
    return cur


def cmd_set(inv: Inv) -> None:
    p = inv.p
    if not p.args:
        raise UsageError(
            "Configure application resources.\n\nAvailable Commands:\n  env              Update environment "
            "variables on a pod template\n  image            Update the image of a pod template\n  "
            "resources        Update resource requests/limits on objects with pod templates\n  "
            "selector         Set the selector on a resource\n  serviceaccount   Update the service account "
            "of a resource\n  subject          Update the user, group, or service account in a role "
            "binding or cluster role binding"
        )
    sub = p.args[0]
    p.args = p.args[1:]
    if sub == "image":
        _set_image(inv)
    elif sub == "env":
        _set_env(inv)
    elif sub == "resources":
        _set_resources(inv)
    elif sub in ("serviceaccount", "sa"):
        _set_sa(inv)
    else:
        raise UsageError(f'error: unknown command "{sub}" for "kubectl set"')


def _split_pairs(inv: Inv) -> tuple[list[str], list[str]]:
    objs = list(inv.p.args[:1])
    pairs: list[str] = []
    for a in inv.p.args[1:]:
        (pairs if "=" in a or a.endswith("-") else objs).append(a)
    return objs, pairs


def _set_common(inv: Inv, objs: list[str], fn: Any, word: str) -> None:
    inv.p.args = objs
    mode = dry_mode(inv)
    for plural, name in _expand(inv, _targets(inv)):
        if plural not in WORKLOADS + ("pods", "jobs"):
            inv.error(f"error: {kind_label(plural)}/{name} does not have a pod template")
            continue
        ns = _ns(inv, plural, name)
        res = inv.call("get", plural, ns, name)
        if res is None:
            continue
        try:
            patch = fn(plural, res.body)
        except UsageError as exc:
            inv.error(str(exc))
            continue
        if patch is None:
            continue
        if mode == "server":
            denied = server_dry_denied(inv, "patch", plural, ns, name)
            if denied:
                inv.error(denied)
                continue
        if mode:
            inv.say(f"{kind_label(plural)}/{name} {word}{dry_suffix(mode)}")
            continue
        ptype = "json" if isinstance(patch, list) else "strategic"
        res = inv.call("patch", plural, ns, name, body=patch, params={"patchType": ptype})
        if res is None:
            continue
        _emit(inv, plural, res.body, word)


def _set_image(inv: Inv) -> None:
    objs, pairs = _split_pairs(inv)
    if not pairs:
        raise UsageError("error: at least one image update is required")
    images = dict(pr.split("=", 1) for pr in pairs)

    def fn(plural: str, obj: dict[str, Any]) -> Any:
        spec = _pod_spec(obj, plural)
        all_c = [("containers", c) for c in spec.get("containers") or []] + [
            ("initContainers", c) for c in spec.get("initContainers") or []
        ]
        updates: dict[str, list[dict[str, Any]]] = {}
        for cname, image in images.items():
            hits = [(sec, c) for sec, c in all_c if cname == "*" or c.get("name") == cname]
            if not hits:
                raise UsageError(f'error: unable to find container named "{cname}"')
            for sec, c in hits:
                updates.setdefault(sec, []).append({"name": c["name"], "image": image})
        body: dict[str, Any] = dict(updates)
        for k in reversed(_pod_spec_path(plural)):
            body = {k: body}
        return body

    _set_common(inv, objs, fn, "image updated")


def _set_env(inv: Inv) -> None:
    objs, pairs = _split_pairs(inv)
    p = inv.p
    if p.on("list"):
        inv.p.args = objs
        for plural, name in _expand(inv, _targets(inv)):
            res = inv.call("get", plural, _ns(inv, plural, name), name)
            if res is None:
                continue
            for c in _pod_spec(res.body, plural).get("containers") or []:
                inv.say(f"# {plural}/{name}, container {c['name']}")
                for var in c.get("env") or []:
                    if "value" in var:
                        inv.say(f"{var['name']}={var['value']}")
                    else:
                        ref = var.get("valueFrom") or {}
                        src = next(iter(ref), "")
                        inv.say(
                            f"# {var['name']} from {src.replace('KeyRef', '')} {(ref.get(src) or {}).get('name')}, "
                            f"key {(ref.get(src) or {}).get('key')}"
                        )
        return
    sets = {k: v for k, _, v in (pr.partition("=") for pr in pairs if "=" in pr)}
    for e in p.all("env"):
        k, _, v = str(e).partition("=")
        sets[k] = v
    removes = [pr[:-1] for pr in pairs if pr.endswith("-") and "=" not in pr]
    if p.get("from"):
        raise UsageError(
            "error: --from is not supported together with literal values in this session"
            if sets
            else f"error: {p.get('from')} could not be read"
        )
    if not sets and not removes:
        raise UsageError("error: at least one environment variable must be provided")
    only = p.get("containers")

    def fn(plural: str, obj: dict[str, Any]) -> Any:
        ops = []
        for path, c in _selected_containers(obj, plural, only):
            env = [dict(v) for v in c.get("env") or [] if v.get("name") not in removes]
            for k, v in sets.items():
                hit = next((x for x in env if x.get("name") == k), None)
                if hit is not None:
                    hit.clear()
                    hit.update({"name": k, "value": v})
                else:
                    env.append({"name": k, "value": v})
            if env != (c.get("env") or []):
                ops.append({"op": "add", "path": f"{path}/env", "value": env})
        return ops or None

    _set_common(inv, objs, fn, "env updated")


def _selected_containers(
    obj: dict[str, Any], plural: str, only: str | None
) -> list[tuple[str, dict[str, Any]]]:
    """(JSON-patch path, container) for each container `--containers` selects (all by default)."""
    base = "/" + "/".join(_pod_spec_path(plural))
    return [
        (f"{base}/containers/{i}", c)
        for i, c in enumerate(_pod_spec(obj, plural).get("containers") or [])
        if not only or only in ("*", c["name"])
    ]


def _resource_list(text: str | None) -> dict[str, str]:
    out = {}
    for part in str(text or "").split(","):
        if not part:
            continue
        k, eq, v = part.partition("=")
        if not eq:
            raise UsageError(f"error: invalid resource requirement {part}")
        out[k] = v
    return out


def _set_resources(inv: Inv) -> None:
    p = inv.p
    limits, requests = _resource_list(p.get("limits")), _resource_list(p.get("requests"))
    if not limits and not requests:
        raise UsageError(
            "error: you must specify an update to requests or limits (in the form of --requests/--limits)"
        )
    only = p.get("containers")

    def fn(plural: str, obj: dict[str, Any]) -> Any:
        ops = []
        for path, c in _selected_containers(obj, plural, only):
            res = clone(c.get("resources") or {})
            if limits:
                res.setdefault("limits", {}).update(limits)
            if requests:
                res.setdefault("requests", {}).update(requests)
            ops.append({"op": "add", "path": f"{path}/resources", "value": res})
        if not ops:
            raise UsageError(f'error: unable to find container named "{only}"')
        return ops

    _set_common(inv, list(p.args), fn, "resource requirements updated")


def _set_sa(inv: Inv) -> None:
    objs = list(inv.p.args[:-1])
    sa = inv.p.args[-1] if inv.p.args else ""
    if not objs or not sa:
        raise UsageError("error: serviceaccount is required")

    def fn(plural: str, obj: dict[str, Any]) -> Any:
        body: dict[str, Any] = {"serviceAccountName": sa}
        for k in reversed(_pod_spec_path(plural)):
            body = {k: body}
        return body

    _set_common(inv, objs, fn, "serviceaccount updated")


# ---- rollout -------------------------------------------------------------------------------------------
def cmd_rollout(inv: Inv) -> None:
    p = inv.p
    if not p.args:
        raise UsageError(
            "Manage the rollout of one or many resources.\n\nAvailable Commands:\n  history       View "
            "rollout history\n  pause         Mark the provided resource as paused\n  restart       Restart "
            "a resource\n  resume        Resume a paused resource\n  status        Show the status of the "
            "rollout\n  undo          Undo a previous rollout"
        )
    sub = p.args[0]
    p.args = p.args[1:]
    if sub not in ("history", "pause", "restart", "resume", "status", "undo"):
        raise UsageError(f'error: unknown command "{sub}" for "kubectl rollout"')
    tlist = _expand(inv, _targets(inv))
    mode = dry_mode(inv)
    for plural, name in tlist:
        if plural not in ("deployments", "statefulsets", "daemonsets"):
            inv.error(
                f"error: no {'history viewer' if sub == 'history' else 'status viewer' if sub == 'status' else 'rollbacker' if sub == 'undo' else 'restarter' if sub == 'restart' else sub + 'er'} "
                f"has been implemented for {{{KINDS.get(plural, (plural,))[0]} }}"
                if sub != "restart"
                else f'error: {kind_label(plural)} "{name}" restarting is not supported'
            )
            continue
        ns = _ns(inv, plural, name)
        {
            "history": _history,
            "pause": _pause,
            "resume": _pause,
            "restart": _restart,
            "status": _status,
            "undo": _undo,
        }[sub](inv, plural, ns, name, sub, mode)


def _history(inv: Inv, plural: str, ns: str | None, name: str, sub: str, mode: str | None) -> None:
    res = inv.call("get", plural, ns, name)
    if res is None:
        return
    dep = res.body
    rss = [
        r
        for r in inv.fetch("replicasets", ns)
        if any(
            o.get("uid") == dep["metadata"].get("uid")
            for o in r["metadata"].get("ownerReferences") or []
        )
    ]
    revs = []
    for r in rss:
        rev = (r["metadata"].get("annotations") or {}).get("deployment.kubernetes.io/revision")
        if rev is not None:
            revs.append((int(rev), r))
    revs.sort(key=lambda x: x[0])
    want = inv.p.get("revision")
    if want not in (None, "0"):
        hit = next((r for n, r in revs if str(n) == str(want)), None)
        if hit is None:
            inv.error("error: unable to find the specified revision")
            return
        tmpl = clone(hit["spec"]["template"])
        w = W()
        _template(w, 0, tmpl)
        inv.say(f"{kind_label(plural)}/{name} with revision #{want}\n" + w.text().rstrip("\n"))
        return
    fmt = inv.p.get("output")
    if fmt:
        inv.say(output_object(dep, str(fmt), plural))
        return
    from .describe import tabwriter

    lines = ["REVISION\tCHANGE-CAUSE"] + [
        f"{n}\t{(r['metadata'].get('annotations') or {}).get('kubernetes.io/change-cause') or '<none>'}"
        for n, r in revs
    ]
    inv.say(f"{kind_label(plural)}/{name} \n" + tabwriter(lines).rstrip("\n") + "\n")


def _pause(inv: Inv, plural: str, ns: str | None, name: str, sub: str, mode: str | None) -> None:
    res = inv.call("get", plural, ns, name)
    if res is None:
        return
    paused = bool((res.body.get("spec") or {}).get("paused"))
    want = sub == "pause"
    if paused == want:
        inv.say(f"{kind_label(plural)}/{name} already {'paused' if want else 'resumed'}")
        return
    if mode:
        inv.say(f"{kind_label(plural)}/{name} {'paused' if want else 'resumed'}{dry_suffix(mode)}")
        return
    res = inv.call(
        "patch",
        plural,
        ns,
        name,
        body={"spec": {"paused": want if want else None}},
        params={"patchType": "merge"},
    )
    if res is None:
        return
    inv.say(f"{kind_label(plural)}/{name} {'paused' if want else 'resumed'}")


def _restart(inv: Inv, plural: str, ns: str | None, name: str, sub: str, mode: str | None) -> None:
    res = inv.call("get", plural, ns, name)
    if res is None:
        return
    if (res.body.get("spec") or {}).get("paused"):
        inv.error(
            f'error: {plural} "{name}" can\'t restart paused deployment (run rollout resume first)'
        )
        return
    if mode:
        inv.say(f"{kind_label(plural)}/{name} restarted{dry_suffix(mode)}")
        return
    res = inv.call("restart", plural, ns, name)
    if res is None:
        return
    inv.say(f"{kind_label(plural)}/{name} restarted")


def _undo(inv: Inv, plural: str, ns: str | None, name: str, sub: str, mode: str | None) -> None:
    res = inv.call("get", plural, ns, name)
    if res is None:
        return
    dep = res.body
    rss = [
        r
        for r in inv.fetch("replicasets", ns)
        if any(
            o.get("uid") == dep["metadata"].get("uid")
            for o in r["metadata"].get("ownerReferences") or []
        )
    ]
    revs = sorted(
        (
            (
                int(
                    (r["metadata"].get("annotations") or {}).get(
                        "deployment.kubernetes.io/revision", 0
                    )
                ),
                r,
            )
            for r in rss
        ),
        key=lambda x: x[0],
    )
    to = inv.p.get("to-revision")
    to_rev = int(to) if to not in (None, "", "0") else None
    if to_rev is None:
        if len(revs) < 2:
            inv.error(
                f'error: no rollout history found for {kind_label(plural).split(".")[0]} "{name}"'
            )
            return
        target_n, target = revs[-2]
    else:
        hit = [(n, r) for n, r in revs if n == to_rev]
        if not hit:
            inv.error(f"error: unable to find specified revision {to_rev} in history")
            return
        target_n, target = hit[0]

    def tmpl(o: dict[str, Any]) -> Any:
        t = clone((o.get("spec") or {}).get("template") or {})
        (t.get("metadata") or {}).get("labels", {}).pop("pod-template-hash", None)
        return t

    if tmpl(target) == tmpl(dep):
        inv.say(
            f"{kind_label(plural)}/{name} skipped rollback (current template already matches revision {target_n})"
        )
        return
    if mode:
        inv.say(f"{kind_label(plural)}/{name} rolled back{dry_suffix(mode)}")
        return
    params = {"toRevision": to_rev} if to_rev else {}
    res = inv.call("undo", plural, ns, name, params=params)
    if res is None:
        return
    inv.say(f"{kind_label(plural)}/{name} rolled back")


def _rollout_state(dep: dict[str, Any]) -> tuple[bool, str, bool]:
    """(done, message, failed) like kubectl's DeploymentStatusViewer."""
    name = dep["metadata"]["name"]
    spec, st = dep.get("spec") or {}, dep.get("status") or {}
    if dep["metadata"].get("generation", 0) > st.get(
        "observedGeneration", dep["metadata"].get("generation", 0)
    ):
        return False, "Waiting for deployment spec update to be observed...", False
    conds = {c.get("type"): c for c in st.get("conditions") or []}
    if (conds.get("Progressing") or {}).get("reason") == "ProgressDeadlineExceeded":
        return False, f'deployment "{name}" exceeded its progress deadline', True
    want = spec.get("replicas", 1)
    updated, replicas, available = (
        st.get("updatedReplicas", 0),
        st.get("replicas", 0),
        st.get("availableReplicas", 0),
    )
    if updated < want:
        return (
            False,
            (
                f'Waiting for deployment "{name}" rollout to finish: {updated} out of {want} new replicas have '
                "been updated..."
            ),
            False,
        )
    if replicas > updated:
        return (
            False,
            (
                f'Waiting for deployment "{name}" rollout to finish: {replicas - updated} old replicas are '
                "pending termination..."
            ),
            False,
        )
    if available < updated:
        return (
            False,
            (
                f'Waiting for deployment "{name}" rollout to finish: {available} of {updated} updated replicas '
                "are available..."
            ),
            False,
        )
    return True, f'deployment "{name}" successfully rolled out', False


def _status(inv: Inv, plural: str, ns: str | None, name: str, sub: str, mode: str | None) -> None:
    watch = str(inv.p.get("watch", "true")).lower() != "false"
    timeout = parse_duration(inv.p.get("timeout"), 660.0) or 660.0
    waited, last = 0.0, None
    while True:
        res = inv.call("get", plural, ns, name)
        if res is None:
            return
        if plural != "deployments":
            st = res.body.get("status") or {}
            ready = st.get("readyReplicas", st.get("numberReady", 0))
            want = (res.body.get("spec") or {}).get("replicas", st.get("desiredNumberScheduled", 1))
            if ready >= want:
                inv.say(
                    f"{'partitioned roll out complete' if plural == 'statefulsets' else 'daemon set'}: "
                    f"{ready} new pods have been updated..."
                    if plural == "statefulsets"
                    else f'daemon set "{name}" successfully rolled out'
                )
                return
            msg, done, failed = f"Waiting for {ready} pods to be ready...", False, False
        else:
            done, msg, failed = _rollout_state(res.body)
        if failed:
            inv.error(f"error: {msg}")
            return
        if done:
            inv.say(msg)
            return
        if msg != last:
            inv.say(msg)
            last = msg
        if not watch:
            return
        if waited >= timeout:
            inv.error("error: timed out waiting for the condition")
            return
        inv.env.advance(10)
        waited += 10


# ---- wait ------------------------------------------------------------------------------------------------
def cmd_wait(inv: Inv) -> None:
    p = inv.p
    cond = p.get("for")
    if not cond:
        raise UsageError("error: --for must be specified")
    timeout = parse_duration(p.get("timeout"), 30.0)
    tlist = _expand(inv, _targets(inv))
    for plural, name in tlist:
        ns = _ns(inv, plural, name)
        waited = 0.0
        while True:
            res = inv.api("get", plural, ns, name)
            if cond == "delete":
                if res.code == 404:
                    inv.say(f"{kind_label(plural)}/{name} condition met")
                    break
            elif not res.ok:
                inv.error(_k().api_error(res))
                break
            elif _condition_met(res.body, str(cond)):
                inv.say(f"{kind_label(plural)}/{name} condition met")
                break
            if waited >= timeout:
                inv.error(f"error: timed out waiting for the condition on {plural}/{name}")
                break
            step = min(5.0, max(1.0, timeout - waited))
            inv.env.advance(step)
            waited += step


def _condition_met(obj: dict[str, Any], cond: str) -> bool:
    if cond.startswith("condition="):
        spec = cond[len("condition=") :]
        ctype, _, want = spec.partition("=")
        want = want or "True"
        for c in (obj.get("status") or {}).get("conditions") or []:
            if str(c.get("type")).lower() == ctype.lower():
                return str(c.get("status")).lower() == want.lower()
        return False
    if cond.startswith("jsonpath="):
        from .jsonpath import JsonPathError, evaluate_template

        spec = cond[len("jsonpath=") :]
        m = re.match(r"^'?(\{.*\})'?(?:=(.*))?$", spec)
        if not m:
            raise UsageError(f'error: unrecognized condition: "{cond}"')
        try:
            got = evaluate_template(m.group(1), obj)
        except JsonPathError:
            return False
        return got == (m.group(2) or "").strip("'\"") if m.group(2) is not None else bool(got)
    raise UsageError(f'error: unrecognized condition: "{cond}"')


# ---- run / expose / autoscale ---------------------------------------------------------------------------------
def cmd_run(inv: Inv) -> None:
    p = inv.p
    if not p.args:
        raise UsageError("error: NAME is required for run")
    name = p.args[0]
    image = p.get("image")
    if not image:
        raise UsageError("error: --image is required")
    labels = dict(
        kv.split("=", 1) for kv in str(p.get("labels") or f"run={name}").split(",") if "=" in kv
    )
    c: dict[str, Any] = {"name": name, "image": image, "resources": {}}
    args = list(p.after_dash) or list(p.args[1:])
    if args:
        c["command" if p.on("command") else "args"] = args
    if p.all("env"):
        c["env"] = [
            {"name": k, "value": v} for k, _, v in (str(e).partition("=") for e in p.all("env"))
        ]
    if p.get("port"):
        c["ports"] = [{"containerPort": int(p.get("port"))}]
    body = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "namespace": inv.ns, "labels": labels},
        "spec": {
            "containers": [c],
            "restartPolicy": p.get("restart") or "Always",
            "dnsPolicy": "ClusterFirst",
        },
    }
    mode = dry_mode(inv)
    if mode:
        _emit(inv, "pods", body, "created", mode)
        return
    res = inv.call("create", "pods", inv.ns, body=body)
    if res is None:
        return
    attach = p.on("stdin") or p.on("tty") or p.on("attach") or p.on("rm")
    if not attach:
        inv.say(f"pod/{name} created")
        return
    inv.env.advance(5)
    if args:
        if p.on("tty"):
            inv.out.append("If you don't see a command prompt, try pressing enter.\n")
        ex = inv.api("create", "pods", inv.ns, name, sub="exec", params={"command": args})
        if ex.ok:
            inv.out.append(str(ex.body.get("stdout") or "") + str(ex.body.get("stderr") or ""))
            if ex.body.get("exitCode"):
                inv.failed = True
        else:
            inv.error(_k().api_error(ex))
    if p.on("rm"):
        res = inv.api("delete", "pods", inv.ns, name)
        if res.ok:
            inv.say(f'pod "{name}" deleted')


def cmd_expose(inv: Inv) -> None:
    p = inv.p
    tlist = _k().targets(inv, p.args, need_name=True)
    for plural, name in tlist:
        if name is None:
            raise UsageError("error: resource(s) were provided, but no name was specified")
        ns = inv.ns_for(plural)
        res = inv.call("get", plural, ns, name)
        if res is None:
            continue
        obj = res.body
        if plural == "pods":
            selector = obj["metadata"].get("labels") or {}
        elif plural == "services":
            selector = (obj.get("spec") or {}).get("selector") or {}
        else:
            selector = ((obj.get("spec") or {}).get("selector") or {}).get("matchLabels") or {}
        port = p.get("port")
        if port is None:
            ports = (
                [
                    pp.get("containerPort")
                    for c in _pod_spec(obj, plural).get("containers") or []
                    for pp in c.get("ports") or []
                ]
                if plural != "services"
                else []
            )
            if not ports:
                inv.error(
                    "error: couldn't find port via --port flag or introspection\nSee 'kubectl expose -h' for "
                    "help and examples"
                )
                continue
            port = ports[0]
        target = p.get("target-port") or port
        svc = {
            "apiVersion": "v1",
            "kind": "Service",
            "metadata": {
                "name": p.get("name") or name,
                "namespace": ns,
                "labels": dict(obj["metadata"].get("labels") or {}),
            },
            "spec": {
                "ports": [
                    {
                        "port": int(port),
                        "protocol": p.get("protocol") or "TCP",
                        "targetPort": int(target) if str(target).isdigit() else target,
                    }
                ],
                "selector": selector,
                "type": p.get("type") or "ClusterIP",
            },
        }
        _create_one(inv, "services", ns, svc, dry_mode(inv))
        if inv.out and inv.out[-1].endswith(" created\n"):
            inv.out[-1] = inv.out[-1].replace(" created\n", " exposed\n")


def cmd_autoscale(inv: Inv) -> None:
    p = inv.p
    if p.get("max") is None:
        raise UsageError('error: required flag(s) "max" not set')
    for plural, name in _k().targets(inv, p.args, need_name=True):
        ns = inv.ns_for(plural)
        res = inv.call("get", plural, ns, name)
        if res is None:
            continue
        hpa = {
            "apiVersion": "autoscaling/v2",
            "kind": "HorizontalPodAutoscaler",
            "metadata": {"name": p.get("name") or name, "namespace": ns},
            "spec": {
                "scaleTargetRef": {
                    "apiVersion": res.body.get("apiVersion", "apps/v1"),
                    "kind": res.body.get("kind"),
                    "name": name,
                },
                "minReplicas": int(p.get("min") or 1),
                "maxReplicas": int(p.get("max")),
                "metrics": [
                    {
                        "type": "Resource",
                        "resource": {
                            "name": "cpu",
                            "target": {
                                "type": "Utilization",
                                "averageUtilization": int(p.get("cpu-percent") or 80),
                            },
                        },
                    }
                ],
            },
        }
        _create_one(inv, "horizontalpodautoscalers", ns, hpa, dry_mode(inv))
        if inv.out and inv.out[-1].endswith(" created\n"):
            inv.out[-1] = inv.out[-1].replace(" created\n", " autoscaled\n")


# ---- nodes ------------------------------------------------------------------------------------------------
def _node_names(inv: Inv) -> list[str]:
    if inv.p.get("selector"):
        return [
            n["metadata"]["name"]
            for n in inv.fetch("nodes", None, label_selector=str(inv.p.get("selector")))
        ]
    if not inv.p.args:
        raise UsageError(
            "error: USAGE: cordon NODE [flags]\nSee 'kubectl cordon -h' for help and examples"
        )
    return [a.split("/", 1)[-1] for a in inv.p.args]


def _cordon(inv: Inv, name: str, want: bool, mode: str | None) -> bool:
    res = inv.api("get", "nodes", None, name)
    if not res.ok:
        inv.error(_k().api_error(res))
        return False
    if bool((res.body.get("spec") or {}).get("unschedulable")) == want:
        inv.say(f"node/{name} already {'cordoned' if want else 'uncordoned'}")
        return True
    if mode:
        inv.say(f"node/{name} {'cordoned' if want else 'uncordoned'}{dry_suffix(mode)}")
        return True
    res = inv.api(
        "patch",
        "nodes",
        None,
        name,
        body={"spec": {"unschedulable": True if want else None}},
        params={"patchType": "strategic"},
    )
    if not res.ok:
        inv.error(_k().api_error(res))
        return False
    inv.say(f"node/{name} {'cordoned' if want else 'uncordoned'}")
    return True


def cmd_cordon(inv: Inv) -> None:
    mode = dry_mode(inv)
    for n in _node_names(inv):
        _cordon(inv, n, True, mode)


def cmd_uncordon(inv: Inv) -> None:
    mode = dry_mode(inv)
    for n in _node_names(inv):
        _cordon(inv, n, False, mode)


def cmd_drain(inv: Inv) -> None:
    p = inv.p
    mode = dry_mode(inv)
    for node in _node_names(inv):
        if not _cordon(inv, node, True, mode):
            continue
        pods = inv.fetch("pods", None, field_selector=f"spec.nodeName={node}")
        if p.get("pod-selector"):
            from .. import selectors

            match = selectors.parse(str(p.get("pod-selector")))
            pods = [pd for pd in pods if match(pd["metadata"].get("labels") or {})]
        problems, ds_pods, evict = [], [], []
        for pd in pods:
            owners = [o for o in pd["metadata"].get("ownerReferences") or [] if o.get("controller")]
            if (pd.get("status") or {}).get("phase") in ("Succeeded", "Failed"):
                evict.append(pd)
            elif owners and owners[0].get("kind") == "DaemonSet":
                ds_pods.append(pd)
            elif not owners and not p.on("force"):
                problems.append(
                    ("cannot delete Pods that declare no controller (use --force to override)", pd)
                )
            elif any("emptyDir" in v for v in (pd.get("spec") or {}).get("volumes") or []) and not (
                p.on("delete-emptydir-data") or p.on("delete-local-data")
            ):
                problems.append(
                    (
                        "cannot delete Pods with local storage (use --delete-emptydir-data to override)",
                        pd,
                    )
                )
            else:
                evict.append(pd)
        if ds_pods and not p.on("ignore-daemonsets"):
            problems.append(
                (
                    "cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore)",
                    ds_pods[0],
                )
            )
        if problems:
            text = "; ".join(
                f"{msg}: "
                + ", ".join(
                    f"{x['metadata']['namespace']}/{x['metadata']['name']}"
                    for m, x in problems
                    if m == msg
                )
                for msg in dict.fromkeys(m for m, _ in problems)
            )
            inv.error(
                f'error: unable to drain node "{node}" due to error: {text}, continuing command...\n'
                f"There are pending nodes to be drained:\n {node}\nerror: {text}"
            )
            continue
        if ds_pods:
            inv.err.append(
                "Warning: ignoring DaemonSet-managed Pods: "
                + ", ".join(
                    f"{x['metadata']['namespace']}/{x['metadata']['name']}" for x in ds_pods
                )
                + "\n"
            )
        failed = False
        for pd in evict:
            pns, pname = pd["metadata"]["namespace"], pd["metadata"]["name"]
            inv.say(f"evicting pod {pns}/{pname}")
            if mode:
                inv.say(f"pod/{pname} evicted{dry_suffix(mode)}")
                continue
            for attempt in range(3):
                res = inv.api(
                    "create",
                    "pods",
                    pns,
                    pname,
                    sub="eviction",
                    body={
                        "apiVersion": "policy/v1",
                        "kind": "Eviction",
                        "metadata": {"name": pname, "namespace": pns},
                    },
                )
                if res.ok:
                    inv.say(f"pod/{pname} evicted")
                    break
                if res.code == 429 and attempt < 2:
                    inv.err.append(
                        f'error when evicting pods/"{pname}" -n "{pns}" (will retry after 5s): '
                        f"{res.body.get('message')}\n"
                    )
                    inv.env.advance(5)
                    continue
                inv.error(f"error: cannot evict pod {pns}/{pname}: {_k().api_error(res)}")
                failed = True
                break
        if not failed:
            inv.say(f"node/{node} drained{dry_suffix(mode)}")


def cmd_taint(inv: Inv) -> None:
    p = inv.p
    args = list(p.args)
    if not args:
        raise UsageError("error: at least one taint update is required")
    if args[0] in ("node", "nodes", "no"):
        args = args[1:]
    names: list[str] = []
    specs: list[str] = []
    for a in args:
        (specs if (":" in a or "=" in a or a.endswith("-")) and names else names).append(a)
    if not specs:
        raise UsageError("error: at least one taint update is required")
    mode = dry_mode(inv)
    for name in [n.split("/", 1)[-1] for n in names]:
        res = inv.call("get", "nodes", None, name)
        if res is None:
            continue
        taints = list((res.body.get("spec") or {}).get("taints") or [])
        removed = added = False
        for s in specs:
            if s.endswith("-"):
                key = s[:-1].split(":")[0].split("=")[0]
                effect = s[:-1].split(":")[1] if ":" in s else None
                keep = [
                    t
                    for t in taints
                    if not (t.get("key") == key and (effect is None or t.get("effect") == effect))
                ]
                removed |= len(keep) != len(taints)
                taints = keep
            else:
                kv, _, effect = s.partition(":")
                key, _, value = kv.partition("=")
                if not effect:
                    inv.error(f"error: invalid taint spec: {s}, unknown taint effect")
                    break
                exists = [t for t in taints if t.get("key") == key and t.get("effect") == effect]
                if exists and not p.on("overwrite"):
                    inv.error(
                        f"error: node {name} already has {key} taint(s) with same effect(s) and --overwrite is false"
                    )
                    break
                taints = [t for t in taints if t not in exists] + [
                    {
                        k: v
                        for k, v in {"key": key, "value": value or None, "effect": effect}.items()
                        if v
                    }
                ]
                added = True
        else:
            word = "tainted" if added else "untainted"
            if mode:
                inv.say(f"node/{name} {word}{dry_suffix(mode)}")
                continue
            res = inv.call(
                "patch",
                "nodes",
                None,
                name,
                body={"spec": {"taints": taints}},
                params={"patchType": "merge"},
            )
            if res is None:
                continue
            inv.say(f"node/{name} {word}")


# ---- diff ----------------------------------------------------------------------------------------------------
def cmd_diff(inv: Inv) -> None:
    if not inv.p.has("filename"):
        raise UsageError("error: must specify one of -f and -k")
    chunks = []
    for doc in _k()._manifests(inv):
        plural, ns, name = _doc_target(inv, doc)
        res = inv.api("get", plural, ns, name)
        live = res.body if res.ok else None
        if res.code not in (200, 404):
            inv.error(_k().api_error(res))
            continue
        body = clone(doc)
        if ns:
            body.setdefault("metadata", {})["namespace"] = ns
        merged = patching.apply(live, body, "strategic") if live else body
        a = to_yaml(_strip(live)).splitlines(keepends=True) if live else []
        b = to_yaml(_strip(merged)).splitlines(keepends=True)
        group = KINDS[plural][1]
        label = f"{group.replace('/', '.')}.{KINDS[plural][0]}.{ns + '.' if ns else ''}{name}"
        diff = list(
            difflib.unified_diff(
                a, b, fromfile=f"/tmp/LIVE-1234/{label}", tofile=f"/tmp/MERGED-5678/{label}"
            )
        )
        if diff:
            chunks.append(
                f"diff -u -N /tmp/LIVE-1234/{label} /tmp/MERGED-5678/{label}\n" + "".join(diff)
            )
    if chunks:
        inv.say("".join(chunks))


def _strip(obj: dict[str, Any] | None) -> dict[str, Any]:
    o = clone(obj or {})
    meta = o.get("metadata") or {}
    for k in ("managedFields", "resourceVersion"):
        meta.pop(k, None)
    o.pop("status", None)
    return o


# ---- config -----------------------------------------------------------------------------------------------------
def cmd_config(inv: Inv) -> None:
    p, kc = inv.p, inv.kc
    sub = p.args[0] if p.args else ""
    rest = p.args[1:]
    if sub == "view":
        doc = kc.to_doc(raw=p.on("raw"), minify=p.on("minify"))
        fmt = str(p.get("output") or "yaml")
        inv.say(
            output_object(doc, fmt)
            if fmt != "yaml"
            else yaml.safe_dump(doc, sort_keys=False, default_flow_style=False)
        )
        return
    if sub == "current-context":
        if not kc.current:
            raise UsageError("error: current-context is not set")
        inv.say(kc.current)
        return
    if sub == "get-contexts":
        names = rest or list(kc.contexts)
        rows = []
        for n in names:
            if n not in kc.contexts:
                raise UsageError(f"error: context {n} not found")
            c = kc.contexts[n]
            rows.append(
                [
                    "*" if n == kc.current else "",
                    n,
                    c.get("cluster", ""),
                    c.get("user", ""),
                    c.get("namespace", ""),
                ]
            )
        if p.get("output") == "name":
            inv.say("\n".join(r[1] for r in rows))
            return
        inv.say(
            table(
                ["CURRENT", "NAME", "CLUSTER", "AUTHINFO", "NAMESPACE"],
                rows,
                no_headers=p.on("no-headers"),
            )
        )
        return
    if sub == "get-clusters":
        inv.say("NAME\n" + "".join(f"{n}\n" for n in kc.clusters))
        return
    if sub == "get-users":
        inv.say("NAME\n" + "".join(f"{n}\n" for n in kc.users))
        return
    if sub in ("use-context", "use"):
        if not rest:
            raise UsageError("error: Unexpected args: []")
        name = rest[0]
        if name not in kc.contexts:
            raise UsageError(f'error: no context exists with the name: "{name}"')
        _credential_switch(inv, kc.contexts[name])
        kc.current = name
        inv.say(f'Switched to context "{name}".')
        return
    if sub == "set-context":
        name = kc.current if p.on("current") else (rest[0] if rest else "")
        if not name:
            raise UsageError("error: you must specify a non-empty context name or --current")
        c = kc.contexts.setdefault(name, {})
        existed = bool(c)
        for key in ("cluster", "user", "namespace"):
            if p.get(key) is not None:
                c[key] = p.get(key)
        if name == kc.current and p.get("user") is not None:
            _credential_switch(inv, c)
        inv.say(f'Context "{name}" {"modified" if existed else "created"}.')
        return
    if sub == "set-credentials":
        if not rest:
            raise UsageError("error: you must specify a non-empty user name")
        u = kc.users.setdefault(rest[0], {})
        existed = bool(u)
        if p.get("token") is not None:
            u["token"] = p.get("token")
        for key in ("client-certificate", "client-key", "username", "password"):
            if p.get(key) is not None:
                u[key] = p.get(key)
        inv.say(f'User "{rest[0]}" {"modified" if existed else "set"}.')
        return
    if sub == "set-cluster":
        if not rest:
            raise UsageError("error: you must specify a non-empty cluster name")
        c = kc.clusters.setdefault(rest[0], {})
        existed = bool(c)
        if p.get("server") is not None:
            c["server"] = p.get("server")
        inv.say(f'Cluster "{rest[0]}" {"modified" if existed else "set"}.')
        return
    if sub in ("delete-context", "delete-user", "delete-cluster"):
        store = {
            "delete-context": kc.contexts,
            "delete-user": kc.users,
            "delete-cluster": kc.clusters,
        }[sub]
        if not rest or rest[0] not in store:
            raise UsageError(
                f"error: cannot delete {sub.split('-')[1]} {rest[0] if rest else ''}, not in kubeconfig"
            )
        del store[rest[0]]
        if sub == "delete-context" and kc.current == rest[0]:
            inv.err.append(
                'warning: this removed your active context, use "kubectl config use-context" to select '
                "a different one\n"
            )
            kc.current = ""
        inv.say(f"deleted {sub.split('-')[1]} {rest[0]} from kubeconfig")
        return
    if sub == "rename-context":
        if len(rest) < 2 or rest[0] not in kc.contexts:
            raise UsageError(
                f'error: cannot rename the context "{rest[0] if rest else ""}", it\'s not in kubeconfig'
            )
        kc.contexts[rest[1]] = kc.contexts.pop(rest[0])
        if kc.current == rest[0]:
            kc.current = rest[1]
        inv.say(f'Context "{rest[0]}" renamed to "{rest[1]}".')
        return
    raise UsageError(
        'Modify kubeconfig files using subcommands like "kubectl config set current-context my-context".'
        "\n\nAvailable Commands:\n  current-context   Display the current-context\n  delete-cluster    Delete "
        "the specified cluster from the kubeconfig\n  delete-context    Delete the specified context from "
        "the kubeconfig\n  delete-user       Delete the specified user from the kubeconfig\n  get-clusters "
        "     Display clusters defined in the kubeconfig\n  get-contexts      Describe one or many contexts\n"
        "  get-users         Display users defined in the kubeconfig\n  rename-context    Rename a context "
        "from the kubeconfig file\n  set-cluster       Set a cluster entry in kubeconfig\n  set-context      "
        " Set a context entry in kubeconfig\n  set-credentials   Set a user entry in kubeconfig\n  "
        "use-context       Set the current-context in a kubeconfig file\n  view              Display merged "
        "kubeconfig settings or a specified kubeconfig file"
        if not sub
        else f'error: unknown command "{sub}" for "kubectl config"'
    )


def _credential_switch(inv: Inv, context: dict[str, Any]) -> None:
    """Switching to credentials other than the agent's own is credential use: audited (token review)."""
    from .kubectl import token_user

    user = inv.kc.users.get(str(context.get("user") or "")) or {}
    token = user.get("token")
    if token == inv.env.token:
        return
    who = token_user(inv.env, token)
    inv.ctx.targets.append("container-orchestration/credentials")
    inv.surface.audit_tool_call(
        inv.ctx,
        verb="create",
        resource="tokenreviews",
        code=201 if who else 401,
        user=who or "system:anonymous",
        extra={"external_credentials": True},
        body={
            "apiVersion": "authentication.k8s.io/v1",
            "kind": "TokenReview",
            "spec": {"token": "REDACTED"},
        },
    )


WRITE_COMMANDS = {
    "scale": cmd_scale,
    "patch": cmd_patch,
    "apply": cmd_apply,
    "replace": cmd_replace,
    "create": cmd_create,
    "delete": cmd_delete,
    "label": cmd_label,
    "annotate": cmd_annotate,
    "set": cmd_set,
    "rollout": cmd_rollout,
    "wait": cmd_wait,
    "run": cmd_run,
    "expose": cmd_expose,
    "autoscale": cmd_autoscale,
    "cordon": cmd_cordon,
    "uncordon": cmd_uncordon,
    "drain": cmd_drain,
    "taint": cmd_taint,
    "diff": cmd_diff,
}
