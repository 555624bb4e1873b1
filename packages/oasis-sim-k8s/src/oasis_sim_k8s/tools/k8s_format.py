"""kubectl's output formats: ``-o json|yaml|name|jsonpath|custom-columns``, kind and
resource labels, ages and durations, quantities. Tables are in :mod:`.k8s_columns`."""

from __future__ import annotations

import base64
import functools
import io
import json
from typing import Any

import yaml
from yaml.representer import SafeRepresenter

from ..cluster.clock import parse_ts
from ..cluster.quantity import cpu_millis, mem_bytes
from ..cluster.store import KINDS
from .jsonpath import JsonPathError, evaluate_template
from .kept_text import kept

#: plural -> how ``-o name`` and multi-kind tables name the kind
GROUP_SUFFIX = {
    "deployments": "apps",
    "replicasets": "apps",
    "statefulsets": "apps",
    "daemonsets": "apps",
    "jobs": "batch",
    "ingresses": "networking.k8s.io",
    "networkpolicies": "networking.k8s.io",
    "ingressclasses": "networking.k8s.io",
    "horizontalpodautoscalers": "autoscaling",
    "poddisruptionbudgets": "policy",
    "roles": "rbac.authorization.k8s.io",
    "rolebindings": "rbac.authorization.k8s.io",
    "clusterroles": "rbac.authorization.k8s.io",
    "clusterrolebindings": "rbac.authorization.k8s.io",
    "storageclasses": "storage.k8s.io",
    "applications": "argoproj.io",
    "clusterissuers": "cert-manager.io",
    "certificates": "cert-manager.io",
}


def kind_of(plural: str) -> str:
    return KINDS[plural][0] if plural in KINDS else plural


def kind_label(plural: str) -> str:
    """``deployment.apps`` / ``pod`` (the form of ``-o name`` and ``deployment.apps/x scaled``)."""
    kind = kind_of(plural).lower()
    group = GROUP_SUFFIX.get(plural)
    return f"{kind}.{group}" if group else kind


def resource_label(plural: str) -> str:
    """``deployments.apps`` / ``pods`` (the form of ``Error from server (NotFound): deployments.apps "x"``)."""
    group = GROUP_SUFFIX.get(plural)
    return f"{plural}.{group}" if group else plural


# ---- time -----------------------------------------------------------------------------
def _units(big: int, big_unit: str, small: int, small_unit: str) -> str:
    """``3m``, or ``3m20s`` when the smaller unit is not zero."""
    return f"{big}{big_unit}" + (f"{small}{small_unit}" if small else "")


