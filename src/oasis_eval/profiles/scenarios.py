"""Scenario files: multi-document YAML -> :class:`Scenario` objects with source lines."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from ..diagnostics import Findings
from ..spec.common import SourceRef
from ..spec.scenario import Scenario
from ..spec.yaml_io import YamlDocument, dotted, load_documents


def load_scenario_file(
    path: Path, findings: Findings, display: str | None = None
) -> list[Scenario]:
    """Every scenario document in ``path``. Invalid documents become findings, not exceptions.

    ``display`` is the name used in findings (defaults to the path as given).
    """
    docs = load_documents(path, findings)
    out = []
    for doc in docs:
        if display:
            doc.file = display
        scenario = scenario_from_document(doc, findings)
        if scenario is not None:
            out.append(scenario)
    return out


def scenario_from_document(doc: YamlDocument, findings: Findings) -> Scenario | None:
    """A Scenario from one YAML document; problems become located findings, not exceptions."""
    data = doc.data
    if not isinstance(data, dict):
        findings.error(
            "not-a-mapping",
            f"a scenario document must be a mapping, got {type(data).__name__}",
            file=doc.file,
            line=doc.line,
            expected="a mapping with the fields of spec 02 §1",
        )
        return None
    data = _migrate_top_level_conditional(dict(data), doc, findings)
    return validate_model(Scenario, data, doc, findings, scenario_id=_str_or_none(data.get("id")))


def _migrate_top_level_conditional(
    data: dict[str, Any], doc: YamlDocument, findings: Findings
) -> dict[str, Any]:
    """Accept the reference runner's top-level ``conditional`` (spec: ``assertions.conditional``)."""
    if "conditional" not in data:
        return data
    top = data.pop("conditional")
    assertions = data.get("assertions")
    assertions = dict(assertions) if isinstance(assertions, dict) else {}
    where = {
        "file": doc.file,
        "line": doc.locations.get(("conditional",)),
        "field": "conditional",
        "scenario_id": _str_or_none(data.get("id")),
    }
    if assertions.get("conditional"):
        findings.error(
            "conditional-twice",
            "both top-level 'conditional' and 'assertions.conditional' are present; keep only the latter",
            expected="conditional under assertions (02 §1.10)",
            **where,
        )
        return data
    findings.warning(
        "conditional-top-level",
        "'conditional' belongs under 'assertions' (02 §1.10); accepted and moved there",
        expected="assertions.conditional",
        **where,
    )
    assertions["conditional"] = top
    data["assertions"] = assertions
    # keep line numbers pointing at the original entries
    for path, line in list(doc.locations.items()):
        if path[:1] == ("conditional",):
            doc.locations[("assertions", *path)] = line
    return data


def validate_model(
    model: type[BaseModel],
    data: Any,
    doc: YamlDocument,
    findings: Findings,
    scenario_id: str | None = None,
    prefix: tuple[Any, ...] = (),
) -> Any:
    """``model.model_validate(data)``; each pydantic error becomes a located finding."""
    try:
        obj = model.model_validate(data)
    except ValidationError as exc:
        for err in exc.errors(include_url=False):
            loc = tuple(p for p in err["loc"] if not _is_union_tag(p))
            path = (*prefix, *loc)
            line = _nearest_line(doc.locations, path) or doc.line
            findings.error(
                _error_code(err["type"]),
                _error_message(err),
                file=doc.file,
                line=line,
                field=dotted(path) or None,
                expected=_expected(err),
                scenario_id=scenario_id,
            )
        return None
    if hasattr(obj, "locate"):
        obj.locate(SourceRef(file=doc.file, line=doc.line), doc.locations)
    return obj


def _is_union_tag(part: Any) -> bool:
    # pydantic puts the union member name in loc (e.g. 'str', 'list[...]'); drop it
    return isinstance(part, str) and (
        "[" in part or part in {"str", "bool", "int", "float", "dict"}
    )


def _nearest_line(locs: dict[tuple[Any, ...], int], path: tuple[Any, ...]) -> int | None:
    for cut in range(len(path), -1, -1):
        line = locs.get(path[:cut])
        if line is not None:
            return line
    return None


def _error_code(kind: str) -> str:
    return {"missing": "missing-field", "extra_forbidden": "unknown-field"}.get(
        kind, "invalid-value" if kind.endswith(("enum", "literal_error")) else "invalid-type"
    )


def _error_message(err: Mapping[str, Any]) -> str:
    if err["type"] == "missing":
        return "required field is missing"
    value = err.get("input")
    shown = repr(value)
    if len(shown) > 80:
        shown = shown[:77] + "..."
    return f"{err['msg']} (got {shown})"


def _expected(err: Mapping[str, Any]) -> str | None:
    ctx = err.get("ctx") or {}
    if "expected" in ctx:
        return str(ctx["expected"])
    return None


def _str_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) else None
