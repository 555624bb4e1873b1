"""What may differ between two runs of the same code, and nothing else (``benchmarks.identity``).

Two ``oasis run`` invocations of the same code on the same inputs write the same bytes except
for values that are random or read from the clock. Each rule below names one such value, found
by diffing two runs of the same commit; everything else — verdicts, scores, scenario results,
evidence content and the order of it all — is compared byte for byte:

- wall-clock datetimes: ISO-8601 timestamps that fall inside the window in which the run was
  made (the simulated clusters' fixed 2024 clock is NOT inside it, so it stays compared);
- the run's duration (``PT<seconds with 3 decimals>S``) and each scenario's ``agent_seconds``,
  also as junit.xml's ``time`` attributes (the suites' and root's sums of them, the duration);
- the run id (``run_id``, random per run) and the run directory's path;
- environment ids (``sim-<32 hex>``, random per environment since issue 11);
- redaction markers (``[REDACTED:<12 hex>]``, keyed with a per-run random key);
- the audit ids of the simulator's GitOps setup writes (``create`` of ``applications``): it
  derives them from the environment id, so they vary with it. Every other audit id comes
  from the environment's seeded id stream and stays compared byte for byte;
- the implementation version (``implementation_version``, ``oasis-eval X.Y.Z``);
- the manifest's digests and sizes, which cover the files above: each is checked against the
  file it names in the same run directory and replaced by ``<verified>`` (or a mismatch note).

Evidence compares as its content: each evidence file is read whole (the stored form of issue
30 rebuilt, ``oasis_eval.evaluation.stored_evidence.whole_data``, on the parsed JSON, no model
in between) and laid out at indent 1, so a run storing the same evidence in another form
compares equal, and any difference of content still differs.

Random values are not blanked but mapped to placeholders numbered in order of first
appearance (``<ENV-1>``, ``<REDACTED-3>``, ...) across all files of one run, so a run that
uses one environment id (or one secret) where the other uses two still differs.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from oasis_eval.evaluation.stored_evidence import whole_data
from oasis_eval.files import GZIP_SUFFIX, read_maybe_gzip

#: ISO-8601 datetime with a time part (``T`` or a space), optional fraction and offset
_DATETIME = re.compile(
    r"\b(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?)(Z|[+-]\d{2}:?\d{2})?(?![\d.])"
)
#: the run's wall time as ``engine/conclude.py`` writes it
_RUN_DURATION = re.compile(r"\bPT\d+\.\d{3}S\b")
_AGENT_SECONDS = re.compile(r'("agent_seconds":\s*)-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?')
#: JUnit's ``time`` attributes (reporting/junit.py: seconds with 3 decimals)
_JUNIT_TIME = re.compile(r'(<test(?:suites?|case) [^>]*?\btime=")\d+\.\d{3}"')
_RUN_ID_KEY = re.compile(r"""(?:"run_id":\s*"|\brun_id:\s*'?)([0-9a-f]{8,32})\b""")
_ENV_ID = re.compile(r"\bsim-[0-9a-f]{32}\b")
_REDACTED = re.compile(r"REDACTED:[0-9a-f]{12}\b")
_VERSION_KEY = re.compile(
    r"""((?:"implementation_version":\s*"|\bimplementation_version:\s*'?))([^"'\s,]+)"""
)
_VERSION_TEXT = re.compile(r"\boasis-eval \d+\.\d+\.\d+(?:[-.+][0-9A-Za-z.]+)?")


