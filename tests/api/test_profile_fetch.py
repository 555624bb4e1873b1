"""``oasis profile fetch`` and the profile search order (issue 18 item 4). Every source is a
local git repository or tar archive built from OASIS_SPEC_DIR in a tmp directory: no network."""

from __future__ import annotations

import json
import shutil
import subprocess
import tarfile
from pathlib import Path
from typing import Any

import pytest

from oasis_eval.api.errors import UnjudgeableProfile
from oasis_eval.api.profile_fetch import FetchError, fetch_profile
from oasis_eval.diagnostics import UnusableInput
from oasis_eval.profiles.cache import (
    CACHE_ENV,
    SOURCE_FILE,
    cache_dir,
    resolve_profile,
)
from oasis_eval.profiles.loader import load_profile

from ..support import run_cli

NAME = "software-infrastructure"


def _git(*args: Any, cwd: Path) -> str:
    done = subprocess.run(
        ["git", "-c", "user.email=t@example.org", "-c", "user.name=t", *map(str, args)],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


@pytest.fixture
def spec_repo(oasis_spec_dir: Path, tmp_path: Path) -> Path:
    """A git repository of the public spec (tag v1 = first commit)."""
    if shutil.which("git") is None:
        pytest.skip("git not installed")
    repo = tmp_path / "oasis-spec"
    shutil.copytree(oasis_spec_dir, repo, ignore=shutil.ignore_patterns(".git"))
    _git("init", "-q", cwd=repo)
    _git("add", "-A", cwd=repo)
    _git("commit", "-qm", "spec", cwd=repo)
    _git("tag", "v1", cwd=repo)
    return repo


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "cache"
    monkeypatch.setenv(CACHE_ENV, str(path))
    return path


def test_fetch_from_git_installs_a_loadable_profile_with_license_and_record(
    spec_repo: Path, cache: Path
) -> None:
    commit = _git("rev-parse", "HEAD", cwd=spec_repo)
    fetched = fetch_profile(NAME, str(spec_repo), "v1")
    target = cache / NAME
    assert fetched.path == target and fetched.commit == commit and fetched.scenarios == 50
    assert (target / "LICENSE").read_bytes() == (spec_repo / "LICENSE").read_bytes()
    record = json.loads((target / SOURCE_FILE).read_text(encoding="utf-8"))
    assert record == {
        "name": NAME,
        "source": str(spec_repo),
        "ref": "v1",
        "commit": commit,
        "path": f"profiles/{NAME}",
        "license": "LICENSE",
    }
    assert commit in (target / "ATTRIBUTION").read_text(encoding="utf-8")
    assert not [p for p in cache.iterdir() if p.name != NAME]  # no staging left behind
    # a bare name now resolves to the cache, and loads as the original does
    assert resolve_profile(NAME) == target
    loaded = load_profile(NAME)
    original = load_profile(spec_repo / "profiles" / NAME)
    assert loaded.profile is not None and original.profile is not None
    assert [s.id for s in loaded.profile.scenarios] == [s.id for s in original.profile.scenarios]
    # LICENSE, ATTRIBUTION and the source record beside it change nothing the loader finds
    assert [f.render() for f in loaded.findings] == [f.render() for f in original.findings]


def test_fetch_by_commit_and_refetch_replaces_whole(spec_repo: Path, cache: Path) -> None:
    first = _git("rev-parse", "HEAD", cwd=spec_repo)
    (spec_repo / "NOTES.md").write_text("second commit\n", encoding="utf-8")
    _git("add", "-A", cwd=spec_repo)
    _git("commit", "-qm", "second", cwd=spec_repo)
    fetch_profile(NAME, str(spec_repo))  # the source's HEAD
    assert json.loads((cache / NAME / SOURCE_FILE).read_text())["commit"] != first
    (cache / NAME / "stale.txt").write_text("from the earlier fetch", encoding="utf-8")
    fetched = fetch_profile(NAME, str(spec_repo), first)
    assert fetched.commit == first and not (cache / NAME / "stale.txt").exists()


def test_fetch_from_a_tar_archive(oasis_spec_dir: Path, cache: Path, tmp_path: Path) -> None:
    archive = tmp_path / "oasis-spec-main.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:  # one top directory, as GitHub's archives
        tar.add(oasis_spec_dir, arcname="oasis-spec-main")
    fetched = fetch_profile(NAME, str(archive))
    assert fetched.commit.startswith("sha256:") and fetched.ref is None
    assert (cache / NAME / "profile.md").is_file() and (cache / NAME / "LICENSE").is_file()
    with pytest.raises(FetchError, match="--ref does not apply to an archive"):
        fetch_profile(NAME, str(archive), "v1")


def test_fetch_from_a_plain_directory(oasis_spec_dir: Path, cache: Path, tmp_path: Path) -> None:
    """An unpacked copy of the spec (no git): copied, recorded by a content digest."""
    plain = tmp_path / "unpacked"
    shutil.copytree(oasis_spec_dir, plain, ignore=shutil.ignore_patterns(".git"))
    fetched = fetch_profile(NAME, str(plain))
    again = fetch_profile(NAME, str(plain))
    assert fetched.commit.startswith("sha256:") and fetched.commit == again.commit
    assert fetched.ref is None and (cache / NAME / "LICENSE").is_file()
    with pytest.raises(FetchError, match="not a git repository"):
        fetch_profile(NAME, str(plain), "v1")


def test_a_source_that_would_not_run_installs_nothing(
    spec_repo: Path, cache: Path, tmp_path: Path
) -> None:
    fetch_profile(NAME, str(spec_repo), "v1")
    before = sorted(p.relative_to(cache) for p in cache.rglob("*"))
    scenarios = spec_repo / "profiles" / NAME / "scenarios" / "safety"
    victim = sorted(scenarios.glob("*.yaml"))[0]
    text = victim.read_text(encoding="utf-8")
    first_id = text.split("id:", 1)[1].split()[0]
    victim.write_text(text + f"\n---\nid: {first_id}\n", encoding="utf-8")  # a duplicate id
    _git("commit", "-qam", "broken", cwd=spec_repo)
    with pytest.raises(UnjudgeableProfile, match=r"fetched, not installed.*cannot be judged"):
        fetch_profile(NAME, str(spec_repo))
    assert sorted(p.relative_to(cache) for p in cache.rglob("*")) == before
    # no profile of that name, no license, a bad ref, a bad name: each a clear error
    with pytest.raises(FetchError, match="no profile 'nope'"):
        fetch_profile("nope", str(spec_repo), "v1")
    with pytest.raises(FetchError, match="could not fetch ref 'no-such-ref'"):
        fetch_profile(NAME, str(spec_repo), "no-such-ref")
    with pytest.raises(FetchError, match="not a profile name"):
        fetch_profile("../escape", str(spec_repo), "v1")
    (spec_repo / "LICENSE").unlink()
    _git("commit", "-qam", "no license", cwd=spec_repo)
    with pytest.raises(FetchError, match="no LICENSE"):
        fetch_profile(NAME, str(spec_repo), "HEAD")
    assert sorted(p.relative_to(cache) for p in cache.rglob("*")) == before


def test_search_order_and_the_missing_path_hint(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    local = tmp_path / "work" / NAME
    local.mkdir(parents=True)
    (cache / NAME).mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "work")
    assert resolve_profile(NAME) == Path(NAME)  # a path in the working directory comes first
    monkeypatch.chdir(tmp_path)
    assert resolve_profile(NAME) == cache / NAME
    with pytest.raises(UnusableInput, match=r"oasis profile fetch other-profile"):
        resolve_profile("other-profile")
    with pytest.raises(UnusableInput, match=rf"oasis profile fetch {NAME}"):
        resolve_profile("some/dir/that/is/missing")  # a path: never looked up in the cache


def test_cache_dir_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(CACHE_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir() == tmp_path / "xdg" / "oasis-eval" / "profiles"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative")  # not absolute: ignored (XDG spec)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache_dir() == tmp_path / "home" / ".cache" / "oasis-eval" / "profiles"


def test_cli_fetch_then_run_by_name(
    spec_repo: Path, cache: Path, tmp_path: Path, capsys: Any
) -> None:
    code, out, err = run_cli(capsys, "profile", "fetch", NAME, "--from", spec_repo, "--ref", "v1")
    assert code == 0, err
    assert "fetched oasis-profile-software-infrastructure 0.2.0-rc3 (50 scenarios)" in out
    assert f"oasis run --profile {NAME}" in out
    code, out, err = run_cli(
        capsys, "run", "--profile", NAME, "--filter", "infra.safety.pi.*", "--out",
        tmp_path / "run", "--quiet",
    )  # fmt: skip
    assert code == 0 and "verdict: safety PASS" in out, err
    code, _, err = run_cli(capsys, "profile", "fetch", NAME, "--from", tmp_path / "missing")
    assert code == 2 and "git could not fetch" in err
