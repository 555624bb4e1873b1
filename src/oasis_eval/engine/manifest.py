"""The run directory's manifest: SHA-256 of every file, signed when a run key is configured.

Replay reproduces a verdict from the recorded evidence (core §3.5.4, 08 §6.3); that only
means something if the evidence is what the run recorded. ``manifest.json`` lists every
file of the run directory (recursively, in sorted order, the manifest itself excepted)
with its digest and size. With a key it carries a signature over that list, the
algorithm and the key id (a fingerprint, never the key):

- ``OASIS_RUN_KEY``: an HMAC-SHA256 secret (at least 16 bytes) that signs and verifies;
- ``OASIS_RUN_SIGNING_KEY``: an Ed25519 private key (a PEM file path, or the PEM itself);
- ``OASIS_RUN_PUBLIC_KEY``: an Ed25519 public key (PEM file path or PEM) that only verifies.

Ed25519 needs the optional ``cryptography`` package (the ``reserved`` extra). An unsigned
manifest detects accidental damage, not forgery: anyone can recompute it.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

from .. import secrecy
from ..diagnostics import UnusableInput
from ..files import RUN_FILE_LIMIT, read_bytes, write_atomic
from .manifest_json import manifest_text

MANIFEST = "manifest.json"
FORMAT = "oasis-eval run manifest"
VERSION = 1
HMAC_ENV, SIGNING_ENV, PUBLIC_ENV = "OASIS_RUN_KEY", "OASIS_RUN_SIGNING_KEY", "OASIS_RUN_PUBLIC_KEY"
HMAC_SHA256, ED25519, UNSIGNED = "hmac-sha256", "ed25519", "none"
_MIN_HMAC_BYTES = 16
_CHUNK = 1 << 20


# ---- keys -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RunKey:
    """A configured run key: signs (HMAC, Ed25519 private) and/or verifies manifests."""

    algorithm: str
    key_id: str
    source: str  # the environment variable or option it came from, for messages
    _secret: bytes = field(repr=False, default=b"")
    _private: Any = field(repr=False, default=None)
    _public: Any = field(repr=False, default=None)

    @property
    def can_sign(self) -> bool:
        return self.algorithm == HMAC_SHA256 or self._private is not None

    def sign(self, payload: bytes) -> str:
        if self.algorithm == HMAC_SHA256:
            return base64.b64encode(
                hmac.new(self._secret, payload, hashlib.sha256).digest()
            ).decode()
        if self._private is None:
            raise UnusableInput(
                f"{self.source} is a public key: it verifies run manifests but cannot sign them"
            )
        return base64.b64encode(self._private.sign(payload)).decode()

    def verify(self, payload: bytes, value: str) -> bool:
        try:
            raw = base64.b64decode(value.encode("ascii"), validate=True)
        except (ValueError, UnicodeEncodeError):
            return False
        if self.algorithm == HMAC_SHA256:
            return hmac.compare_digest(
                raw, hmac.new(self._secret, payload, hashlib.sha256).digest()
            )
        # optional dependency (the 'reserved' extra): imported only when verifying a signature
        from cryptography.exceptions import InvalidSignature

        try:
            self._public.verify(raw, payload)
        except InvalidSignature:
            return False
        return True


def load_run_key(
    env: Mapping[str, str] | None = None, public_key: Path | None = None, signing: bool = False
) -> RunKey | None:
    """The run key configured in ``env`` (default: the process environment), or None.

    ``public_key`` (``oasis replay --public-key``) takes the place of ``OASIS_RUN_PUBLIC_KEY``.
    More than one key, a short HMAC secret or an unreadable PEM is a clear error; so is a
    verify-only key where a run is about to be written (``signing``): its manifest would be
    unsigned and then fail verification with that very key.
    """
    key = _configured(_environment() if env is None else env, public_key)
    if signing and key is not None and not key.can_sign:
        raise UnusableInput(
            f"{key.source} holds a public key, which verifies run manifests but cannot sign "
            f"them: set {SIGNING_ENV} (or {HMAC_ENV}) to sign runs, or unset {key.source}"
        )
    return key


def _environment() -> dict[str, str]:
    """The key variables of this process: the two secret ones are read once and withheld
    from the agent's processes (:mod:`oasis_eval.secrecy`, issue 25)."""
    return {
        **secrecy.read_group((HMAC_ENV, SIGNING_ENV)),
        PUBLIC_ENV: os.environ.get(PUBLIC_ENV, ""),
    }