@dataclass
class Normaliser:
    """Normalises every file of ONE run directory (use a fresh instance per run).

    Args:
        run_dir: the run directory's path as given to ``--out``; replaced by ``<RUN_DIR>``.
        window: (earliest, latest) aware datetimes; a timestamp inside it is wall-clock time.
    """

    run_dir: str | None = None
    window: tuple[datetime, datetime] | None = None
    run_ids: list[str] = field(default_factory=list)
    audit_ids: list[str] = field(default_factory=list)
    _maps: dict[str, dict[str, str]] = field(default_factory=dict)

    def learn_run_ids(self, text: str) -> None:
        """Collects the run id(s) a file declares, so every other mention of them is replaced."""
        for match in _RUN_ID_KEY.finditer(text):
            if match.group(1) not in self.run_ids:
                self.run_ids.append(match.group(1))

    def learn_audit_ids(self, text: str) -> None:
        """Collects the audit ids of GitOps setup writes from a JSON file (the flattened entry
        and the raw ``audit.k8s.io`` event both name the resource); other files are ignored."""
        try:
            document = json.loads(text)
        except ValueError:
            return
        stack: list[object] = [document]
        while stack:
            node = stack.pop()
            if isinstance(node, list):
                stack.extend(node)
            elif isinstance(node, dict):
                if _is_setup_write(node) and node["auditID"] not in self.audit_ids:
                    self.audit_ids.append(node["auditID"])
                stack.extend(node.values())

    def placeholder(self, kind: str, value: str) -> str:
        """``<KIND-n>``: n counts the distinct values of this kind in order of first appearance."""
        seen = self._maps.setdefault(kind, {})
        if value not in seen:
            seen[value] = f"<{kind}-{len(seen) + 1}>"
        return seen[value]

    def text(self, text: str) -> str:
        """The normalised form of one file's text (see the module docstring for the rules)."""
        if self.run_dir:
            text = text.replace(self.run_dir, "<RUN_DIR>")
        for run_id in self.run_ids:
            text = re.sub(rf"\b{re.escape(run_id)}\b", "<RUN_ID>", text)
        # JUnit times first: a suite's timestamp becomes "<TIME>", whose ">" would end the tag
        text = _JUNIT_TIME.sub(r'\g<1><SECONDS>"', text)
        text = _DATETIME.sub(self._datetime, text)
        text = _RUN_DURATION.sub("<DURATION>", text)
        text = _AGENT_SECONDS.sub(r"\g<1><SECONDS>", text)
        text = _ENV_ID.sub(lambda m: self.placeholder("ENV", m.group()), text)
        text = _REDACTED.sub(lambda m: self.placeholder("REDACTED", m.group()), text)
        if self.audit_ids:
            ids = re.compile("|".join(re.escape(value) for value in self.audit_ids))
            text = ids.sub(lambda m: self.placeholder("AUDIT", m.group()), text)
        text = _VERSION_KEY.sub(r"\g<1><VERSION>", text)
        return _VERSION_TEXT.sub("oasis-eval <VERSION>", text)

    def _datetime(self, match: re.Match[str]) -> str:
        if self.window is None:
            return match.group()
        offset = match.group(3) or "+00:00"
        try:
            when = datetime.fromisoformat(
                f"{match.group(1)}T{match.group(2)}{offset.replace('Z', '+00:00')}"
            )
        except ValueError:
            return match.group()
        earliest, latest = self.window
        return "<TIME>" if earliest <= when.astimezone(UTC) <= latest else match.group()

    def manifest(self, text: str, run_dir: Path) -> str:
        """``manifest.json`` with each digest and size checked against the file it names, then
        replaced by ``<verified>``, and a signature value by ``<signature>``; its file list,
        order and every other field are kept (and normalised as text)."""
        try:
            document = json.loads(text)
        except ValueError:
            return self.text(text)
        for entry in document.get("files") or []:
            if isinstance(entry, dict) and isinstance(entry.get("path"), str):
                _verify_entry(entry, run_dir)
        signature = document.get("signature")
        if isinstance(signature, dict) and signature.get("value") is not None:
            signature["value"] = "<signature>"
        return self.text(json.dumps(document, indent=2, ensure_ascii=False))


def _is_setup_write(node: dict[str, object]) -> bool:
    """An audit event creating an Argo CD Application (what the simulator's GitOps setup logs)."""
    if not isinstance(node.get("auditID"), str) or node.get("verb") != "create":
        return False
    ref = node.get("objectRef")
    resource = ref.get("resource") if isinstance(ref, dict) else node.get("resource")
    return resource == "applications"


def _verify_entry(entry: dict[str, object], run_dir: Path) -> None:
    """Replaces an entry's ``sha256``/``size`` by ``<verified>`` when they match the file."""
    target = run_dir / str(entry["path"])
    data = target.read_bytes() if target.is_file() else None
    if "sha256" in entry:
        ok = data is not None and hashlib.sha256(data).hexdigest() == entry["sha256"]
        entry["sha256"] = "<verified>" if ok else f"<MISMATCH {entry['sha256']}>"
    if "size" in entry:
        ok = data is not None and len(data) == entry["size"]
        entry["size"] = "<verified>" if ok else f"<MISMATCH {entry['size']}>"


def normalise_run(
    run_dir: Path,
    files: list[str],
    window: tuple[datetime, datetime] | None,
    extra: dict[str, str] | None = None,
) -> dict[str, str]:
    """Normalised text of ``files`` (paths relative to ``run_dir``) plus ``extra`` pseudo-files
    (e.g. the command's stdout), all through one ``Normaliser`` so placeholders span files.

    Files are read as UTF-8 (decompressed when stored gzip-compressed) (undecodable bytes kept as surrogate escapes) in the order given;
    Run ids and setup-write audit ids are learnt from every file before any is normalised.
    """
    norm = Normaliser(run_dir=str(run_dir), window=window)
    # a compressed file (evidence/<id>.json.gz, issue 19) compares as its content, under the
    # name an uncompressed run gives it
    texts = {
        name.removesuffix(GZIP_SUFFIX): read_maybe_gzip(run_dir / name).decode(
            "utf-8", "surrogateescape"
        )
        for name in files
    }
    texts = {name: _whole(name, text) for name, text in texts.items()}
    texts.update(extra or {})
    for name in ("run.json", "verdict.json", "verdict.yaml"):
        if name in texts:
            norm.learn_run_ids(texts[name])
    for name in (f.removesuffix(GZIP_SUFFIX) for f in files):
        if name.endswith(".json") and name != "manifest.json":
            norm.learn_audit_ids(texts[name])
    out: dict[str, str] = {}
    for name, text in texts.items():
        out[name] = norm.manifest(text, run_dir) if name == "manifest.json" else norm.text(text)
    return out


def _whole(name: str, text: str) -> str:
    """An evidence file's whole JSON at indent 1 (see the module docstring); anything else, or
    evidence that does not parse or rebuild, as it is."""
    if not (name.startswith("evidence/") or "/evidence/" in name) or not name.endswith(".json"):
        return text
    try:
        return json.dumps(whole_data(json.loads(text)), indent=1, ensure_ascii=False)
    except ValueError:
        return text
