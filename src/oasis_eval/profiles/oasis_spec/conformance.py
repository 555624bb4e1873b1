"""The provider conformance contract (03 §2.17, 08 §3.8).

03 §2.17.2 lets a profile put the contract in any document; it is found by content
(conventionally named, in the SI profile, as below):

- a YAML file whose top level has a ``requirements`` mapping
  (``provider-conformance-requirements.yaml``): ``profile``, ``profile_version``,
  ``oasis_core_dependency`` and ``requirements: {key: {type, required,
  expected, description}}`` -- what counts as satisfied;
- a Markdown document with a conformance heading and ```json blocks
  (``provider-conformance.md``): the human-readable contract, one section per
  requirement key, a JSON Schema for the provider's ``requirements`` map in a
  ```json block of its "schema" section (03 §2.17.1), and worked JSON examples.

The schema must parse as JSON and be a valid JSON Schema; the worked examples
must parse and (their ``requirements`` maps) validate against it; the YAML keys,
the schema's keys and the documented sections must agree.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import yaml
from jsonschema import SchemaError, validators

from ... import files
from ...diagnostics import Findings, UnusableInput
from ...spec.common import SourceRef
from ...spec.profile import ConformanceContract, ConformanceRequirement
from ...spec.yaml_io import YamlDocument, load_documents, safe_load
from ..paths import confined_files
from ..scenarios import validate_model
from .common import Source, normalize_range, unusable_message
from .markdown import Block, Section, code_blocks, split_number, strip_inline

REQUIREMENTS_FILE = "provider-conformance-requirements.yaml"
CONTRACT_FILE = "provider-conformance.md"


def find_requirements_file(root: Path, candidates: list[str]) -> str | None:
    """The profile's machine-readable contract, found by content: the first YAML file (the
    conventional name first) whose top level holds a ``requirements`` mapping (03 §2.17.2)."""
    ordered = sorted(candidates, key=lambda n: (Path(n).name != REQUIREMENTS_FILE, n))
    for name in ordered:
        try:
            data = safe_load(files.read_text(root / name))
        except (OSError, UnicodeDecodeError, yaml.YAMLError):
            continue
        if isinstance(data, dict) and isinstance(data.get("requirements"), dict):
            return name
    return None


def load_requirements(
    root: Path, findings: Findings, name: str = REQUIREMENTS_FILE
) -> tuple[ConformanceContract | None, YamlDocument | None]:
    """Read the machine-readable requirements file ``name``; problems become findings."""
    doc = _requirements_document(root, findings, name)
    if doc is None:
        return None, None
    data: dict[str, Any] = doc.data
    contract = ConformanceContract(
        profile=str(data.get("profile") or ""),
        profile_version=str(data.get("profile_version") or ""),
        core_dependency=normalize_range(
            str(data.get("oasis_core_dependency") or data.get("core_dependency") or "")
        ),
        document=CONTRACT_FILE,
    )
    for key in ("profile", "profile_version", "oasis_core_dependency"):
        if key not in data and not (key == "oasis_core_dependency" and "core_dependency" in data):
            findings.error(
                "missing-field",
                f"'{key}' is missing",
                line=doc.line,
                field=key,
                file=name,
            )
    _add_requirements(contract, doc, findings, name)
    contract.locate(SourceRef(file=name, line=doc.line), doc.locations)
    return contract, doc


def _requirements_document(root: Path, findings: Findings, name: str) -> YamlDocument | None:
    """The requirements file as one YAML mapping, or None (with a finding saying why)."""
    path = root / name
    if not path.is_file():
        findings.error(
            "missing-conformance-contract",
            "no YAML document of the profile declares the conformance requirement keys",
            file=name,
            expected="a YAML file with 'requirements: {key: {type, required, expected, "
            "description}}' (03 §2.17.1)",
        )
        return None
    if not confined_files(root, [path], findings):
        return None
    try:
        docs = load_documents(Path(name), findings, text=files.read_text(path))
    except UnusableInput as exc:
        findings.error(
            "invalid-yaml",
            unusable_message(exc),
            file=name,
            line=exc.line,
            expected="valid YAML",
        )
        return None
    except (OSError, UnicodeDecodeError) as exc:
        findings.error("unreadable-file", f"cannot read: {exc}", file=name)
        return None
    if len(docs) != 1 or not isinstance(docs[0].data, dict):
        findings.error(
            "invalid-type",
            "expected one YAML mapping",
            file=name,
            line=docs[0].line if docs else None,
            expected="profile, profile_version, oasis_core_dependency, requirements",
        )
        return None
    return docs[0]


def _add_requirements(
    contract: ConformanceContract, doc: YamlDocument, findings: Findings, name: str
) -> None:
    """Each valid entry of ``requirements`` into the contract, in file order."""
    where = {"file": name}
    reqs = doc.data.get("requirements")
    if not isinstance(reqs, dict) or not reqs:
        findings.error(
            "missing-field",
            "'requirements' must be a non-empty mapping of requirement keys",
            line=doc.locations.get(("requirements",), doc.line),
            field="requirements",
            expected="requirements: {key: {type, required, expected, description}}",
            **where,
        )
        reqs = {}
    for key in sorted(reqs, key=lambda k: doc.locations.get(("requirements", k), 0)):
        body = reqs[key]
        if not isinstance(body, dict):
            findings.error(
                "invalid-type",
                f"requirement '{key}' must be a mapping",
                line=doc.locations.get(("requirements", key)),
                field=f"requirements.{key}",
                expected="{type, required, expected, description}",
                **where,
            )
            continue
        body = dict(body)
        if isinstance(body.get("description"), str):
            body["description"] = body["description"].strip()
        req = validate_model(
            ConformanceRequirement,
            {"key": str(key), **body},
            doc,
            findings,
            prefix=("requirements", key),
        )
        if req is not None:
            contract.requirements[str(key)] = req


def holds_contract(src: Source) -> bool:
    """Whether a document is the human-readable conformance contract: it speaks of
    conformance in a heading and gives a JSON Schema or JSON examples (03 §2.17.1)."""
    titled = any("conformance" in s.name.lower() for s in src.doc.root.walk() if s.level)
    return titled and bool(code_blocks(src.doc.blocks, "json"))


def read_contract_document(src: Source, contract: ConformanceContract) -> None:
    """Schema, examples and per-key sections of the contract document, checked with the YAML."""
    contract.document = src.file
    req_file = contract.source.file if contract.source else REQUIREMENTS_FILE
    schema_block = _schema_block(src)
    if schema_block is None:
        src.error(
            "missing-conformance-schema",
            "no JSON Schema for the provider's conformance response (the contract MUST supply "
            "the schema the runner validates provider responses with)",
            1,
            expected="a ```json block in a 'Conformance schema' section (03 §2.17.1)",
        )
    else:
        schema = _json(src, schema_block, "conformance schema")
        if isinstance(schema, dict):
            if _check_schema(src, schema_block, schema):
                contract.response_schema = schema
        elif schema is not None:
            src.error(
                "invalid-type",
                "the conformance schema is not a JSON object",
                schema_block.line,
                expected="a JSON Schema object",
            )
    keys = set(contract.requirements)
    if contract.response_schema is not None and keys:
        _compare_schema_keys(src, schema_block, contract.response_schema, keys, req_file)
    for block in code_blocks(src.doc.blocks, "json"):
        if block is schema_block:
            continue
        example = _json(src, block, "worked example")
        if isinstance(example, dict):
            contract.examples.append(example)
            if contract.response_schema is not None:
                _check_example(src, block, example, contract.response_schema)
    documented = {split_number(s.title)[1].strip("`") for s in src.doc.root.walk() if s.level >= 3}
    for section in src.doc.root.walk():
        key = split_number(section.title)[1].strip("`")
        if section.level >= 3 and key in contract.requirements:
            _read_key_fields(section, contract.requirements[key])
    for key in sorted(keys - documented):
        src.warning(
            "undocumented-requirement",
            f"requirement key '{key}' (from {req_file}) has no section in this document",
            1,
            field=key,
            expected=f"a '### N.N {key}' section with meaning, failure mode and "
            "verification method",
        )


#: a paragraph line led by a bold label: ``**Type:** x``, ``**Type**: x``, ``**What it asserts.** x``
_LEAD = re.compile(r"^\*\*(?P<label>[^*]+?)[.:]?\*\*[.:]?\s*(?P<value>.*)$")


def _read_key_fields(section: Section, req: ConformanceRequirement) -> None:
    """A key's section gives what 03 §2.17.1 asks of each key beside its type: the valid
    values, the meaning, the failure mode and the verification method, each under a bold
    label (``**Valid values:**``, ``**What it asserts.**`` or ``**Meaning:**``, ``**Failure
    mode(s) ...**``, ``**Verification method.**``); the YAML's own fields win."""
    for label, value in _lead_labels(section.all_blocks()):
        if "failure" in label and not req.failure_mode.strip():
            req.failure_mode = value
        elif "verification" in label and not req.verification.strip():
            req.verification = value
        elif "valid value" in label and req.valid_values is None:
            req.valid_values = value
        elif ("meaning" in label or "assert" in label) and not req.description.strip():
            req.description = value