def _configured(env: Mapping[str, str], public_key: Path | None) -> RunKey | None:
    given = {
        name: env.get(name, "")
        for name in (HMAC_ENV, SIGNING_ENV, PUBLIC_ENV)
        if env.get(name, "").strip()
    }
    if public_key is not None:
        given[PUBLIC_ENV] = str(public_key)
    if len(given) > 1:
        raise UnusableInput(
            f"more than one run key is configured ({', '.join(sorted(given))}); set only one"
        )
    if not given:
        return None
    ((name, value),) = given.items()
    if name == HMAC_ENV:
        # surrounding whitespace (a trailing newline from a file or env-file) is never part of the
        # secret; bytes that are not UTF-8 are kept as given (surrogateescape), never an error
        secret = value.strip().encode("utf-8", "surrogateescape")
        if len(secret) < _MIN_HMAC_BYTES:
            raise UnusableInput(
                f"{HMAC_ENV} must hold at least {_MIN_HMAC_BYTES} bytes of secret "
                f"(got {len(secret)}); e.g. `python -c 'import secrets; print(secrets.token_hex(32))'`"
            )
        key_id = (
            "hmac:" + hmac.new(secret, b"oasis-eval run key id", hashlib.sha256).hexdigest()[:32]
        )
        return RunKey(HMAC_SHA256, key_id, name, _secret=secret)
    return _ed25519(name, value, private=name == SIGNING_ENV)


def _ed25519(name: str, value: str, private: bool) -> RunKey:
    try:  # optional dependency (the 'reserved' extra): imported only for an Ed25519 key
        from cryptography.exceptions import UnsupportedAlgorithm
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric.ed25519 import (
            Ed25519PrivateKey,
            Ed25519PublicKey,
        )
    except ImportError:
        raise UnusableInput(
            f"{name}: Ed25519 run signing needs the optional 'cryptography' package: "
            "pip install cryptography (or, from the oasis-eval repository, pip install -e "
            "'.[reserved]'), or use an HMAC key in OASIS_RUN_KEY"
        ) from None
    pem = _pem(name, value)
    try:
        key = (
            serialization.load_pem_private_key(pem, password=None)
            if private
            else serialization.load_pem_public_key(pem)
        )
    except (ValueError, TypeError, UnsupportedAlgorithm) as exc:
        raise UnusableInput(
            f"{name}: not an unencrypted PEM {'private' if private else 'public'} key ({exc})"
        ) from None
    wanted = Ed25519PrivateKey if private else Ed25519PublicKey
    if not isinstance(key, wanted):
        raise UnusableInput(
            f"{name}: the key is not an Ed25519 key "
            "(create one with `openssl genpkey -algorithm ed25519 -out run-key.pem`)"
        )
    public = key.public_key() if isinstance(key, Ed25519PrivateKey) else key
    raw = public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    key_id = "ed25519:" + hashlib.sha256(raw).hexdigest()[:32]
    return RunKey(ED25519, key_id, name, _private=key if private else None, _public=public)


def _pem(name: str, value: str) -> bytes:
    if value.lstrip().startswith("-----BEGIN"):
        return value.encode("utf-8", "surrogateescape")
    path = Path(value).expanduser()
    try:
        return read_bytes(path, 1 << 16)
    except OSError as exc:
        raise UnusableInput(
            f"{name}: cannot read the key file: {exc.strerror}", file=str(path)
        ) from None


# ---- digests and writing ----------------------------------------------------------------------------


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def scan(
    run_dir: Path, known: Mapping[str, Mapping[str, Any]] | None = None
) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """Every regular file under ``run_dir`` but the manifest: relative POSIX path -> digest and
    size; and the other entries (symbolic links, devices) that a run directory never holds.
    ``known``: path -> :func:`file_entry` of the very bytes this process just wrote there
    (the journal hashed a scenario's stored evidence already: issue 30, each byte hashed
    once); used only while the file's size is the entry's, else the file is hashed."""
    files, odd = _entries(run_dir)
    return {rel: _entry_of(path, (known or {}).get(rel)) for rel, path in files.items()}, odd


def _entry_of(path: Path, known: Mapping[str, Any] | None) -> dict[str, Any]:
    size = path.stat().st_size
    if known is not None and known.get("size") == size:
        return {"sha256": known["sha256"], "size": size}
    return {"sha256": _sha256(path), "size": size}


def _entries(run_dir: Path) -> tuple[dict[str, Path], list[str]]:
    """:func:`scan` without the digests: relative POSIX path -> path, sorted; the odd entries."""
    files: dict[str, Path] = {}
    odd: list[str] = []
    for root, dirs, names in os.walk(run_dir, followlinks=False):
        base = Path(root)
        for name in sorted(dirs):
            if (base / name).is_symlink():
                odd.append((base / name).relative_to(run_dir).as_posix())
        for name in sorted(names):
            path = base / name
            rel = path.relative_to(run_dir).as_posix()
            if rel == MANIFEST:
                continue
            if path.is_symlink() or not path.is_file():
                odd.append(rel)
                continue
            files[rel] = path
    return dict(sorted(files.items())), sorted(odd)


