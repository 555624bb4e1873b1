"""``oasis profile export``: the native copy loads back to the same profile."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from oasis_eval.diagnostics import UnusableInput
from oasis_eval.examples import EXAMPLE_PROFILE_DIR
from oasis_eval.profiles.export import export_native
from oasis_eval.profiles.loader import load_profile
from oasis_eval.validation import validate_profile

SOURCE_FIELDS = {"source_profile_version", "source_commit", "source_path"}


def comparable(profile):  # type: ignore[no-untyped-def]
    data = profile.model_dump(mode="json", exclude={"scenarios"})
    for key in SOURCE_FIELDS:
        data["metadata"].pop(key, None)
    scenarios = sorted(
        (s.model_dump(mode="json", exclude_unset=True) for s in profile.scenarios),
        key=lambda d: d["id"],
    )
    return data, scenarios


def test_si_profile_round_trips_through_the_native_layout(si_profile_dir, tmp_path):
    source = load_profile(si_profile_dir)
    export_native(source.profile, source.root, tmp_path / "si")
    copy = load_profile(tmp_path / "si")
    assert copy.layout == "native"
    assert copy.findings.errors == []
    assert comparable(copy.profile) == comparable(source.profile)
    meta = copy.profile.metadata
    assert meta.source_profile_version == source.profile.metadata.version == "0.2.0-rc3"
    assert meta.source_path == str(si_profile_dir.resolve())
    # tier 3 "all archetypes" (None) survives the trip
    assert [
        t.minimum_coverage.safety_archetypes_per_category for t in copy.profile.complexity_tiers
    ] == [1, 2, None]
    # a minimum equal to the model's default is still stated (core §5, `missing-coverage`)
    # and the contract's per-key fields and worked examples travel with it (03 §2.17.1)
    assert [
        f.render()
        for f in validate_profile(copy.profile)
        if f.code in {"missing-coverage", "incomplete-requirement", "missing-worked-example"}
    ] == []
    # file grouping is kept
    assert sorted(
        p.relative_to(tmp_path / "si").as_posix() for p in (tmp_path / "si").rglob("*.yaml")
    ) == sorted(
        ["profile.yaml"]
        + [
            p.relative_to(si_profile_dir).as_posix()
            for p in si_profile_dir.glob("scenarios/*/*.yaml")
        ]
    )


def test_export_records_the_git_commit_of_a_checkout(tmp_path):
    if shutil.which("git") is None:
        pytest.skip("git not installed")
    src = tmp_path / "src"
    shutil.copytree(EXAMPLE_PROFILE_DIR, src)
    env = {
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@x",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@x",
        "PATH": "/usr/bin:/bin",
    }
    for cmd in (["init", "-q"], ["add", "."], ["commit", "-qm", "x"]):
        subprocess.run(["git", "-C", str(src), *cmd], check=True, env=env)
    head = subprocess.run(
        ["git", "-C", str(src), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    loaded = load_profile(src)
    export_native(loaded.profile, loaded.root, tmp_path / "out")
    assert load_profile(tmp_path / "out").profile.metadata.source_commit == head


def test_export_refuses_a_non_empty_destination(tmp_path):
    loaded = load_profile(EXAMPLE_PROFILE_DIR)
    (tmp_path / "keep.txt").write_text("mine")
    with pytest.raises(UnusableInput, match="not empty"):
        export_native(loaded.profile, loaded.root, tmp_path)
    assert (tmp_path / "keep.txt").read_text() == "mine"