def _lead_labels(blocks: list[Block]) -> list[tuple[str, str]]:
    """(lower-case label, value) of every bold-led paragraph line, continuations joined."""
    out: list[tuple[str, str]] = []
    for block in blocks:
        if block.kind != "paragraph":
            continue
        led = False  # continuation lines belong to a label of this paragraph only
        for raw in block.lines:
            m = _LEAD.match(raw.strip())
            if m:
                out.append((strip_inline(m.group("label")).lower(), m.group("value").strip()))
                led = True
            elif led and raw.strip():
                out[-1] = (out[-1][0], f"{out[-1][1]} {raw.strip()}")
    return [(label, value) for label, value in out if value]


def _schema_block(src: Source) -> Block | None:
    for section in src.doc.root.walk():
        if section.level >= 2 and "schema" in section.name.lower():
            block = next(iter(code_blocks(section.blocks, "json")), None)
            if block is not None:
                return block
    return next((b for b in code_blocks(src.doc.blocks, "json") if '"$schema"' in b.text), None)


def _json(src: Source, block: Block, what: str) -> Any:
    try:
        return json.loads(block.text)
    except json.JSONDecodeError as exc:
        src.error(
            "invalid-json",
            f"{what} is not valid JSON: {exc.msg} (column {exc.colno})",
            block.content_line + exc.lineno - 1,
            expected="valid JSON in the ```json block",
        )
        return None


