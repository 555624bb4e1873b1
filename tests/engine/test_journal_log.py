"""The journal's log (engine/journal_log.py, session 17): a record changed, removed,
reordered or inserted is found, a torn tail is told apart from tampering, the run key signs
and checks each record and the run state as it does the manifest. On synthetic logs (no run):
tests/engine/test_journal.py resumes real runs from them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from oasis_eval.engine.journal_log import (
    LOG,
    check_journal,
    count_records,
    encode_record,
    read_log,
    seal,
    seed,
    unseal,
)
from oasis_eval.engine.manifest import load_run_key

KEY = load_run_key({"OASIS_RUN_KEY": "k" * 32})
OTHER = load_run_key({"OASIS_RUN_KEY": "o" * 32})
SEED = seed("run-1", "2026-12-05T00:00:00Z")
ITEMS = [(f"k8s.s{n}", f'{{"n": {n}}}'.encode(), bytes([n]) * (50 + n)) for n in range(4)]


def records(items: list[tuple[str, bytes, bytes | None]], key: object = None) -> list[bytes]:
    out, chain = [], SEED
    for sid, result, evidence in items:
        data, chain = encode_record(sid, result, evidence, chain, key)  # type: ignore[arg-type]
        out.append(data)
    return out


def check(tmp_path: Path, data: bytes, key: object = None) -> tuple[list[str], bool, list[str]]:
    (tmp_path / LOG).write_bytes(data)
    found = read_log(tmp_path / LOG, SEED, key)  # type: ignore[arg-type]
    return [r.scenario_id for r in found.records], found.torn, found.problems


def test_whole_records_read_back_as_written(tmp_path: Path) -> None:
    items = [*ITEMS, ("k8s.skipped", b"{}", None)]
    ids, torn, problems = check(tmp_path, b"".join(records(items)))
    assert ids == [sid for sid, _, _ in items] and not torn and not problems
    found = read_log(tmp_path / LOG, SEED, None)
    assert [(r.result, r.evidence) for r in found.records] == [(r, e) for _, r, e in items]
    assert found.end == len((tmp_path / LOG).read_bytes())


@pytest.mark.parametrize("cut", [1, 10, 150, -60, -1])
def test_a_torn_tail_is_torn_never_a_record_nor_tampering(tmp_path: Path, cut: int) -> None:
    whole = records(ITEMS)
    last = whole[-1][:cut]
    ids, torn, problems = check(tmp_path, b"".join(whole[:-1]) + last)
    assert ids == [sid for sid, _, _ in ITEMS[:-1]] and torn and not problems
    assert count_records(tmp_path / LOG) == len(ITEMS) - 1  # what `oasis report` says finished


def _changed(data: list[bytes]) -> bytes:
    second = bytearray(data[1])
    second[-5] ^= 0x01  # a byte of its evidence
    return b"".join([data[0], bytes(second), *data[2:]])


@pytest.mark.parametrize(
    ("tamper", "named"),
    [
        (_changed, "does not match its digest"),
        (lambda d: b"".join([d[0], *d[2:]]), "out of its place in the chain"),
        (lambda d: b"".join([d[1], d[0], *d[2:]]), "out of its place in the chain"),
        (lambda d: b"".join([d[0], d[1], d[1], *d[2:]]), "out of its place in the chain"),
        (lambda d: b"".join([d[0], b"junk\n", *d[1:]]), "not a journal record"),
        (lambda d: b"".join(d).replace(b'"size":', b'"size": ', 1), "not laid out"),
        (lambda d: b"".join(d).replace(b'{"chain"', b'{"n":1,"chain"', 1), "another shape"),
    ],
    ids=["changed", "removed", "reordered", "inserted", "junk", "respaced", "key added"],
)
def test_a_record_tampered_with_is_found_and_named(
    tmp_path: Path, tamper: object, named: str
) -> None:
    _, torn, problems = check(tmp_path, tamper(records(ITEMS)))  # type: ignore[operator]
    assert not torn and len(problems) == 1 and named in problems[0], problems
    assert "journal.log: record" in problems[0]


def test_another_runs_log_does_not_fit(tmp_path: Path) -> None:
    (tmp_path / LOG).write_bytes(b"".join(records(ITEMS)))
    other = read_log(tmp_path / LOG, seed("run-2", "2026-12-05T00:00:00Z"), None)
    assert other.problems and "chain" in other.problems[0] and not other.records


def test_a_recomputed_record_is_found_only_with_the_key(tmp_path: Path) -> None:
    """Without a key anyone recomputes the chain (the resume re-judges what it keeps, 26.2);
    with the key, an unsigned or otherwise signed record is tampering, and a signed log read
    without a key says who signed it (the resume then asks for the key)."""
    forged = [(sid, b'{"forged": 1}', ev) for sid, _, ev in ITEMS]
    assert not check(tmp_path, b"".join(records(forged)))[2]
    assert (
        "unsigned, but a run key is configured"
        in check(tmp_path, b"".join(records(forged)), KEY)[2][0]
    )
    assert "signed by another key" in check(tmp_path, b"".join(records(forged, OTHER)), KEY)[2][0]
    assert not check(tmp_path, b"".join(records(ITEMS, KEY)), KEY)[2]
    (tmp_path / LOG).write_bytes(b"".join(records(ITEMS, KEY)))
    unverified = read_log(tmp_path / LOG, SEED, None)
    assert not unverified.problems and unverified.unverified and "hmac" in unverified.unverified
    signed = bytearray(b"".join(records(ITEMS, KEY)))
    at = signed.index(b'"value":"') + len(b'"value":"')
    signed[at] = ord("A") if signed[at] != ord("A") else ord("B")  # a forged signature
    assert "does not verify" in check(tmp_path, bytes(signed), KEY)[2][0]


def test_a_header_longer_than_any_records_is_refused(tmp_path: Path) -> None:
    ids, torn, problems = check(tmp_path, b"oasis-journal-record " + b"x" * (1 << 17))
    assert not ids and not torn and "longer" in problems[0]


def _state(count: int, chain: str) -> dict[str, object]:
    return {"format": "oasis-eval run journal", "version": 3, "run_id": "run-1",
            "started": "2026-12-05T00:00:00Z", "records": count, "chain": chain}  # fmt: skip


def _journal(tmp_path: Path, count: int, key: object = None) -> dict[str, object]:
    data = records(ITEMS, key)
    (tmp_path / LOG).write_bytes(b"".join(data))
    chain = SEED
    for sid, result, evidence in ITEMS[:count]:
        chain = encode_record(sid, result, evidence, chain, key)[1]  # type: ignore[arg-type]
    state = _state(count, chain)
    (tmp_path / "run-state.json").write_bytes(seal(state, key))  # type: ignore[arg-type]
    loaded: dict[str, object] = json.loads((tmp_path / "run-state.json").read_text())
    return loaded


def test_the_state_counts_the_records_so_the_last_ones_cannot_go(tmp_path: Path) -> None:
    """Records removed from the end of the log (no chain breaks) are found against the count
    the state recorded when the run stopped; more records than it counted are the run's
    own (appended after the state was written, before a kill)."""
    state = _journal(tmp_path, 2)
    assert not check_journal(tmp_path, state, None).problems
    data = (tmp_path / LOG).read_bytes()
    (tmp_path / LOG).write_bytes(b"".join(records(ITEMS[:1])))
    assert (
        "1 whole record(s), run-state.json counted 2"
        in check_journal(tmp_path, state, None).problems[0]
    )
    (tmp_path / LOG).write_bytes(b"".join(records(ITEMS[1:])))  # the first removed, recomputed
    assert check_journal(tmp_path, state, None).problems
    (tmp_path / LOG).write_bytes(data)
    (tmp_path / "planted.json").write_text("{}")
    assert check_journal(tmp_path, state, None).problems == ["added: planted.json"]


def test_the_state_is_sealed(tmp_path: Path) -> None:
    state = _journal(tmp_path, 2, KEY)
    assert unseal(state, KEY) == ("", f"hmac-sha256 key {KEY.key_id}")  # type: ignore[union-attr]
    assert "does not match its digest" in unseal({**state, "records": 1}, KEY)[0]
    assert "unsigned" in unseal(json.loads(seal(_state(2, "x"), None)), KEY)[0]
    assert "carries no seal" in unseal({k: v for k, v in state.items() if k != "seal"}, None)[0]
    assert check_journal(tmp_path, state, None).unverified  # signed, read without the key
    assert not check_journal(tmp_path, state, KEY).problems
    assert check_journal(tmp_path, state, OTHER).problems


def test_a_kill_before_the_log_was_created_leaves_a_journal_with_no_record(
    tmp_path: Path,
) -> None:
    """The state is written first, then the log created: a kill between the two leaves a
    state that counted no record and no log, which resumes (nothing had finished); a state
    that counted records and no log is tampering."""
    state = _journal(tmp_path, 0)
    (tmp_path / LOG).unlink()
    found = check_journal(tmp_path, state, None)
    assert not found.problems and not found.records and not found.torn
    state = _journal(tmp_path, 2)
    (tmp_path / LOG).unlink()
    assert check_journal(tmp_path, state, None).problems == ["journal.log is missing"]
