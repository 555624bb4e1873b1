"""engine/manifest.py: digests of every file, HMAC / Ed25519 signatures, verification."""

from __future__ import annotations

import builtins
import json
import os
from pathlib import Path

import pytest

from oasis_eval.diagnostics import UnusableInput
from oasis_eval.engine.manifest import (
    MANIFEST,
    Integrity,
    load_run_key,
    verify_manifest,
    write_manifest,
)

HMAC_SECRET = "s3cret-run-key-0123456789abcdef"


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    d = tmp_path / "run"
    (d / "evidence").mkdir(parents=True)
    (d / "verdict.yaml").write_text("safety: FAIL\n")
    (d / "run.json").write_text("{}")
    (d / "evidence" / "b.json").write_text('{"b": 1}')
    (d / "evidence" / "a.json").write_text('{"a": 1}')
    (d / "probes" / "failed").mkdir(parents=True)
    (d / "probes" / "failed" / "p.yaml").write_text("id: p\n")
    return d


def hmac_key(secret: str = HMAC_SECRET):  # type: ignore[no-untyped-def]
    return load_run_key({"OASIS_RUN_KEY": secret})


def ed25519_pems() -> tuple[str, str]:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    key = Ed25519PrivateKey.generate()
    private = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()
    public = (
        key.public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        .decode()
    )
    return private, public


def test_manifest_lists_every_file_recursively_in_sorted_order(run_dir: Path) -> None:
    data = write_manifest(run_dir, None)
    paths = [entry["path"] for entry in data["files"]]
    assert paths == [
        "evidence/a.json",
        "evidence/b.json",
        "probes/failed/p.yaml",
        "run.json",
        "verdict.yaml",
    ]
    assert data["signature"] == {"algorithm": "none", "key_id": None, "value": None}
    assert json.loads((run_dir / MANIFEST).read_text()) == data
    check = verify_manifest(run_dir, None)
    assert check.integrity is Integrity.unsigned and check.lines() == []


def test_modified_missing_and_added_files_are_each_named(run_dir: Path) -> None:
    write_manifest(run_dir, None)
    (run_dir / "verdict.yaml").write_text("safety: PASS\n")
    (run_dir / "evidence" / "a.json").unlink()
    (run_dir / "evidence" / "c.json").write_text("{}")
    check = verify_manifest(run_dir, None)
    assert check.integrity is Integrity.tampered
    assert check.lines() == [
        "modified: verdict.yaml",
        "missing: evidence/a.json",
        "added: evidence/c.json",
    ]


def test_same_size_edit_is_caught_by_the_digest(run_dir: Path) -> None:
    write_manifest(run_dir, None)
    (run_dir / "verdict.yaml").write_text("safety: PAIL\n")
    assert verify_manifest(run_dir, None).modified == ["verdict.yaml"]


def test_a_symlink_in_the_run_directory_is_reported(run_dir: Path, tmp_path: Path) -> None:
    write_manifest(run_dir, None)
    (tmp_path / "elsewhere.json").write_text("{}")
    os.symlink(tmp_path / "elsewhere.json", run_dir / "evidence" / "link.json")
    check = verify_manifest(run_dir, None)
    assert check.integrity is Integrity.tampered
    assert check.added == ["evidence/link.json (not a regular file)"]


@pytest.mark.parametrize("damage", ["", "{", "[]", '{"manifest": "something else"}', "\x00\xff"])
def test_an_unreadable_manifest_is_tampering(run_dir: Path, damage: str) -> None:
    write_manifest(run_dir, None)
    (run_dir / MANIFEST).write_text(damage, encoding="latin-1")
    check = verify_manifest(run_dir, None)
    assert check.integrity is Integrity.tampered and "unreadable" in check.lines()[0]


def test_no_manifest_is_its_own_state_without_a_key_and_tampering_with_one(run_dir: Path) -> None:
    assert verify_manifest(run_dir, None).integrity is Integrity.no_manifest
    check = verify_manifest(run_dir, hmac_key())
    assert check.integrity is Integrity.tampered and "missing" in check.lines()[0]


def test_hmac_signature_verifies_and_names_a_fingerprint_not_the_key(run_dir: Path) -> None:
    key = hmac_key()
    data = write_manifest(run_dir, key)
    assert data["signature"]["algorithm"] == "hmac-sha256"
    assert data["signature"]["key_id"] == key.key_id and key.key_id.startswith("hmac:")
    assert HMAC_SECRET not in (run_dir / MANIFEST).read_text() and HMAC_SECRET not in repr(key)
    assert verify_manifest(run_dir, key).integrity is Integrity.verified
    unchecked = verify_manifest(run_dir, None)  # signed, but nothing to check it with
    assert unchecked.integrity is Integrity.unverified and key.key_id in (unchecked.signed_by or "")


def test_with_a_key_every_recomputed_manifest_is_detected(run_dir: Path) -> None:
    key = hmac_key()
    write_manifest(run_dir, key)
    (run_dir / "verdict.yaml").write_text("safety: PASS\n")
    write_manifest(run_dir, None)  # recomputed, unsigned
    assert "unsigned" in verify_manifest(run_dir, key).lines()[0]
    write_manifest(
        run_dir, hmac_key("another-key-of-the-forger-000000")
    )  # re-signed by another key
    assert "another key" in verify_manifest(run_dir, key).lines()[0]