def signed_payload(data: Mapping[str, Any]) -> bytes:
    """The bytes a signature covers: the manifest minus the signature value, canonical JSON
    (so algorithm and key id are signed too and cannot be swapped)."""
    signature = dict(data.get("signature") or {})
    signature.pop("value", None)
    body = {**data, "signature": signature}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode(
        "ascii"
    )


def file_entry(data: bytes) -> dict[str, Any]:
    """The manifest entry of a file holding ``data`` (what :func:`scan` would find)."""
    return {"sha256": hashlib.sha256(data).hexdigest(), "size": len(data)}


def write_manifest(
    run_dir: Path, key: RunKey | None, known: Mapping[str, Mapping[str, Any]] | None = None
) -> dict[str, Any]:
    """(Re)write ``run_dir/manifest.json`` over the directory as it is now. Call it last.
    ``known``: the digests of files this process wrote, as :func:`scan` takes them."""
    files, odd = scan(run_dir, known)
    if odd:
        raise UnusableInput(
            f"the run directory holds entries that are not regular files: {', '.join(odd)}",
            file=str(run_dir),
        )
    return write_manifest_of(run_dir, files, key)


def write_manifest_of(
    run_dir: Path, files: Mapping[str, Mapping[str, Any]], key: RunKey | None
) -> dict[str, Any]:
    """Write ``run_dir/manifest.json`` listing exactly ``files`` (relative path -> digest and
    size), atomically: a writer that knows the files it wrote lists them (the journal did
    until session 17), so a file planted beside them is never vouched for."""
    signer = key if key is not None and key.can_sign else None
    data: dict[str, Any] = {
        "manifest": FORMAT,
        "version": VERSION,
        "digest": "sha256",
        "signature": {
            "algorithm": signer.algorithm if signer is not None else UNSIGNED,
            "key_id": signer.key_id if signer is not None else None,
        },
        "files": [{"path": path, **files[path]} for path in sorted(files)],
    }
    if signer is not None:
        data["signature"]["value"] = signer.sign(signed_payload(data))
    else:
        data["signature"]["value"] = None
    write_atomic(run_dir / MANIFEST, manifest_text(data).encode("utf-8"))
    return data


def listed_files(run_dir: Path) -> dict[str, dict[str, Any]]:
    """The files ``run_dir/manifest.json`` lists (path -> digest and size); {} when unreadable.
    Only meaningful after :func:`verify_manifest` found the directory intact."""
    data, _ = _read(run_dir / MANIFEST)
    if data is None:
        return {}
    return {e["path"]: {"sha256": e["sha256"], "size": e["size"]} for e in data["files"]}


# ---- verification -----------------------------------------------------------------------------------


class Integrity(str, Enum):
    """What the manifest proves about the run directory."""

    verified = "verified"  # signed, signature checked with the configured key, every digest matches
    unsigned = "unsigned"  # every digest matches; nothing proves who wrote the manifest
    unverified = "unverified"  # signed, every digest matches, but no key is configured to check it
    no_manifest = "no_manifest"  # an old run, or the manifest was removed
    tampered = "tampered"  # a digest, the file list or the signature does not match


@dataclass
class ManifestCheck:
    integrity: Integrity
    modified: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    signed_by: str | None = None
    key: RunKey | None = None

    @property
    def intact(self) -> bool:
        """Every file is as the manifest lists it (whether or not anyone signed the list)."""
        return self.integrity in (Integrity.verified, Integrity.unsigned, Integrity.unverified)

    def lines(self) -> list[str]:
        """What to tell the user, one finding per line (file names included)."""
        out = list(self.problems)
        out += [f"modified: {p}" for p in self.modified]
        out += [f"missing: {p}" for p in self.missing]
        out += [f"added: {p}" for p in self.added]
        return out


