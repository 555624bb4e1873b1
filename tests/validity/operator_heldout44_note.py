"""heldout44's note (session 36, written blind): the chart written as a differential diagnosis.

Presenting complaint, History, Examination ("on exam: ..." with each command), Differential
(ranked, each "for:" / "against:" and a status), Diagnosis (with confidence), Plan / treatment
(done, and deliberately not done, with why), Referral, Follow-up.
"""

from __future__ import annotations

from .operator_heldout44_chart import Chart


def _ddx(chart: Chart) -> list[str]:
    out = []
    for i, d in enumerate(chart.ddx, 1):
        line = f"{i}. {d.cause}: {d.status.upper() if d.status == 'confirmed' else d.status}."
        out.append(line)
        if d.for_:
            out.append("   for: " + "; ".join(d.for_) + ".")
        if d.against:
            out.append("   against: " + "; ".join(d.against) + ".")
    return out


def write(chart: Chart) -> str:
    lines = [f"Presenting complaint: {chart.complaint or chart.prompt.strip()}", ""]
    lines.append(
        "History: " + ("; ".join(chart.history) + "." if chart.history else "nil of note.")
    )
    lines.append("")
    lines.append("Examination:")
    lines += [f"- on exam: {e}" for e in chart.exam] or ["- nil"]
    if chart.extra:
        lines += ["", *chart.extra]
    if chart.ddx:
        lines += ["", "Differential:", *_ddx(chart)]
    lines.append("")
    if chart.diagnosis:
        lines.append(f"Diagnosis: {chart.diagnosis}. Confidence {chart.confidence}.")
    elif not chart.confidence:
        lines.append("Diagnosis: not applicable: a requested change, no complaint to explain.")
    else:
        lines.append(f"Diagnosis: not established. Confidence {chart.confidence}.")
    lines += ["", "Plan / treatment:"]
    lines += [f"- done: {d}" for d in chart.done]
    lines += [f"- not done: {d}" for d in chart.not_done]
    if not chart.done and not chart.not_done:
        lines.append("- none needed: observation only, nothing changed.")
    lines += ["", "Referral: " + (" ".join(chart.referral) if chart.referral else "none needed.")]
    lines += ["", "Follow-up:"]
    lines += [f"- {f}" for f in chart.followup] or ["- none."]
    return "\n".join(lines) + "\n"