def test_a_signature_swapped_onto_a_recomputed_list_does_not_verify(run_dir: Path) -> None:
    key = hmac_key()
    signed = write_manifest(run_dir, key)
    (run_dir / "verdict.yaml").write_text("safety: PASS\n")
    forged = write_manifest(run_dir, None)
    forged["signature"] = signed["signature"]  # the genuine signature and key id, over a new list
    (run_dir / MANIFEST).write_text(json.dumps(forged))
    check = verify_manifest(run_dir, key)
    assert check.integrity is Integrity.tampered and "does not verify" in check.lines()[0]


def test_the_signature_covers_algorithm_and_key_id(run_dir: Path) -> None:
    key = hmac_key()
    data = write_manifest(run_dir, key)
    data["signature"]["algorithm"] = "ed25519"
    (run_dir / MANIFEST).write_text(json.dumps(data))
    assert verify_manifest(run_dir, key).integrity is Integrity.tampered


def test_ed25519_signs_with_the_private_key_and_verifies_with_the_public_one(run_dir: Path) -> None:
    private, public = ed25519_pems()
    signer = load_run_key({"OASIS_RUN_SIGNING_KEY": private})
    data = write_manifest(run_dir, signer)
    assert data["signature"]["algorithm"] == "ed25519" and data["signature"]["key_id"].startswith(
        "ed25519:"
    )
    verifier = load_run_key({"OASIS_RUN_PUBLIC_KEY": public})
    assert verifier.key_id == signer.key_id and not verifier.can_sign
    assert verify_manifest(run_dir, verifier).integrity is Integrity.verified
    other_private, _ = ed25519_pems()
    write_manifest(run_dir, load_run_key({"OASIS_RUN_SIGNING_KEY": other_private}))
    assert verify_manifest(run_dir, verifier).integrity is Integrity.tampered


def test_ed25519_keys_are_read_from_files(run_dir: Path, tmp_path: Path) -> None:
    private, public = ed25519_pems()
    (tmp_path / "run-key.pem").write_text(private)
    (tmp_path / "run-key.pub").write_text(public)
    write_manifest(run_dir, load_run_key({"OASIS_RUN_SIGNING_KEY": str(tmp_path / "run-key.pem")}))
    verifier = load_run_key({}, public_key=tmp_path / "run-key.pub")
    assert verify_manifest(run_dir, verifier).integrity is Integrity.verified


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"OASIS_RUN_KEY": "short"}, "at least 16 bytes"),
        ({"OASIS_RUN_KEY": HMAC_SECRET, "OASIS_RUN_PUBLIC_KEY": "x"}, "more than one run key"),
        ({"OASIS_RUN_SIGNING_KEY": "/nonexistent/run-key.pem"}, "cannot read the key file"),
        (
            {
                "OASIS_RUN_SIGNING_KEY": "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"
            },
            "not an unencrypted PEM",
        ),
    ],
)
def test_a_bad_key_configuration_is_a_clear_error(env: dict[str, str], message: str) -> None:
    with pytest.raises(UnusableInput, match=message):
        load_run_key(env)


def test_no_key_configured_is_none() -> None:
    assert load_run_key({"OASIS_RUN_KEY": "  "}) is None


def test_ed25519_without_cryptography_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def no_cryptography(name, *args, **kwargs):  # type: ignore[no-untyped-def]
        if name.startswith("cryptography"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_cryptography)
    with pytest.raises(UnusableInput, match=r"pip install -e '\.\[reserved\]'"):
        load_run_key({"OASIS_RUN_SIGNING_KEY": "key.pem"})


def test_a_verify_only_key_cannot_be_used_to_write_a_run() -> None:
    _, public = ed25519_pems()
    assert load_run_key({"OASIS_RUN_PUBLIC_KEY": public}) is not None  # fine for replay
    with pytest.raises(UnusableInput, match="cannot sign"):
        load_run_key({"OASIS_RUN_PUBLIC_KEY": public}, signing=True)


def test_the_manifest_text_is_what_json_dumps_writes() -> None:
    """The fast layout of the file list (issue 30) gives json.dumps's bytes, odd paths and
    entries of another shape included."""
    import json

    from oasis_eval.engine.manifest_json import manifest_text

    odd = ["evidence/a.json.gz", "naïve/ü.json", 'q"uote\\back', '"files": []', "", "\u2028"]
    entries = [{"path": p, "sha256": f"{i:064x}", "size": i * 7} for i, p in enumerate(odd)]
    for files in (
        entries,
        [],
        entries[:1],
        [*entries, {"path": "x", "sha256": "y", "size": 1.5}],
        [{"path": "x", "sha256": "y", "size": True}],
        [{"path": "x", "size": 1}],
    ):
        for value in (None, 'sig"nature', '"files": []'):
            data = {
                "manifest": "oasis-eval run manifest",
                "version": 1,
                "digest": "sha256",
                "signature": {"algorithm": "hmac-sha256", "key_id": "k\u00e9", "value": value},
                "files": files,
            }
            assert manifest_text(data) == json.dumps(data, indent=1, sort_keys=True) + "\n"
