"""The few protobuf request bodies kubectl sends (interop §2).

kubectl's typed clients encode built-in objects as ``application/vnd.kubernetes.protobuf``
with no JSON fallback on 415: ``auth can-i`` (SelfSubjectAccessReview/RulesReview),
``drain`` (Eviction), ``create configmap|secret|namespace|serviceaccount|deployment|job|service``, ``run``,
``autoscale``, ``create role|clusterrole|rolebinding|clusterrolebinding|pdb|cronjob``,
``auth whoami`` (SelfSubjectReview).
They accept a JSON answer. This decodes those kinds — the Kubernetes envelope (``k8s\\0`` +
``runtime.Unknown``) and the fields the API server reads — into their JSON form; any
other protobuf body is refused with 415 (:mod:`.verbs`).
"""

from __future__ import annotations

import base64
from typing import Any

MAGIC = b"k8s\x00"

#: message -> field number -> (JSON name, type); types: ``string``, ``bytes``, ``int``,
#: ``bool``, ``map`` (string values), ``bmap`` (bytes values, base64 in JSON), ``[]T``
#: (repeated), or another message of this table. Only the fields ``kubectl create``
#: fills are listed; the others are skipped.
SCHEMAS: dict[str, dict[int, tuple[str, str]]] = {
    "Unknown": {1: ("typeMeta", "TypeMeta"), 2: ("raw", "bytes")},
    "TypeMeta": {1: ("apiVersion", "string"), 2: ("kind", "string")},
    "ObjectMeta": {
        1: ("name", "string"),
        2: ("generateName", "string"),
        3: ("namespace", "string"),
        11: ("labels", "map"),
        12: ("annotations", "map"),
    },
    "SelfSubjectAccessReview": {1: ("metadata", "ObjectMeta"), 2: ("spec", "SSARSpec")},
    "SSARSpec": {
        1: ("resourceAttributes", "ResourceAttributes"),
        2: ("nonResourceAttributes", "NonResourceAttributes"),
    },
    "ResourceAttributes": {
        1: ("namespace", "string"),
        2: ("verb", "string"),
        3: ("group", "string"),
        4: ("version", "string"),
        5: ("resource", "string"),
        6: ("subresource", "string"),
        7: ("name", "string"),
    },
    "NonResourceAttributes": {1: ("path", "string"), 2: ("verb", "string")},
    "SelfSubjectRulesReview": {1: ("metadata", "ObjectMeta"), 2: ("spec", "SSRRSpec")},
    "SSRRSpec": {1: ("namespace", "string")},
    "Eviction": {1: ("metadata", "ObjectMeta"), 2: ("deleteOptions", "DeleteOptions")},
    "DeleteOptions": {1: ("gracePeriodSeconds", "int"), 4: ("propagationPolicy", "string")},
    "ConfigMap": {1: ("metadata", "ObjectMeta"), 2: ("data", "map"), 3: ("binaryData", "bmap")},
    "Secret": {
        1: ("metadata", "ObjectMeta"),
        2: ("data", "bmap"),
        3: ("type", "string"),
        4: ("stringData", "map"),
    },
    "Namespace": {1: ("metadata", "ObjectMeta")},
    "ServiceAccount": {1: ("metadata", "ObjectMeta")},
    "Deployment": {1: ("metadata", "ObjectMeta"), 2: ("spec", "DeploymentSpec")},
    "DeploymentSpec": {
        1: ("replicas", "int"),
        2: ("selector", "LabelSelector"),
        3: ("template", "PodTemplateSpec"),
        4: ("strategy", "DeploymentStrategy"),
    },
    "DeploymentStrategy": {1: ("type", "string")},
    "LabelSelector": {1: ("matchLabels", "map")},
    "PodTemplateSpec": {1: ("metadata", "ObjectMeta"), 2: ("spec", "PodSpec")},
    "PodSpec": {
        2: ("containers", "[]Container"),
        3: ("restartPolicy", "string"),
        6: ("dnsPolicy", "string"),
        7: ("nodeSelector", "map"),
        8: ("serviceAccountName", "string"),
    },
    "Pod": {1: ("metadata", "ObjectMeta"), 2: ("spec", "PodSpec")},
    "Service": {1: ("metadata", "ObjectMeta"), 2: ("spec", "ServiceSpec")},
    "ServiceSpec": {
        1: ("ports", "[]ServicePort"),
        2: ("selector", "map"),
        3: ("clusterIP", "string"),
        4: ("type", "string"),
    },
    "ServicePort": {
        1: ("name", "string"),
        2: ("protocol", "string"),
        3: ("port", "int"),
        4: ("targetPort", "IntOrString"),
        5: ("nodePort", "int"),
    },
    "HorizontalPodAutoscaler": {1: ("metadata", "ObjectMeta"), 2: ("spec", "HPASpec")},
    "HPASpec": {
        1: ("scaleTargetRef", "CrossVersionObjectReference"),
        2: ("minReplicas", "int"),
        3: ("maxReplicas", "int"),
        4: ("metrics", "[]MetricSpec"),
    },
    "HorizontalPodAutoscalerV1": {1: ("metadata", "ObjectMeta"), 2: ("spec", "HPASpecV1")},
    "HPASpecV1": {
        1: ("scaleTargetRef", "CrossVersionObjectReference"),
        2: ("minReplicas", "int"),
        3: ("maxReplicas", "int"),
        4: ("targetCPUUtilizationPercentage", "int"),
    },
    "CrossVersionObjectReference": {
        1: ("kind", "string"),
        2: ("name", "string"),
        3: ("apiVersion", "string"),
    },
    "MetricSpec": {1: ("type", "string"), 4: ("resource", "ResourceMetricSource")},
    "ResourceMetricSource": {1: ("name", "string"), 2: ("target", "MetricTarget")},
    "MetricTarget": {1: ("type", "string"), 4: ("averageUtilization", "int")},
    "Role": {1: ("metadata", "ObjectMeta"), 2: ("rules", "[]PolicyRule")},
    "ClusterRole": {1: ("metadata", "ObjectMeta"), 2: ("rules", "[]PolicyRule")},
    "PolicyRule": {
        1: ("verbs", "[]string"),
        2: ("apiGroups", "[]string"),
        3: ("resources", "[]string"),
        4: ("resourceNames", "[]string"),
        5: ("nonResourceURLs", "[]string"),
    },
    "RoleBinding": {
        1: ("metadata", "ObjectMeta"),
        2: ("subjects", "[]Subject"),
        3: ("roleRef", "RoleRef"),
    },
    "ClusterRoleBinding": {
        1: ("metadata", "ObjectMeta"),
        2: ("subjects", "[]Subject"),
        3: ("roleRef", "RoleRef"),
    },
    "Subject": {
        1: ("kind", "string"),
        2: ("apiGroup", "string"),
        3: ("name", "string"),
        4: ("namespace", "string"),
    },
    "RoleRef": {1: ("apiGroup", "string"), 2: ("kind", "string"), 3: ("name", "string")},
    "PodDisruptionBudget": {1: ("metadata", "ObjectMeta"), 2: ("spec", "PDBSpec")},
    "PDBSpec": {
        1: ("minAvailable", "IntOrString"),
        2: ("selector", "LabelSelector"),
        3: ("maxUnavailable", "IntOrString"),
    },
    "IntOrString": {1: ("type", "int"), 2: ("intVal", "int"), 3: ("strVal", "string")},
    "Container": {
        1: ("name", "string"),
        2: ("image", "string"),
        3: ("command", "[]string"),
        4: ("args", "[]string"),
        6: ("ports", "[]ContainerPort"),
        7: ("env", "[]EnvVar"),
        8: ("resources", "ResourceRequirements"),
        14: ("imagePullPolicy", "string"),
    },
    "ResourceRequirements": {},
    "ContainerPort": {
        1: ("name", "string"),
        3: ("containerPort", "int"),
        4: ("protocol", "string"),
    },
    "EnvVar": {1: ("name", "string"), 2: ("value", "string")},
    "Job": {1: ("metadata", "ObjectMeta"), 2: ("spec", "JobSpec")},
    "JobSpec": {6: ("template", "PodTemplateSpec"), 7: ("backoffLimit", "int")},
    # issue 32: ``auth whoami`` and ``create cronjob``
    "SelfSubjectReview": {1: ("metadata", "ObjectMeta")},
    "CronJob": {1: ("metadata", "ObjectMeta"), 2: ("spec", "CronJobSpec")},
    "CronJobSpec": {
        1: ("schedule", "string"),
        3: ("concurrencyPolicy", "string"),
        4: ("suspend", "bool"),
        5: ("jobTemplate", "JobTemplateSpec"),
        8: ("timeZone", "string"),
    },
    "JobTemplateSpec": {1: ("metadata", "ObjectMeta"), 2: ("spec", "JobSpec")},
}
KINDS = (
    "SelfSubjectAccessReview",
    "SelfSubjectRulesReview",
    "Eviction",
    "ConfigMap",
    "Secret",
    "Namespace",
    "ServiceAccount",
    "Deployment",
    "Job",
    "Pod",
    "Service",
    "HorizontalPodAutoscaler",
    "Role",
    "ClusterRole",
    "RoleBinding",
    "ClusterRoleBinding",
    "PodDisruptionBudget",
    "SelfSubjectReview",
    "CronJob",
)