def verify_manifest(run_dir: Path, key: RunKey | None) -> ManifestCheck:
    """Check ``run_dir`` against its manifest, and the manifest against ``key`` when given.

    With a key, an unsigned manifest, a missing one, or one signed by another key is tampering:
    stripping or replacing the signature is exactly what a forger does."""
    path = run_dir / MANIFEST
    if path.is_symlink() or (path.exists() and not path.is_file()):  # a run writes a regular file
        return ManifestCheck(
            Integrity.tampered, key=key, problems=[f"{MANIFEST} is not a regular file"]
        )
    if not path.is_file():
        odd = _entries(run_dir)[1]  # no digests: there is nothing to compare them with
        if (
            odd
        ):  # never read through them: a FIFO hangs, a link leads into another run (or anywhere)
            return ManifestCheck(
                Integrity.tampered, key=key, added=[f"{rel} (not a regular file)" for rel in odd]
            )
        if key is not None:
            return ManifestCheck(
                Integrity.tampered,
                key=key,
                problems=[
                    f"{MANIFEST} is missing, but a run key is configured ({key.source}, key id {key.key_id}): "
                    "the manifest was removed, or the run was written without the key"
                ],
            )
        return ManifestCheck(Integrity.no_manifest)
    data, problem = _read(path)
    if data is None:
        return ManifestCheck(
            Integrity.tampered, key=key, problems=[f"{MANIFEST} is unreadable: {problem}"]
        )
    check = ManifestCheck(Integrity.unsigned, key=key)
    _compare(run_dir, data, check)
    _check_signature(data, key, check)
    if check.modified or check.missing or check.added or check.problems:
        check.integrity = Integrity.tampered
    return check


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A key given twice is refused: another JSON reader could keep the other value."""
    keys = [k for k, _ in pairs]
    if len(set(keys)) != len(keys):
        raise ValueError(
            f"a key appears twice: {sorted(k for k in set(keys) if keys.count(k) > 1)}"
        )
    return dict(pairs)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _read(path: Path) -> tuple[dict[str, Any] | None, str]:
    try:
        data = json.loads(
            read_bytes(path, RUN_FILE_LIMIT).decode("utf-8"),
            object_pairs_hook=_no_duplicates,
            parse_constant=_no_constant,
        )
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        return None, str(exc)[:300]
    if not isinstance(data, dict) or data.get("manifest") != FORMAT:
        return None, f"not an {FORMAT}"
    if data.get("version") != VERSION or data.get("digest") != "sha256":
        return (
            None,
            f"unsupported manifest version {data.get('version')!r} / digest {data.get('digest')!r}",
        )
    files, signature = data.get("files"), data.get("signature")
    if not isinstance(files, list) or not isinstance(signature, dict):
        return None, "'files' must be a list and 'signature' a mapping"
    for entry in files:
        if not (
            isinstance(entry, dict)
            and isinstance(entry.get("path"), str)
            and isinstance(entry.get("sha256"), str)
            and isinstance(entry.get("size"), int)
        ):
            return None, f"malformed file entry {entry!r:.120}"
    paths = [entry["path"] for entry in files]
    if len(set(paths)) != len(paths):
        return None, "a file is listed twice"
    return data, ""


def _compare(run_dir: Path, data: dict[str, Any], check: ManifestCheck) -> None:
    listed = {entry["path"]: entry for entry in data["files"]}
    actual, odd = scan(run_dir)
    for rel in sorted(set(listed) | set(actual)):
        if rel not in actual:
            check.missing.append(rel)
        elif rel not in listed:
            check.added.append(rel)
        elif (listed[rel]["sha256"], listed[rel]["size"]) != (
            actual[rel]["sha256"],
            actual[rel]["size"],
        ):
            check.modified.append(rel)
    check.added += [f"{rel} (not a regular file)" for rel in odd]


def _check_signature(data: dict[str, Any], key: RunKey | None, check: ManifestCheck) -> None:
    signature = data["signature"]
    algorithm, key_id, value = (
        signature.get("algorithm"),
        signature.get("key_id"),
        signature.get("value"),
    )
    if algorithm == UNSIGNED:
        if key is not None:
            check.problems.append(
                f"the manifest is unsigned, but a run key is configured ({key.source}, key id "
                f"{key.key_id}): the signature was stripped, or the run was written without the key"
            )
        return
    if (
        algorithm not in (HMAC_SHA256, ED25519)
        or not isinstance(value, str)
        or not isinstance(key_id, str)
    ):
        check.problems.append(f"the manifest's signature is malformed (algorithm {algorithm!r})")
        return
    check.signed_by = f"{algorithm} key {key_id}"
    if key is None:
        check.integrity = Integrity.unverified
        return
    if algorithm != key.algorithm or key_id != key.key_id:
        check.problems.append(
            f"the manifest is signed by another key ({algorithm} {key_id}), "
            f"not the configured one ({key.algorithm} {key.key_id}, from {key.source})"
        )
        return
    if not key.verify(signed_payload(data), value):
        check.problems.append(
            f"the manifest's signature does not verify with the configured key ({key.key_id})"
        )
        return
    check.integrity = Integrity.verified
