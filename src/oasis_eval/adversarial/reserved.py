"""Reserved scenarios (07 §5, 03 §2.12): withheld scenarios, run like the corpus, reported as counts.

They come from a location given at run time, never from the profile: a
directory of scenario YAML, or an encrypted bundle written by
``oasis reserved pack`` (Fernet: AES-128-CBC + HMAC-SHA256, from the
``cryptography`` package; the key is read from an environment variable and is
never written anywhere). Nothing this module prints or raises during a run
names a reserved scenario or quotes its content: messages carry counts and
document numbers only (07 §5.3). The maintainer commands (``pack``, ``rotate``,
``check``) work on the plain files and may name them.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import os
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from .. import secrecy
from ..diagnostics import Findings, UnusableInput
from ..errors import OasisError
from ..files import read_bytes, read_text
from ..profiles.scenarios import scenario_from_document
from ..spec.profile import Profile
from ..spec.scenario import Scenario
from ..spec.yaml_io import load_documents
from ..validation import validate_scenario

if TYPE_CHECKING:  # the optional `reserved` extra; imported at run time only when used
    from cryptography.fernet import Fernet

#: the bundle's plaintext format (a JSON object inside the Fernet token)
BUNDLE_FORMAT = "oasis-eval/reserved/v1"
#: the environment variable holding the bundle key unless another is named
DEFAULT_KEY_ENV = "OASIS_RESERVED_KEY"
#: the alias a reserved scenario runs under: the agent and the provider never see its id
ALIAS_PREFIX = "reserved-"
SOURCE_DIRECTORY, SOURCE_BUNDLE = "directory", "encrypted bundle"


class ReservedError(UnusableInput):
    """A reserved set that cannot be used; the message never quotes reserved content."""


@dataclass
class ReservedSet:
    """The reserved scenarios of a run (07 §5) and where they came from."""

    scenarios: list[Scenario]
    source: str
    #: the bundle key (evidence of a bundle run is kept encrypted with it); None for a directory
    key: bytes | None = None


# ---- keys and encryption ------------------------------------------------------------------


def _fernet(key: bytes) -> Fernet:
    try:
        from cryptography.fernet import Fernet  # optional extra `reserved`: loaded on use
    except ImportError:  # pragma: no cover - the `reserved` extra is not installed
        raise ReservedError(
            "encrypted reserved bundles need the 'cryptography' package: "
            "pip install cryptography (or, from the oasis-eval repository, pip install -e '.[reserved]')"
        ) from None
    try:
        return Fernet(key)
    except (ValueError, binascii.Error):
        raise ReservedError(
            "the reserved-bundle key is not a valid key (32 url-safe base64 bytes; "
            "make one with `oasis reserved keygen`)"
        ) from None


def generate_key() -> str:
    """A fresh random bundle key (``oasis reserved keygen``)."""
    return base64.urlsafe_b64encode(os.urandom(32)).decode()


def read_key(env_var: str) -> bytes:
    """The key from ``env_var``; the error names the variable, never a value."""
    value = secrecy.read(env_var).strip()  # withheld from the agent's processes (issue 25)
    if not value:
        raise ReservedError(f"the environment variable {env_var} holds no reserved-bundle key")
    key = value.encode(
        "utf-8", "surrogateescape"
    )  # bytes that are not UTF-8: a bad key, not a crash
    _fernet(key)
    return key


def seal(data: bytes, key: bytes) -> bytes:
    """Encrypt ``data`` with the bundle key (07 §5.3: reserved content is not disclosed)."""
    return _fernet(key).encrypt(data)


def unseal(token: bytes, key: bytes) -> bytes:
    """Decrypt a bundle token; a wrong key is a clear ReservedError, not a traceback."""
    fernet = _fernet(key)  # a clear ReservedError when the extra is missing
    from cryptography.fernet import InvalidToken  # optional extra, present: _fernet succeeded

    try:
        return fernet.decrypt(token)
    except InvalidToken:
        raise ReservedError(
            "the reserved bundle cannot be decrypted with this key "
            "(wrong key, or not a bundle written by `oasis reserved pack`)"
        ) from None


# ---- reading ------------------------------------------------------------------------------


def yaml_files(directory: Path) -> list[Path]:
    """Every ``*.yaml`` / ``*.yml`` under ``directory``, sorted (also promote.py's probe directories)."""
    # a FIFO or dangling link named *.yaml is an error when read, never silently left out of the set
    return sorted(
        p for p in directory.rglob("*") if not p.is_dir() and p.suffix in (".yaml", ".yml")
    )


def read_directory(directory: Path) -> list[tuple[str, str]]:
    """(relative name, YAML text) of every scenario file under ``directory``, sorted."""
    if not directory.is_dir():
        raise UnusableInput("not a directory of reserved scenario files", file=str(directory))
    files = yaml_files(directory)
    if not files:
        raise UnusableInput("the directory holds no .yaml scenario file", file=str(directory))
    return [(str(p.relative_to(directory)), read_text(p)) for p in files]


def read_bundle(path: Path, key: bytes) -> list[tuple[str, str]]:
    """The (name, text) files of an encrypted reserved bundle."""
    try:
        token = read_bytes(path)
    except OSError as exc:
        raise UnusableInput(
            f"cannot read the reserved bundle: {exc.strerror}", file=str(path)
        ) from None
    try:
        data = json.loads(unseal(token.strip(), key))
    except ValueError:
        raise ReservedError("the reserved bundle's content is not valid JSON") from None
    if not isinstance(data, dict) or data.get("format") != BUNDLE_FORMAT:
        raise ReservedError(f"not a reserved bundle of format {BUNDLE_FORMAT}")
    docs = data.get("documents")
    if not isinstance(docs, list) or not all(
        isinstance(d, dict) and isinstance(d.get("text"), str) for d in docs
    ):
        raise ReservedError("the reserved bundle holds no document list")
    return [(str(d.get("name", f"document-{i + 1:03d}")), d["text"]) for i, d in enumerate(docs)]


def parse(documents: list[tuple[str, str]], quiet: bool = True) -> tuple[list[Scenario], Findings]:
    """Scenarios from (name, text) pairs. With ``quiet`` a YAML error names only the document number."""
    findings = Findings()
    scenarios: list[Scenario] = []
    for number, (name, text) in enumerate(documents, start=1):
        label = f"reserved document {number}" if quiet else name
        try:
            docs = load_documents(Path(label), findings, text=text)
        except UnusableInput as exc:
            if not quiet:
                raise
            raise ReservedError(
                f"{label}: invalid YAML" + (f" at line {exc.line}" if exc.line else "")
            ) from None
        for doc in docs:
            scenario = scenario_from_document(doc, findings)
            if scenario is not None:
                scenarios.append(scenario)
    return scenarios, findings


def load_reserved(path: Path, key_env: str = DEFAULT_KEY_ENV) -> ReservedSet:
    """A directory of scenario YAML or an encrypted bundle. Errors carry counts, never content."""
    if path.is_dir():
        documents, source, key = read_directory(path), SOURCE_DIRECTORY, None
    elif path.is_file():
        key = read_key(key_env)
        documents, source = read_bundle(path, key), SOURCE_BUNDLE
    else:
        raise UnusableInput("no such reserved-scenario directory or bundle", file=str(path))
    scenarios, findings = parse(documents)
    if findings.errors:
        raise ReservedError(
            f"{len(findings.errors)} problem(s) in the reserved scenarios; details are "
            "withheld here: run `oasis reserved check` on the plain files"
        )
    if not scenarios:
        raise ReservedError("the reserved set holds no scenario")
    return ReservedSet(scenarios=scenarios, source=source, key=key)


# ---- checking -----------------------------------------------------------------------------


def check_against(scenarios: list[Scenario], profile: Profile) -> Findings:
    """Full validation against the profile (maintainer use: findings name files and fields)."""
    findings = Findings()
    for scenario in scenarios:
        findings.extend(validate_scenario(scenario, profile))
    ids = Counter(s.id for s in scenarios)
    for dup in sorted(i for i, n in ids.items() if n > 1):
        findings.error(
            "duplicate-scenario-id", f"reserved scenario id '{dup}' is used {ids[dup]} times"
        )
    return findings


def run_problems(reserved: ReservedSet, profile: Profile) -> tuple[int, list[str]]:
    """(number of invalid reserved scenarios, warnings) for a run: counts and public category ids only."""
    invalid = sum(1 for s in reserved.scenarios if check_against([s], profile).errors)
    if len({s.id for s in reserved.scenarios}) != len(reserved.scenarios):
        invalid += 1
    return invalid, declaration_warnings(reserved.scenarios, profile)


def category_counts(scenarios: list[Scenario]) -> dict[str, int]:
    """Reserved safety scenarios per category (rotation must not shrink any, 07 §5)."""
    return dict(sorted(Counter(s.category for s in scenarios if s.is_safety).items()))


def declaration_warnings(scenarios: list[Scenario], profile: Profile) -> list[str]:
    """Supplied counts against the profile's declaration (03 §2.12), per safety category."""
    declared = dict(profile.reserved_scenarios.per_category) if profile.reserved_scenarios else {}
    supplied = category_counts(scenarios)
    warnings = []
    if not declared:
        warnings.append(
            "the profile declares no reserved scenarios (03 §2.12); the supplied set "
            "is run and counted all the same"
        )
    for category in sorted(set(declared) | set(supplied)):
        want, got = declared.get(category, 0), supplied.get(category, 0)
        if declared and want != got:
            warnings.append(
                f"safety category '{category}': the profile declares {want} reserved "
                f"scenario(s), the supplied set holds {got}"
            )
    return warnings


def aliased(scenarios: list[Scenario]) -> list[tuple[Scenario, Scenario]]:
    """(alias, original) pairs. An alias runs under an opaque id with name, description, intent
    and quality blanked, in an order that says nothing about the ids: the agent, the provider and
    every log see only aliases."""
    ordered = sorted(scenarios, key=lambda s: hashlib.sha256(s.id.encode()).hexdigest())
    return [
        (
            s.model_copy(
                update={
                    "id": f"{ALIAS_PREFIX}{i:03d}",
                    "name": "reserved scenario",
                    "description": "reserved scenario (content not disclosed)",
                    "intent": None,
                    "quality": None,
                }
            ),
            s,
        )
        for i, s in enumerate(ordered, start=1)
    ]


# ---- maintainer operations ------------------------------------------------------------------


def bundle_bytes(documents: list[tuple[str, str]], key: bytes) -> bytes:
    """Documents are stored under neutral names: file names can be as telling as ids."""
    payload = {
        "format": BUNDLE_FORMAT,
        "documents": [
            {"name": f"document-{i:03d}", "text": text}
            for i, (_, text) in enumerate(documents, start=1)
        ],
    }
    return seal(json.dumps(payload, sort_keys=True).encode(), key)


def pack(directory: Path, out: Path, key: bytes, profile: Profile | None = None) -> list[Scenario]:
    """Encrypt every scenario file of ``directory`` into ``out``; refuses invalid scenarios."""
    documents = read_directory(directory)
    scenarios, findings = parse(documents, quiet=False)
    if profile is not None:
        findings.extend(check_against(scenarios, profile))
    if findings.errors:
        raise PackRefused(findings)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(bundle_bytes(documents, key))
    return scenarios


class PackRefused(OasisError):
    """The reserved scenarios do not validate: the bundle is not written."""

    def __init__(self, findings: Findings):
        self.findings = findings
        super().__init__(f"{len(findings.errors)} error(s) in the reserved scenarios")


@dataclass
class Rotation:
    """What a rotation did: the retired scenarios and the per-category counts before and after."""

    retired: list[Scenario]
    kept: int
    added: int
    before: dict[str, int]
    after: dict[str, int]


def rotate(
    old: Path,
    old_key: bytes,
    new_dir: Path,
    out: Path,
    new_key: bytes,
    profile: Profile | None = None,
    publish: Path | None = None,
    allow_shrink: bool = False,
) -> Rotation:
    """Replace a bundle's scenarios with those of ``new_dir`` (07 §5.2).

    The count per safety category must stay stable or grow unless ``allow_shrink``;
    scenarios that leave the reserved set can be written to ``publish`` for the public suite."""
    old_docs = read_bundle(old, old_key)
    old_scenarios, _ = parse(old_docs, quiet=False)
    new_docs = read_directory(new_dir)
    new_scenarios, findings = parse(new_docs, quiet=False)
    if profile is not None:
        findings.extend(check_against(new_scenarios, profile))
    if findings.errors:
        raise PackRefused(findings)
    before, after = category_counts(old_scenarios), category_counts(new_scenarios)
    shrunk = [c for c in sorted(before) if after.get(c, 0) < before[c]]
    if shrunk and not allow_shrink:
        raise RotationRefused(shrunk, before, after)
    new_ids = {s.id for s in new_scenarios}
    old_ids = {s.id for s in old_scenarios}
    retired = [s for s in old_scenarios if s.id not in new_ids]
    if publish is not None and retired:
        publish.mkdir(parents=True, exist_ok=True)
        retired_ids = {s.id for s in retired}
        for name, text in old_docs:
            docs, _ = parse([(name, text)], quiet=False)
            if docs and all(s.id in retired_ids for s in docs):
                (publish / f"{_file_name(docs[0].id)}.yaml").write_text(text, encoding="utf-8")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(bundle_bytes(new_docs, new_key))
    return Rotation(
        retired=retired,
        kept=len(new_ids & old_ids),
        added=len(new_ids - old_ids),
        before=before,
        after=after,
    )


class RotationRefused(OasisError):
    """A rotation would shrink a safety category's reserved set (07 §5)."""

    def __init__(self, categories: list[str], before: dict[str, int], after: dict[str, int]):
        self.categories = categories
        parts = [f"'{c}' {before[c]} -> {after.get(c, 0)}" for c in categories]
        super().__init__(
            "the number of reserved scenarios would shrink in safety categor"
            f"{'y' if len(parts) == 1 else 'ies'} "
            + ", ".join(parts)
            + " (07 §5.2: stable or growing); pass --allow-shrink to do it anyway"
        )


def _file_name(scenario_id: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]", "_", scenario_id)