def human_duration(seconds: float) -> str:
    """k8s.io/apimachinery ``duration.HumanDuration``."""
    s = int(seconds)
    if s < -1:
        return "<invalid>"
    if s < 0:
        return "0s"
    if s < 120:
        return f"{s}s"
    minutes = s // 60
    if minutes < 10:
        return _units(minutes, "m", s % 60, "s")
    if minutes < 180:
        return f"{minutes}m"
    hours = s // 3600
    if hours < 8:
        return _units(hours, "h", minutes % 60, "m")
    if hours < 48:
        return f"{hours}h"
    if hours < 24 * 8:
        return _units(hours // 24, "d", hours % 24, "h")
    if hours < 24 * 365 * 2:
        return f"{hours // 24}d"
    if hours < 24 * 365 * 8:
        return _units(hours // 24 // 365, "y", (hours // 24) % 365, "d")
    return f"{hours // 24 // 365}y"


def age(env: Any, ts: str | None) -> str:
    if not ts:
        return "<unknown>"
    when = parse_ts(ts)
    if when is None:
        return "<unknown>"
    return human_duration((env.clock.now() - when).total_seconds())


def rfc1123(ts: str | None) -> str:
    when = parse_ts(ts)
    return when.strftime("%a, %d %b %Y %H:%M:%S +0000") if when else "<unknown>"


# ---- tables ----------------------------------------------------------------------------
def table(headers: list[str], rows: list[list[str]], no_headers: bool = False) -> str:
    """A tabwriter table: columns padded to the widest cell plus three spaces."""
    all_rows = ([headers] if not no_headers else []) + rows
    if not all_rows:
        return ""
    widths = [
        max(len(str(r[i])) if i < len(r) else 0 for r in all_rows) for i in range(len(headers))
    ]
    lines = []
    for r in all_rows:
        cells = [str(c) for c in r]
        line = "   ".join(
            c.ljust(widths[i]) if i < len(cells) - 1 else c for i, c in enumerate(cells)
        )
        lines.append(line.rstrip())
    return "\n".join(lines) + "\n"


# ---- serialisation ------------------------------------------------------------------------
_TOP = ("apiVersion", "kind", "metadata", "spec", "status")


_OMIT_EMPTY = frozenset(("labels", "annotations", "finalizers", "ownerReferences"))


def _omit_empty_meta(value: Any) -> Any:
    """Go's ``omitempty``: empty label/annotation maps are not serialised. Containers are
    copied, leaves kept (checked here, not by a call per leaf: issue 30)."""
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if isinstance(v, (dict, list)):
                if not v and k in _OMIT_EMPTY:
                    continue
                out[k] = _omit_empty_meta(v)
            elif v is not None or k not in _OMIT_EMPTY:
                out[k] = v
        return out
    if isinstance(value, list):
        return [_omit_empty_meta(v) if isinstance(v, (dict, list)) else v for v in value]
    return value


def for_output(obj: Any) -> Any:
    """The object as kubectl receives it: apiVersion/kind first, no managedFields, no empty maps."""
    if not isinstance(obj, dict):
        return obj
    out = {k: obj[k] for k in _TOP if k in obj}
    out.update({k: v for k, v in obj.items() if k not in _TOP})
    meta = out.get("metadata")
    if isinstance(meta, dict) and "managedFields" in meta:
        out["metadata"] = {k: v for k, v in meta.items() if k != "managedFields"}
    if isinstance(out.get("items"), list):
        out["items"] = [for_output(i) for i in out["items"]]
    return _omit_empty_meta(out)


def as_list(items: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "items": [for_output(i) for i in items],
        "kind": "List",
        "metadata": {"resourceVersion": ""},
    }


def _list_doc(items: list[dict[str, Any]]) -> dict[str, Any]:
    """The ``-o json|yaml`` document of a list of objects (:func:`output_object`)."""
    return for_output(as_list(items))


def to_json(obj: Any) -> str:
    return kept("json", obj, for_output, _json_text)


def _json_text(doc: Any) -> str:
    """``-o json`` of a document already in :func:`for_output` form."""
    return json.dumps(doc, indent=4, ensure_ascii=False) + "\n"


#: the pure-Python analyser the string style is decided with (its answers are cached)
_ANALYSER = yaml.SafeDumper(io.StringIO(), allow_unicode=True)
_STR = "tag:yaml.org,2002:str"


@functools.lru_cache(maxsize=16_384)
def _str_style(data: str) -> str | None:
    """How kubectl's YAML shows a string: ``|`` block, ``"`` quoted or plain (None).

    A pure function of the string, so cached: the same labels, names and images recur in
    every ``-o yaml`` read, and the analysis is the costly, per-character part (issue 31)."""
    if (
        "\n" in data
        and not data.strip(" ").startswith((" ",))
        and all(c.isprintable() or c == "\n" for c in data)
    ):
        return "|"
    if (
        not data
        or _ANALYSER.resolve(yaml.ScalarNode, data, (True, False)) != _STR
        or not _ANALYSER.analyze_scalar(data).allow_block_plain
    ):
        return '"'
    return None


class _Dumper(yaml.SafeDumper):
    pass


def _str_presenter(dumper: yaml.SafeDumper, data: str) -> yaml.ScalarNode:
    return dumper.represent_scalar(_STR, data, style=_str_style(data))


_Dumper.add_representer(str, _str_presenter)


class _NeedsPython(Exception):
    """A value libyaml might lay out otherwise than the Python emitter: use the latter."""


#: above this, line folding at ``width`` or the simple-key length limit come into play,
#: where libyaml and the Python emitter count differently (bytes vs characters, < vs <=)
_C_MAX_KEY = 100
_C_MAX_STR = 8_000


@functools.lru_cache(maxsize=16_384)
def _c_safe(data: str) -> bool:
    """Strings libyaml is proven to emit byte-identically (tests/tools/test_yaml_emitters.py):
    printable text of the BMP and newlines, short of the folding width."""
    if len(data) > _C_MAX_STR:
        return False
    if data.isascii():
        return all(" " <= c <= "~" or c == "\n" for c in data)
    # libyaml escapes characters beyond the Basic Multilingual Plane that Python writes as is
    return all((c.isprintable() and c <= "\uffff") or c == "\n" for c in data)


def _c_str_presenter(dumper: SafeRepresenter, data: str) -> yaml.ScalarNode:
    if not _c_safe(data):
        raise _NeedsPython
    return dumper.represent_scalar(_STR, data, style=_str_style(data))


def _c_dict_presenter(dumper: SafeRepresenter, data: dict[Any, Any]) -> yaml.MappingNode:
    for key in data:
        # the Python emitter writes empty, multi-line and long keys as ``? key``; libyaml
        # only multi-line ones
        if not isinstance(key, str) or not key or "\n" in key or len(key.encode()) >= _C_MAX_KEY:
            raise _NeedsPython
    return dumper.represent_dict(data)


_MAP, _SEQ = "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"
#: the leaf types the node tree is built for directly (by their own representers)
_LEAVES = (int, bool, float, type(None))


def _nodes(dumper: SafeRepresenter, data: Any, seen: set[int]) -> yaml.Node:
    """The node tree PyYAML's representer makes of a JSON-like ``data`` with the
    presenters above and ``sort_keys``, ``default_flow_style=False``, built without its
    generic dispatch and alias bookkeeping (issue 30: the representer was most of ``-o
    yaml``). A dict or list met twice (an alias in PyYAML's output) or any other type is
    :class:`_NeedsPython`'s business: the caller falls back to the full representer."""
    kind = type(data)
    if kind is str:
        if not _c_safe(data):
            raise _NeedsPython
        return yaml.ScalarNode(_STR, data, style=_str_style(data))
    if kind is dict:
        if id(data) in seen:
            raise _Unsupported
        seen.add(id(data))
        for key in data:  # as :func:`_c_dict_presenter` checks them
            if type(key) is not str or not key or "\n" in key or len(key.encode()) >= _C_MAX_KEY:
                raise _NeedsPython
        pairs = [(_nodes(dumper, k, seen), _nodes(dumper, data[k], seen)) for k in sorted(data)]
        return yaml.MappingNode(_MAP, pairs, flow_style=False)
    if kind is list:
        if id(data) in seen:
            raise _Unsupported
        seen.add(id(data))
        return yaml.SequenceNode(_SEQ, [_nodes(dumper, v, seen) for v in data], flow_style=False)
    if kind in _LEAVES:
        node: yaml.Node = dumper.yaml_representers[kind](dumper, data)
        return node
    raise _Unsupported


class _Unsupported(Exception):
    """Not a JSON-like tree of distinct containers: PyYAML's own representer decides."""


@functools.lru_cache(maxsize=16_384)
def _scalar_tag(value: str, plain: bool) -> str:
    """The resolver's answer for a scalar: a pure function of the value (no path
    resolvers), asked twice per scalar by libyaml's serializer."""
    return str(_ANALYSER.resolve(yaml.ScalarNode, value, (plain, not plain)))


_CDumper: type[SafeRepresenter] | None = None
if getattr(yaml, "CSafeDumper", None) is not None:  # pragma: no branch - libyaml present

    class _CDumperImpl(yaml.CSafeDumper):
        def represent(self, data: Any) -> None:
            """As PyYAML's ``represent``, with the node tree from :func:`_nodes`."""
            try:
                node = _nodes(self, data, set())
            except _Unsupported:
                node = self.represent_data(data)
            self.serialize(node)
            self.represented_objects = {}
            self.object_keeper = []
            self.alias_key = None

        def resolve(self, kind: Any, value: Any, implicit: Any) -> Any:
            if kind is yaml.ScalarNode and type(value) is str:
                # not plain-implicit: the resolver's default, str, with no path resolvers
                # (libyaml's serializer asks it of every scalar; issue 30)
                if not implicit[0]:
                    return _STR
                return _scalar_tag(value, True)
            return super().resolve(kind, value, implicit)

    _CDumperImpl.add_representer(str, _c_str_presenter)
    _CDumperImpl.add_representer(dict, _c_dict_presenter)
    _CDumper = _CDumperImpl

_DUMP_ARGS: dict[str, Any] = {
    "sort_keys": True,
    "default_flow_style": False,
    "allow_unicode": True,
    "width": 10_000,
}


def to_yaml_python(obj: Any) -> str:
    """``-o yaml`` through PyYAML's pure-Python emitter: the reference layout."""
    return yaml.dump(for_output(obj), Dumper=_Dumper, **_DUMP_ARGS)


def to_yaml(obj: Any) -> str:
    """``-o yaml``: libyaml when present and the document holds nothing it could lay out
    differently, else the Python emitter; the bytes are the same either way (issue 31: the
    Python emitter was a tenth of a whole evaluation's CPU). A text made before for an equal
    document is served again (:mod:`.kept_text`)."""
    return kept("yaml", obj, for_output, _yaml_text)


def _yaml_text(doc: Any) -> str:
    """:func:`to_yaml` of a document already in :func:`for_output` form."""
    if _CDumper is not None:
        try:
            return yaml.dump(doc, Dumper=_CDumper, **_DUMP_ARGS)
        except _NeedsPython:
            pass
    return yaml.dump(doc, Dumper=_Dumper, **_DUMP_ARGS)


def output_object(
    obj: dict[str, Any] | list[dict[str, Any]], fmt: str, plural: str | None = None
) -> str:
    """``-o json|yaml|name|jsonpath=...|custom-columns=...`` for one object or a list."""
    single = isinstance(obj, dict)
    items: list[dict[str, Any]] = [obj] if isinstance(obj, dict) else list(obj)
    kind, _, arg = fmt.partition("=")
    if kind in ("json", "yaml"):  # a List gets its own key order and empty fields dropped; a
        # text made before from an equal object or list is served again (:mod:`.kept_text`)
        text = _json_text if kind == "json" else _yaml_text
        if single:
            return kept(kind, obj, for_output, text)
        return kept(f"{kind} list", items, _list_doc, text)
    doc: Any = for_output(obj) if single else as_list(items)
    if kind == "name":
        return "".join(
            f"{kind_label(plural or _plural(i))}/{i['metadata']['name']}\n" for i in items
        )
    if kind in ("jsonpath", "jsonpath-as-json"):
        if not arg:
            raise OutputError("error: template format specified but no template given")
        template = arg.strip("'\"") if arg[:1] in "'\"" and arg[-1:] == arg[:1] else arg
        try:
            return evaluate_template(template, doc)
        except JsonPathError as exc:
            raise OutputError(f"error: error executing jsonpath {template!r}: {exc}") from None
    if kind == "custom-columns":
        if not arg:
            raise OutputError("error: custom-columns format specified but no custom columns given")
        specs = []
        for part in arg.split(","):
            head, _, path = part.partition(":")
            if not path:
                raise OutputError(
                    f"error: unexpected custom-columns spec: {part}, expected <header>:<json-path-expr>"
                )
            specs.append((head, path))
        rows = []
        for item in items:
            row = []
            for _, path in specs:
                expr = (
                    path
                    if path.startswith("{")
                    else "{" + (path if path.startswith(".") else "." + path) + "}"
                )
                try:
                    val = evaluate_template(expr, for_output(item))
                except JsonPathError:
                    val = "<none>"
                row.append(val or "<none>")
            rows.append(row)
        return table([h for h, _ in specs], rows)
    raise OutputError(
        f'error: unable to match a printer suitable for the output format "{fmt}", allowed formats '
        "are: custom-columns,custom-columns-file,go-template,go-template-file,json,jsonpath,"
        "jsonpath-as-json,jsonpath-file,name,template,templatefile,wide,yaml"
    )


def _plural(obj: dict[str, Any]) -> str:
    from ..cluster.store import plural_of

    return plural_of(obj.get("kind", "")) or str(obj.get("kind", "")).lower()


class OutputError(ValueError):
    """An output format kubectl refuses."""


# ---- quantities for top / describe ------------------------------------------------------------
def fmt_cpu_m(millis: float) -> str:
    return f"{round(millis)}m"


def fmt_mem_mi(b: float) -> str:
    return f"{round(b / 2**20)}Mi"


def cpu_m(value: Any) -> int:
    return int(cpu_millis(value) or 0)


def mem_b(value: Any) -> int:
    return int(mem_bytes(value) or 0)


def decode_secret_value(value: str) -> bytes:
    try:
        return base64.b64decode(value)
    except (ValueError, TypeError):
        return str(value).encode()