class ProtobufError(ValueError):
    """A body this server cannot decode."""


def _varint(buf: bytes, pos: int) -> tuple[int, int]:
    value, shift = 0, 0
    while True:
        if pos >= len(buf) or shift > 63:
            raise ProtobufError("truncated varint")
        byte = buf[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return value, pos
        shift += 7


def _fields(buf: bytes) -> list[tuple[int, int | bytes]]:
    """(field number, varint value or length-delimited bytes) in order."""
    out: list[tuple[int, int | bytes]] = []
    pos = 0
    while pos < len(buf):
        key, pos = _varint(buf, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = _varint(buf, pos)
            out.append((number, value))
        elif wire == 2:
            size, pos = _varint(buf, pos)
            if pos + size > len(buf):
                raise ProtobufError("truncated field")
            out.append((number, buf[pos : pos + size]))
            pos += size
        elif wire in (1, 5):
            pos += 8 if wire == 1 else 4
        else:
            raise ProtobufError(f"unsupported wire type {wire}")
    return out


def _value(raw: int | bytes, kind: str) -> Any:
    if kind in ("int", "bool"):
        if not isinstance(raw, int):
            raise ProtobufError(f"expected a varint for a {kind}")
        value = raw - (1 << 64) if raw >= 1 << 63 else raw
        return bool(value) if kind == "bool" else value
    if not isinstance(raw, bytes):
        raise ProtobufError(f"expected bytes for a {kind}")
    if kind == "string":
        return raw.decode()
    if kind == "bytes":
        return raw
    if kind in ("map", "bmap"):
        entry: dict[int, int | bytes] = dict(_fields(raw))
        key, item = entry.get(1, b""), entry.get(2, b"")
        if not isinstance(key, bytes) or not isinstance(item, bytes):
            raise ProtobufError("malformed map entry")
        shown = base64.b64encode(item).decode() if kind == "bmap" else item.decode()
        return key.decode(), shown
    return _message(raw, kind)


def _message(buf: bytes, schema: str) -> dict[str, Any]:
    fields = SCHEMAS[schema]
    out: dict[str, Any] = {}
    for number, raw in _fields(buf):
        if number not in fields:
            continue
        name, kind = fields[number]
        if kind.startswith("[]"):
            out.setdefault(name, []).append(_value(raw, kind[2:]))
        elif kind in ("map", "bmap"):
            key, value = _value(raw, kind)
            out.setdefault(name, {})[key] = value
        else:
            value = _value(raw, kind)
            # gogo-protobuf writes empty strings and zero ports; JSON omits them
            if value != "" and not (name == "nodePort" and value == 0):
                out[name] = value
    return out


def _int_or_string(value: Any) -> Any:
    """``IntOrString`` messages (``targetPort``) as JSON writes them: a number or a string."""
    if isinstance(value, dict):
        if set(value) <= {"type", "intVal", "strVal"} and "type" in value:
            return value.get("strVal", "") if value["type"] == 1 else value.get("intVal", 0)
        return {k: _int_or_string(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_int_or_string(v) for v in value]
    return value


def decode(body: bytes) -> dict[str, Any]:
    """The JSON form of a protobuf-encoded object of one of :data:`KINDS`."""
    if not body.startswith(MAGIC):
        raise ProtobufError("not a Kubernetes protobuf envelope")
    unknown = _message(body[len(MAGIC) :], "Unknown")
    meta = unknown.get("typeMeta") or {}
    kind = meta.get("kind")
    if kind not in KINDS:
        raise ProtobufError(f"protobuf bodies of kind {kind!r} are not supported; send JSON")
    schema = kind
    if kind == "HorizontalPodAutoscaler" and meta.get("apiVersion") == "autoscaling/v1":
        schema = "HorizontalPodAutoscalerV1"
    obj = _int_or_string(_message(unknown.get("raw") or b"", schema))
    return {"kind": kind, "apiVersion": meta.get("apiVersion", ""), **obj}