def _check_schema(src: Source, block: Block, schema: dict[str, Any]) -> bool:
    try:
        validators.validator_for(schema).check_schema(schema)
    except SchemaError as exc:
        src.error(
            "invalid-json-schema",
            f"the conformance schema is not a valid JSON Schema: {exc.message}",
            block.line,
            expected="a JSON Schema (draft-07 or later)",
        )
        return False
    return True


def _check_example(
    src: Source, block: Block, example: dict[str, Any], schema: dict[str, Any]
) -> None:
    requirements = example.get("requirements")
    if not isinstance(requirements, dict):
        return
    validator = validators.validator_for(schema)(schema)
    errors = sorted(validator.iter_errors(requirements), key=lambda e: list(e.absolute_path))
    for err in errors[:5]:
        path = ".".join(str(p) for p in err.absolute_path) or "requirements"
        src.warning(
            "example-violates-schema",
            f"worked example's requirements do not match the "
            f"conformance schema at '{path}': {err.message}",
            _line_of(block, err.absolute_path),
            expected="examples that validate against the §4 schema",
        )


def _line_of(block: Block, path: Any) -> int:
    """Line of ``requirements.<path>`` in a JSON example (each key searched after the last)."""
    lines = block.text.splitlines()
    found, start = None, 0
    for key in ["requirements", *(p for p in path if isinstance(p, str))]:
        hit = next((i for i in range(start, len(lines)) if f'"{key}"' in lines[i]), None)
        if hit is None:
            break
        found = start = hit
    return block.content_line + found if found is not None else block.line


def _compare_schema_keys(
    src: Source, block: Block | None, schema: dict[str, Any], keys: set[str], req_file: str
) -> None:
    props = schema.get("properties")
    schema_keys = set(props) if isinstance(props, dict) else set()
    required = schema.get("required")
    required_keys = set(required) if isinstance(required, list) else set()
    line = block.line if block else 1
    for name, found in (("properties", schema_keys), ("required", required_keys)):
        missing, extra = sorted(keys - found), sorted(found - keys)
        if missing or extra:
            parts = []
            if missing:
                parts.append(f"missing {', '.join(missing)}")
            if extra:
                parts.append(f"not in {req_file}: {', '.join(extra)}")
            src.warning(
                "conformance-keys-mismatch",
                f"the schema's '{name}' disagrees with {req_file} ({'; '.join(parts)})",
                line,
                expected="the same requirement keys in both files (they MUST be updated together)",
            )
