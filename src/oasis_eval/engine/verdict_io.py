"""Reading and writing the verdict document of spec 05 §1.

The document is ``{verdict: {...}}`` with keys in the order the spec lists
them (our model declares its fields in that order). Optional blocks that do
not apply are omitted rather than written as ``null``: ``capability`` unless
safety is PASS, ``adversarial_verification`` unless performed,
``metadata.abort_reason`` unless aborted. Enums are written as their string
values. Nothing is added (no timestamps): the same verdict always gives the
same bytes.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from .. import files
from ..errors import OasisError
from ..spec.common import VerdictStatus
from ..spec.verdict import Verdict, VerdictDocument
from ..spec.yaml_dump import safe_dump
from ..spec.yaml_io import safe_load


class VerdictFileError(OasisError, ValueError):
    """A verdict file that cannot be read or does not match spec 05 §1."""


def verdict_data(verdict: Verdict) -> dict[str, Any]:
    """The verdict document as plain JSON-compatible data, ``{"verdict": {...}}``."""
    return {"verdict": verdict.model_dump(mode="json", exclude_none=True)}


def verdict_yaml(verdict: Verdict) -> str:
    """05 §1 as YAML (block style, spec key order, UTF-8 text): ``yaml.safe_dump``'s bytes,
    through libyaml where they are the same (spec/yaml_dump.py, issue 30)."""
    return safe_dump(verdict_data(verdict))


def verdict_json(verdict: Verdict) -> str:
    """05 §1 as JSON (two-space indent, spec key order, trailing newline)."""
    return json.dumps(verdict_data(verdict), indent=2, ensure_ascii=False) + "\n"


def load_verdict(path: str | Path) -> Verdict:
    """Read a verdict file (YAML or JSON) written by :func:`verdict_yaml` / :func:`verdict_json`.

    Raises :class:`VerdictFileError` when the file does not parse or does not
    validate against the published schema.
    """
    path = Path(path)
    try:
        text = files.read_text(path)
        data = json.loads(text) if path.suffix == ".json" else safe_load(text)
    except (OSError, ValueError, yaml.YAMLError) as exc:
        raise VerdictFileError(f"{path}: cannot read verdict: {exc}") from exc
    errors = validate_verdict_data(data)
    if errors:
        raise VerdictFileError(f"{path}: not a valid OASIS verdict:\n  " + "\n  ".join(errors))
    return VerdictDocument.model_validate(data).verdict


def verdict_schema() -> dict[str, Any]:
    """The published JSON Schema of the verdict document (``oasis schema verdict`` adds its
    title and ids): generated from :class:`VerdictDocument`, so one version of oasis-eval has
    one schema."""
    return VerdictDocument.model_json_schema()


@lru_cache(maxsize=1)
def _validator() -> jsonschema.protocols.Validator:
    """The validator of :func:`verdict_schema`. That the schema is itself a valid JSON Schema
    (``check_schema``, its metaschema) does not depend on any input: it is proven once by
    ``tests/reporting/test_verdict_io.py``, not again by every process that reads or writes
    a verdict (45 ms of each ``oasis run``, ``replay``, ``report``; issue 30)."""
    schema = verdict_schema()
    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    return cls(schema)


PASS = VerdictStatus.PASS.value


def validate_verdict_data(data: Any) -> list[str]:
    """Problems with ``data`` as a verdict document; empty when it conforms.

    Checks the published JSON Schema (``VerdictDocument.model_json_schema()``),
    then the 05 §1 rules a schema cannot express: ``capability`` only with a
    safety PASS, ``abort_reason`` exactly when ``aborted``. Messages are
    ``path: problem``, sorted, so the list is stable.
    """
    errors = []
    for error in _validator().iter_errors(data):
        where = "/".join(str(part) for part in error.absolute_path) or "(document)"
        errors.append(f"{where}: {error.message}")
    if errors:
        return sorted(errors)
    verdict = data["verdict"]
    if "safety" not in verdict and not verdict.get("incomplete"):
        errors.append(
            "verdict/safety: absent, but the verdict does not say why it is incomplete "
            "(only a run with no safety scenario, --capability-only, claims no safety value)"
        )
    if "capability" in verdict and verdict.get("safety", PASS) != PASS:
        errors.append(
            "verdict/capability: present although safety is "
            f"{verdict['safety']} (05 §1: only when safety is PASS)"
        )
    meta = verdict["metadata"]
    if meta.get("aborted") and not meta.get("abort_reason"):
        errors.append("verdict/metadata/abort_reason: required when aborted is true (05 §3.3)")
    if not meta.get("aborted") and meta.get("abort_reason"):
        errors.append("verdict/metadata/abort_reason: present although aborted is false")
    adversarial = verdict.get("adversarial_verification")
    if adversarial is not None and not adversarial.get("performed"):
        errors.append(
            "verdict/adversarial_verification: present although not performed "
            "(05 §1: present only when performed)"
        )
    return sorted(errors)
