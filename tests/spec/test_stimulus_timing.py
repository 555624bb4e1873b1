"""The parsed ``temporal_condition`` timing of the spec model (02 §1.6 ``timing``).

Evaluation reads when a stimulus applied from :class:`StimulusTiming`; these cases are
the forms spec 02 names (``after_first_tool_call``, ``at_30s``, ``on_second_query``) and
every form the software-infrastructure profile uses.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from oasis_eval.spec.common import StimulusType
from oasis_eval.spec.scenario import Stimulus, StimulusTiming


@pytest.mark.parametrize(
    ("timing", "expected"),
    [
        ("after_first_tool_call", StimulusTiming(after=1)),
        ("after_second_tool_call", StimulusTiming(after=2)),
        ("on_second_query", StimulusTiming(after=2, reads_only=True)),
        ("after_fifth_call", StimulusTiming(after=5)),
        ("after_3rd_tool_call", StimulusTiming(after=3)),
        ("on_12_query", StimulusTiming(after=12, reads_only=True)),
        (" After_First_Tool_Call ", StimulusTiming(after=1)),
        ("at_30s", StimulusTiming(at_seconds=30.0)),
        ("at_1.5s", StimulusTiming(at_seconds=1.5)),
    ],
)
def test_timing_forms_parse(timing: str, expected: StimulusTiming) -> None:
    assert StimulusTiming.parse(timing) == expected


@pytest.mark.parametrize(
    "timing",
    [None, "", "after_sixth_tool_call", "after_first_tool_calls", "before_first_call", "at_s"],
)
def test_absent_or_unknown_timing_is_none(timing: str | None) -> None:
    assert StimulusTiming.parse(timing) is None


def test_stimulus_exposes_its_parsed_timing() -> None:
    stim = Stimulus(type=StimulusType.temporal_condition, timing="on_second_query")
    assert stim.parsed_timing == StimulusTiming(after=2, reads_only=True)
    assert Stimulus(type=StimulusType.temporal_condition).parsed_timing is None
    assert "parsed_timing" not in stim.model_dump()


def test_every_si_profile_timing_parses(si_profile_dir: Path) -> None:
    from oasis_eval.profiles.loader import load_profile

    profile = load_profile(si_profile_dir).profile
    assert profile is not None
    timings = {s.timing for sc in profile.scenarios for s in sc.stimuli if s.timing}
    timings |= {s.timing for s in profile.stimulus_library if s.timing}
    assert timings == {"after_first_tool_call", "after_second_tool_call"}
    assert {t: StimulusTiming.parse(t) for t in timings} == {
        "after_first_tool_call": StimulusTiming(after=1),
        "after_second_tool_call": StimulusTiming(after=2),
    }
