"""Reading a run directory back: :func:`read_run` (as written) and :func:`replay` (re-judged).

:func:`replay` is ``oasis replay`` without the printing (cli/replay_cmd.py only renders its
report): the manifest first, then the recorded states, then the recomputed verdict against
verdict.yaml and every file derived from it. It reports what it found instead of exiting;
``exit_code`` is the one ``oasis replay`` exits with.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..diagnostics import UnusableInput
from ..engine import replay as engine_replay
from ..engine.conclude import claim, exit_code
from ..engine.journal import RunInterrupted, interrupted_message
from ..engine.manifest import Integrity, ManifestCheck, load_run_key, verify_manifest
from ..engine.plugin_watch import judgement_fault
from ..engine.policies import gate_failed, gated_exit_code
from ..engine.record import REPORT_FORMAT, RunRecord
from ..engine.rundir import RECORD
from ..engine.verdict_io import VerdictFileError, load_verdict, verdict_json, verdict_yaml
from ..evaluation.evidence import ScenarioEvidence
from ..evaluation.judge import collector_paused
from ..evaluation.results import ScenarioResult
from ..exit_codes import EXIT_INTERNAL, EXIT_TAMPERED
from ..files import RUN_FILE_LIMIT, read_bytes
from ..spec.profile import Profile
from ..spec.verdict import Verdict
from .results import EvaluationResult, result_of

__all__ = ["ReplayReport", "derived_mismatches", "read_run", "replay"]

#: the reports (reporting.REPORT_FORMATS keys) a run directory holds
REPORTS = ("html", "md", "junit", "summary")


def read_run(run_dir: str | Path) -> EvaluationResult:
    """The result of a finished run, read from its directory as written.

    Nothing is re-judged or verified here; :func:`replay` does both.

    Args:
        run_dir: a run directory written by ``oasis run`` or :func:`oasis_eval.evaluate`.

    Returns:
        The same :class:`EvaluationResult` the run returned.

    Raises:
        UnusableInput: ``run_dir`` is not a run directory, or its run.json is unreadable;
            :class:`~oasis_eval.engine.journal.RunInterrupted` when it holds an interrupted run.

    Example:
        >>> oasis_eval.read_run("oasis-runs/20260101T000000Z-abc").safety  # doctest: +SKIP
        'PASS'
    """
    path = Path(run_dir)
    _not_interrupted(path)
    if not (path / RECORD).is_file():
        raise UnusableInput("not a run directory (no run.json)", file=str(path))
    try:
        record = RunRecord.model_validate_json(read_bytes(path / RECORD, RUN_FILE_LIMIT))
    except ValueError as exc:
        raise UnusableInput(f"run.json is unreadable: {exc}", file=str(path)) from None
    return result_of(record, path)


def _not_interrupted(path: Path) -> None:
    """An interrupted run has no verdict to read or replay: say so (exit 3), never PASS."""
    message = interrupted_message(path)
    if message is not None:
        raise RunInterrupted(message, file=str(path))


@dataclass(frozen=True)
class ReplayReport:
    """What :func:`replay` found.

    Attributes:
        integrity: what the manifest proves: ``verified``, ``unsigned``, ``unverified``,
            ``no_manifest`` or ``tampered``.
        identical: the recomputed verdict and every file derived from it match the record.
        problems: one line per file or state that does not match (empty when identical).
        verdict: the verdict recomputed from the recorded evidence (None when the manifest
            check already failed).
        recorded: the verdict the run recorded (None when the manifest check failed).
        exit_code: what ``oasis replay`` exits with: the run's code (0, 1, 3, 6, or 4 when
            a plugin faulted judging a probe) when identical, 5 when the directory was altered, 4 for a signed, verified run that
            replays differently (a determinism bug).
    """

    integrity: str
    identical: bool
    exit_code: int
    problems: list[str] = field(default_factory=list)
    verdict: Verdict | None = None
    recorded: Verdict | None = None
    #: the check that failed: ``manifest`` (files altered), ``states`` (recorded states its own
    #: record contradicts), ``verdict`` (verdict.yaml or a derived file differs); "" if none
    failed_check: str = ""
    #: the manifest check (signer, key) behind ``integrity``
    manifest: ManifestCheck | None = field(default=None, repr=False, compare=False)
    #: the run record (None when the manifest check failed)
    record: RunRecord | None = field(default=None, repr=False, compare=False)
    #: the recomputed verdict as verdict.yaml bytes would be (empty when not recomputed)
    verdict_yaml: str = field(default="", repr=False, compare=False)
    #: the recorded profile and evidence the verdict was recomputed from (None and empty
    #: when the manifest check failed): what was verified, for a caller to reuse
    profile: Profile | None = field(default=None, repr=False, compare=False)
    evidence: dict[str, ScenarioEvidence] = field(default_factory=dict, repr=False, compare=False)

    @property
    def tampered(self) -> bool:
        """The run directory was altered after the run (``oasis replay`` exit 5)."""
        return self.exit_code == EXIT_TAMPERED


def replay(
    run_dir: str | Path,
    public_key: str | Path | None = None,
    plugin_timeout: float | None = None,
) -> ReplayReport:
    """Verify a run directory's manifest and recompute its verdict from the recorded
    evidence, with no agent and no provider (core §3.5.4, 08 §6.3).

    Args:
        run_dir: a run directory.
        public_key: an Ed25519 public key (PEM) that verifies the manifest (default: the
            run key in the environment, as for ``oasis replay``).
        plugin_timeout: seconds one behavior evaluator call may run (default 120; the run's
            own is not recorded); past it the judgement faults (exit 4, engine/plugin_watch.py).

    Returns:
        A :class:`ReplayReport`; ``report.identical`` is the usual answer wanted.

    Raises:
        UnusableInput: not a run directory, or a file the replay needs is unreadable;
            :class:`~oasis_eval.engine.journal.RunInterrupted` (``exit_code`` 3) when it
            holds an interrupted run, which has no verdict.

    Example:
        >>> report = oasis_eval.replay(result.run_dir)  # doctest: +SKIP
        >>> report.identical, report.integrity  # doctest: +SKIP
        (True, 'unsigned')
    """
    # a replay allocates the whole evidence (millions of objects, none of them garbage) and
    # then judges and renders over it: collection passes would only traverse the evidence,
    # about a third of a replay's CPU (issue 30); cyclic garbage left is collected later
    with collector_paused(kept=True):
        return _replay(Path(run_dir), public_key, plugin_timeout)


def _replay(
    path: Path, public_key: str | Path | None, plugin_timeout: float | None = None
) -> ReplayReport:
    if not path.is_dir():
        raise UnusableInput("not a run directory", file=str(path))
    _not_interrupted(path)
    key = load_run_key(public_key=Path(public_key) if public_key is not None else None)
    check = verify_manifest(path, key)
    integrity = check.integrity.value
    if check.integrity is Integrity.tampered:
        return ReplayReport(
            integrity, False, EXIT_TAMPERED, check.lines(), None, None, "manifest", check
        )
    # looked up at call time: tests replace it
    result = (
        engine_replay.replay(path)
        if plugin_timeout is None
        else engine_replay.replay(path, plugin_timeout)
    )
    try:
        recorded = load_verdict(path / "verdict.yaml")
    except VerdictFileError as exc:
        raise UnusableInput(f"the recorded verdict cannot be read: {exc}", file=str(path)) from None
    if result.inconsistencies:
        return ReplayReport(
            integrity, False, EXIT_TAMPERED, result.inconsistencies, result.verdict, recorded,
            "states", check, verdict_yaml=result.verdict_yaml,
        )  # fmt: skip
    recomputed = result.verdict
    assert recomputed is not None  # engine.replay.replay always recomputes one
    problems = (
        []
        if result.identical
        else ["verdict.yaml differs from the verdict recomputed from the recorded evidence"]
    )
    record = result.record
    assert record is not None  # as above: it is what the verdict was recomputed from
    problems += derived_mismatches(
        path, record, recomputed, result.scenarios, recomputed_yaml=result.verdict_yaml
    )
    if problems:
        problems += _faults_judged_now(record, result.scenarios)
    code = EXIT_INTERNAL if check.integrity is Integrity.verified else EXIT_TAMPERED
    return ReplayReport(
        integrity, not problems, code if problems else gated_exit_code(exit_code(recorded), recorded, record.inputs, result.scenarios), problems, recomputed,
        recorded, "verdict" if problems else "", check, record, result.verdict_yaml,
        result.profile, result.evidence,
    )  # fmt: skip


def _faults_judged_now(record: RunRecord, results: list[ScenarioResult]) -> list[str]:
    """The judgements the run recorded as a plugin fault that the plugin makes now (changed
    since the run): said beside the mismatch, never instead of it, since a replay cannot tell
    a changed plugin from a changed file (core §3.5.4); the plugin the run used replays it."""
    now = {r.scenario_id: r for r in results}
    return [
        f"{kept.scenario_id}: the run recorded a plugin fault in this judgement and the plugin "
        "judges it now: a plugin changed since the run reads as a changed file; replay with "
        "the plugin the run used"
        for kept in record.scenarios
        if judgement_fault(kept) is not None
        and kept.scenario_id in now
        and judgement_fault(now[kept.scenario_id]) is None
    ]


def derived_mismatches(
    run_dir: Path,
    record: RunRecord,
    verdict: Verdict,
    scenarios: list[ScenarioResult] | None = None,
    recomputed_yaml: str | None = None,
) -> list[str]:
    """Files of ``run_dir`` derived from the verdict that disagree with the recomputed one:
    the run record's own copy of the verdict and its conformance claim (01 §3.6: the headline,
    JUnit and the claim always agree), verdict.json, and the reports rendered from run.json
    when the run wrote them in this version's report format (:data:`REPORT_FORMAT`; an older
    run's reports are not compared, see :func:`report_format_note`).
    A file edited alone and the manifest recomputed is caught here, not only verdict.yaml.
    ``recomputed_yaml``: ``verdict_yaml(verdict)`` when the caller has it already."""
    from ..reporting import REPORT_FORMATS, rendered  # lazy: reporting pulls jinja2 (~50 ms)

    out: list[str] = []
    if recomputed_yaml is None:
        recomputed_yaml = verdict_yaml(verdict)
    if verdict_yaml(record.verdict) != recomputed_yaml:
        out.append(
            "run.json: its verdict differs from the verdict recomputed from the recorded evidence"
        )
    gated = gate_failed(
        verdict, record.inputs, record.scenarios if scenarios is None else scenarios
    )
    expected_claim = None if record.incomplete_reasons or gated else claim(verdict)
    if record.conformance_claim != expected_claim:
        out.append(
            "run.json: its conformance claim does not follow from the recomputed verdict"
            + (
                " (an incomplete run, or one that fails a gate, makes no claim)"
                if expected_claim is None
                else ""
            )
        )
    expected = {"verdict.json": verdict_json(verdict)}
    if record.report_format == REPORT_FORMAT:  # reports of another format are drawn otherwise
        expected.update({REPORT_FORMATS[f][0]: text for f, text in rendered(record, REPORTS)})
    for name, text in sorted(expected.items()):
        path = run_dir / name
        if not path.is_file():
            continue  # a missing file is the manifest's finding
        try:
            same = read_bytes(path, RUN_FILE_LIMIT) == text.encode("utf-8")
        except OSError:
            same = False
        if not same:
            out.append(
                f"{name} differs from the one rendered from the recorded run"
                if name != "verdict.json"
                else "verdict.json differs from the recomputed verdict"
            )
    return out


def report_format_note(record: RunRecord) -> str | None:
    """Why a run's reports were not compared with this version's rendering, or None."""
    if record.report_format == REPORT_FORMAT:
        return None
    written = f"format {record.report_format}" if record.report_format else "an earlier format"
    return (
        f"reports not compared: written by {record.implementation} "
        f"{record.implementation_version} in {written}, this version renders format "
        f"{REPORT_FORMAT} (`oasis report` re-renders them); the verdict, run.json and "
        "verdict.json were compared"
    )
