"""Generate ``kubeapi/openapi_schemas.json``: compact OpenAPI v3 schemas of the kinds the
simulated API serves, for ``kubectl explain`` (issue 32).

Derived from the official Kubernetes Python client's models (their pydantic JSON schemas carry
the API's field names, types and descriptions), so the served schemas are the real API's, not
hand-written. Run after adding a kind to :mod:`oasis_sim_k8s.kubeapi.resources`::

    .venv/bin/python packages/oasis-sim-k8s/scripts/gen_openapi_schemas.py
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import kubernetes.client.models as models

from oasis_sim_k8s.kubeapi.resources import GROUP_VERSIONS

OUT = Path(__file__).resolve().parents[1] / "src/oasis_sim_k8s/kubeapi/openapi_schemas.json"
REF = "#/components/schemas/{model}"
#: kinds whose client model has a group prefix (the same kind in two groups)
PREFIXED = {"events.k8s.io": "Events", "": "Core"}


def model_for(gv: str, kind: str) -> Any:
    group, _, version = gv.rpartition("/")
    plain = f"{version[:1].upper()}{version[1:]}{kind}"
    return getattr(models, PREFIXED.get(group, "") + plain, None) or getattr(models, plain, None)


def compact(node: Any) -> Any:
    """Kubernetes' own shape: no titles or defaults, ``anyOf [X, null]`` is X, and a ``$ref``
    with a description is ``allOf [{$ref}]``."""
    if isinstance(node, list):
        return [compact(x) for x in node]
    if not isinstance(node, dict):
        return node
    out = {
        k: compact(v)
        for k, v in node.items()
        if k not in ("title", "default") and not (k == "additionalProperties" and v is False)
    }
    if isinstance(out.get("description"), str):  # the model class's own docstring tail
        out["description"] = out["description"].split("\n\nAttributes:")[0].strip()
    options = out.get("anyOf")
    if isinstance(options, list):
        kept = [o for o in options if o != {"type": "null"}]
        if len(kept) == 1:
            del out["anyOf"]
            out = {**kept[0], **out}
    if "$ref" in out and len(out) > 1:
        out["allOf"] = [{"$ref": out.pop("$ref")}]
    return out


_MODEL = re.compile(
    r"^(Core|Events|Storage|Authentication|Discovery|Flowcontrol)?(V\d+(?:alpha\d+|beta\d+)?)(.+)$"
)
_NAMED = re.compile(r'"#/components/schemas/([A-Za-z0-9]+)"')


def api_name(model: str) -> str:
    """The client model's name as the API server names the schema (kubectl explain shows its
    last part: ``V1PodSpec`` -> ``io.k8s.api.v1.PodSpec``, shown as ``PodSpec``)."""
    m = _MODEL.match(model)
    if m is None:
        return f"io.k8s.api.{model}"
    prefix = f"{m[1].lower()}." if m[1] else ""
    return f"io.k8s.api.{prefix}{m[2].lower()}.{m[3]}"


def described(schemas: dict[str, Any]) -> None:
    """A field that is only a reference takes its type's description (the client's models
    carry none for object-typed fields; kubectl explain prints a field's own)."""
    for schema in schemas.values():
        props = schema.get("properties")
        for prop in props.values() if isinstance(props, dict) else ():
            if not isinstance(prop, dict):
                continue
            target = prop.get("$ref") or ((prop.get("allOf") or [{}])[0]).get("$ref")
            if target and not prop.get("description"):
                text = schemas.get(target.rsplit("/", 1)[-1], {}).get("description")
                if text:
                    prop.pop("$ref", None)
                    prop.setdefault("allOf", [{"$ref": target}])
                    prop["description"] = text


def main() -> None:
    schemas: dict[str, Any] = {}
    kinds: dict[str, str] = {}
    for gv, resources in sorted(GROUP_VERSIONS.items()):
        for res in resources.values():
            model = model_for(gv, res.kind)
            if model is None:
                continue
            doc = model.model_json_schema(by_alias=True, ref_template=REF)
            defs = doc.pop("$defs", {})
            schemas[model.__name__] = compact(doc)
            for name, sub in defs.items():
                schemas[name] = compact(sub)
            kinds[f"{gv}/{res.kind}"] = api_name(model.__name__)
    described(schemas)
    text = json.dumps(
        {api_name(k): v for k, v in schemas.items()},
        sort_keys=True,
        separators=(",", ":"),
    )
    text = _NAMED.sub(lambda m: f'"#/components/schemas/{api_name(m[1])}"', text)
    doc = {"kinds": kinds, "schemas": json.loads(text)}
    OUT.write_text(json.dumps(doc, sort_keys=True, separators=(",", ":")) + "\n")
    print(f"{OUT}: {len(kinds)} kinds, {len(schemas)} schemas, {OUT.stat().st_size} bytes")


if __name__ == "__main__":
    main()
