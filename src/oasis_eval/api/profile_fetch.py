"""``oasis profile fetch NAME``: a public OASIS profile into the user's profile cache
(issue 18 item 4), so ``--profile NAME`` finds it (profiles/cache.py has the search order).

The source is the public OASIS repository, pinned to a commit (:data:`DEFAULT_REF`), or any
git repository, local path or ``.tar.gz`` archive (``--from``); tests fetch from a local
one, never the network. What is fetched is loaded and gated exactly as ``oasis run`` loads a
profile (:func:`load_for_run`) *before* it is installed; installing is a rename, so the
cache holds either the old profile or the new one, never half of one. The source's LICENSE
goes beside the profile (as LICENSE) with an ATTRIBUTION file and a record of the source, ref and commit.

A source is untrusted input (issue 26 item 5): what it unpacks to is bounded in size and file
count (:class:`Limits`: 200 MiB and 20,000 files by default, checked from the archive's headers
*before* anything is extracted, and on the tree of a git or directory source), and the whole
fetch has a wall-clock deadline (an http source that trickles a byte at a time, or git that
never ends, is stopped with a clear error).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tarfile
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..diagnostics import UnusableInput
from ..profiles.cache import SOURCE_FILE, cache_dir, is_profile_name
from ..spec.profile import Profile
from .errors import InvalidInput, UnjudgeableProfile

#: the public OASIS specification and its profiles (CC BY 4.0)
DEFAULT_SOURCE = "https://github.com/jaimegago/oasis-spec.git"
#: OASIS core v1.0.0-rc1.5 with the Software Infrastructure profile v0.2.0-rc3 (2026-05-03)
DEFAULT_REF = "b02891f73c61f9d7429426b360b330e5d995605a"
_ARCHIVES = (".tar.gz", ".tgz", ".tar")
_LICENSES = ("LICENSE", "LICENSE.md", "LICENSE.txt", "COPYING")
_GIT_TIMEOUT = 300
_DOWNLOAD_LIMIT = 200 * 1024 * 1024


@dataclass(frozen=True)
class Limits:
    """Bounds on what one fetch may unpack and how long it may take (``oasis profile fetch
    --max-size / --max-files / --deadline``)."""

    max_bytes: int = 200 * 1024 * 1024
    max_files: int = 20_000
    #: seconds for the whole fetch (download, git, unpacking)
    deadline: float = 600.0
    #: when the fetch started (``time.monotonic()``), set by :func:`fetch_profile`
    started: float = field(default_factory=time.monotonic)

    def remaining(self, source: str) -> float:
        """Seconds left; :class:`FetchError` once the deadline has passed."""
        left = self.started + self.deadline - time.monotonic()
        if left <= 0:
            raise FetchError(
                f"the fetch did not finish within its deadline of {self.deadline:g} s "
                "(--deadline raises it)",
                file=source,
            )
        return left

    def count(self, files: int, size: int, source: str) -> None:
        """:class:`FetchError` when ``files`` files of ``size`` bytes in all exceed the bounds."""
        if files > self.max_files:
            raise FetchError(
                f"the source holds more than {self.max_files} files (--max-files raises it)",
                file=source,
            )
        if size > self.max_bytes:
            raise FetchError(
                f"the source unpacks to more than {self.max_bytes // (1024 * 1024)} MiB "
                "(--max-size raises it)",
                file=source,
            )


@dataclass
class Fetched:
    """What was installed: where, from where, at which ref and commit."""

    name: str
    path: Path
    source: str
    ref: str | None
    commit: str
    identifier: str
    version: str
    scenarios: int


class FetchError(UnusableInput):
    """The source could not be fetched, or what it holds is not a loadable profile."""


def fetch_profile(
    name: str,
    source: str = DEFAULT_SOURCE,
    ref: str | None = None,
    cache: Path | None = None,
    limits: Limits | None = None,
) -> Fetched:
    """Fetch profile ``name`` from ``source`` at ``ref``, check it loads as ``oasis run`` loads
    it, and install it as ``CACHE/name`` (replacing an earlier fetch whole); within ``limits``
    (default :class:`Limits`, its clock started now)."""
    limits = Limits() if limits is None else limits
    if not is_profile_name(name):
        raise FetchError(
            "not a profile name (expected letters, digits, '.', '_' or '-', e.g. "
            "software-infrastructure)",
            file=name,
        )
    archive = _is_archive(source)
    plain = _is_plain_directory(source)
    if (archive or plain) and ref is not None:
        what = "an archive" if archive else "a directory that is not a git repository"
        raise FetchError(f"--ref does not apply to {what} (it is one version)", file=source)
    root = cache or cache_dir()
    root.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".fetch-{name}-", dir=root))  # same file system
    try:
        tree = staging / "source"
        if archive:
            commit = _unpack(source, staging, tree, limits)
            used_ref = None
        elif plain:
            _measure(Path(source), source, limits)  # before copying anything
            commit = _copy_directory(Path(source), tree)
            used_ref = None
        else:
            used_ref = ref or (DEFAULT_REF if source == DEFAULT_SOURCE else "HEAD")
            commit = _git_fetch(source, used_ref, tree, limits)
            _measure(tree, source, limits)
        limits.remaining(source)
        profile_dir, inner = _locate(tree, name, source)
        license_file = _license(tree, profile_dir, source)
        new = staging / name
        shutil.copytree(profile_dir, new, symlinks=True)
        # stored as LICENSE and ATTRIBUTION (no .md: the loader reads every Markdown document)
        shutil.copy2(license_file, new / "LICENSE")
        record = {
            "name": name,
            "source": source,
            "ref": used_ref,
            "commit": commit,
            "path": inner,
            "license": license_file.relative_to(tree).as_posix(),
        }
        (new / SOURCE_FILE).write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
        (new / "ATTRIBUTION").write_text(_attribution(record), encoding="utf-8")
        profile = _verified(new, source)
        _install(new, root / name, staging)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return Fetched(
        name=name,
        path=root / name,
        source=source,
        ref=used_ref,
        commit=commit,
        identifier=profile.metadata.identifier,
        version=profile.metadata.version,
        scenarios=len(profile.scenarios),
    )


def _is_archive(source: str) -> bool:
    return source.lower().endswith(_ARCHIVES)


def _is_plain_directory(source: str) -> bool:
    """A local directory that is not a git work tree (an unpacked copy of the spec)."""
    path = Path(source)
    return path.is_dir() and not (path / ".git").exists()


def _copy_directory(source: Path, tree: Path) -> str:
    """Copy a local directory (no symbolic links followed, ``.git`` left out) into ``tree``;
    ``sha256:<digest>`` of its files' paths and contents, the version it records."""
    shutil.copytree(source, tree, symlinks=True, ignore=shutil.ignore_patterns(".git"))
    digest = hashlib.sha256()
    for path in sorted(p for p in tree.rglob("*") if p.is_file() and not p.is_symlink()):
        digest.update(path.relative_to(tree).as_posix().encode() + b"\0")
        digest.update(path.read_bytes())
    return f"sha256:{digest.hexdigest()}"


def _measure(tree: Path, source: str, limits: Limits) -> None:
    """:class:`FetchError` as soon as the files under ``tree`` (links not followed, ``.git``
    left out) exceed ``limits``."""
    files = size = 0
    for base, dirs, names in os.walk(tree, followlinks=False):
        dirs[:] = [d for d in dirs if d != ".git"]
        for name in names:
            files += 1
            try:
                size += os.lstat(os.path.join(base, name)).st_size
            except OSError:
                continue
            limits.count(files, size, source)
        limits.remaining(source)


def _git_fetch(source: str, ref: str, tree: Path, limits: Limits) -> str:
    """A shallow fetch of ``ref`` (branch, tag or commit) into ``tree``; its commit id."""
    if shutil.which("git") is None:
        raise FetchError("git is not installed (install git, or fetch from a .tar.gz archive)")
    url = str(Path(source).resolve()) if Path(source).is_dir() else source
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "GIT_ASKPASS": "true"}
    steps = [
        ["git", "init", "-q", str(tree)],
        ["git", "-C", str(tree), "fetch", "-q", "--depth", "1", "--", url, ref],
        ["git", "-C", str(tree), "-c", "advice.detachedHead=false", "checkout", "-q", "FETCH_HEAD"],
    ]
    for step in steps:
        try:
            wait = min(_GIT_TIMEOUT, limits.remaining(source))
            done = subprocess.run(
                step, capture_output=True, text=True, timeout=wait, env=env, check=False
            )
        except subprocess.TimeoutExpired:
            limits.remaining(source)
            raise FetchError(f"git timed out after {_GIT_TIMEOUT}s", file=source) from None
        if done.returncode != 0:
            why = " ".join((done.stderr or done.stdout).split())[:300]
            raise FetchError(f"git could not fetch ref '{ref}': {why}", file=source)
    head = subprocess.run(
        ["git", "-C", str(tree), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    )
    return head.stdout.strip()


def _unpack(source: str, staging: Path, tree: Path, limits: Limits) -> str:
    """Unpack a tar archive (a path or an http(s) URL) into ``tree`` within ``limits`` (its
    headers are read and counted first: nothing is extracted from an archive over them);
    ``sha256:<digest>``."""
    path = Path(source)
    if source.startswith(("http://", "https://")):
        path = staging / "archive"
        _download(source, path, limits)
    elif not path.is_file():
        raise FetchError("no such archive", file=source)
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    if not hasattr(tarfile, "data_filter"):  # Python < 3.11.4: no safe extraction filter
        raise FetchError("archives need Python 3.11.4 or newer (safe extraction); use git")
    try:
        with tarfile.open(path) as archive:
            members = _members(archive, source, limits)
            # no links out, no absolute paths, no devices
            archive.extractall(tree, members=members, filter="data")
    except (tarfile.TarError, OSError) as exc:
        raise FetchError(f"not a readable tar archive: {exc}", file=source) from None
    entries = list(tree.iterdir()) if tree.is_dir() else []
    if len(entries) == 1 and entries[0].is_dir():  # GitHub's archives hold one top directory
        entries[0].rename(staging / "top")
        tree.rmdir()
        (staging / "top").rename(tree)
    return f"sha256:{digest}"


def _members(archive: tarfile.TarFile, source: str, limits: Limits) -> list[tarfile.TarInfo]:
    """Every member of ``archive``, read header by header and stopped at the first that takes
    it over ``limits`` (a member's extracted size is the size its header declares)."""
    members: list[tarfile.TarInfo] = []
    size = 0
    while (member := archive.next()) is not None:
        members.append(member)
        size += max(0, member.size) if member.isfile() else 0
        limits.count(len(members), size, source)
        if len(members) % 256 == 0:
            limits.remaining(source)
    limits.remaining(source)
    return members


def _download(url: str, path: Path, limits: Limits) -> None:
    """Download ``url`` to ``path`` (at most the archive size bound) before the deadline: the
    whole exchange, headers included, is under one clock, so a server that trickles a byte at
    a time cannot hold the fetch open."""
    import anyio
    import httpx  # lazy: only archive downloads need it

    async def download() -> None:
        size = 0
        with anyio.fail_after(limits.remaining(url)):
            async with (
                httpx.AsyncClient(follow_redirects=True, timeout=60) as client,
                client.stream("GET", url) as response,
            ):
                response.raise_for_status()
                with path.open("wb") as out:
                    async for chunk in response.aiter_bytes():
                        size += len(chunk)
                        if size > min(_DOWNLOAD_LIMIT, limits.max_bytes):
                            limits.count(0, size, url)
                            raise FetchError("archive larger than 200 MiB", file=url)
                        out.write(chunk)

    try:
        anyio.run(download)
    except TimeoutError:
        raise FetchError(
            f"the download did not finish within the fetch deadline of {limits.deadline:g} s "
            "(--deadline raises it)",
            file=url,
        ) from None
    except httpx.HTTPError as exc:
        raise FetchError(f"download failed: {exc}", file=url) from None


def _locate(tree: Path, name: str, source: str) -> tuple[Path, str]:
    """The profile directory in the fetched tree: ``profiles/NAME`` (the oasis-spec layout),
    or the tree itself when it is a profile; with its path inside the source."""
    for inner in (f"profiles/{name}", name, "."):
        candidate = tree / inner
        found = (candidate / "profile.md").is_file() or (candidate / "profile.yaml").is_file()
        if found and candidate.resolve().is_relative_to(tree.resolve()):
            return candidate, inner
    raise FetchError(
        f"no profile '{name}' in the source (expected profiles/{name}/ with profile.md or "
        "profile.yaml, or a profile at its root)",
        file=source,
    )


def _license(tree: Path, profile_dir: Path, source: str) -> Path:
    """The source's license (the profile's own, else the repository's): a profile is
    installed with its license or not at all."""
    for where in (profile_dir, tree):
        for name in _LICENSES:
            if (where / name).is_file():
                return where / name
    raise FetchError(
        "the source has no LICENSE beside the profile or at its root; a profile is only "
        "installed with its license",
        file=source,
    )


def _attribution(record: dict[str, str | None]) -> str:
    ref = f"ref {record['ref']}, " if record["ref"] else ""
    return (
        f"# Attribution\n\nThis directory is the `{record['name']}` OASIS domain profile, "
        f"unchanged, from {record['source']} ({ref}{record['commit']}), path "
        f"`{record['path']}`.\nIt is licensed under the terms in `{record['license']}` "
        "(the OASIS specification and its profiles: CC BY 4.0). Fetched by "
        "`oasis profile fetch`; the oasis-eval project does not distribute it.\n"
    )


def _verified(new: Path, source: str) -> Profile:
    """The fetched profile as ``oasis run`` loads it: InvalidInput / UnjudgeableProfile (with
    every finding) when it would not run, and nothing is installed."""
    from .config import load_for_run  # the run's checks (~0.4 s of imports): a fetch only

    shown = f"{source} (fetched, not installed)"
    try:
        profile, _ = load_for_run(new)
    except UnjudgeableProfile as exc:  # named by its source: the staging copy is deleted
        raise UnjudgeableProfile(exc.findings, file=shown) from None
    except InvalidInput as exc:
        raise InvalidInput("the fetched profile could not be loaded", exc.findings, shown) from None
    if not profile.scenarios:
        raise FetchError("the fetched profile has no scenarios", file=source)
    return profile


def _install(new: Path, target: Path, staging: Path) -> None:
    """Rename ``new`` into place; an earlier fetch is moved aside first and removed after."""
    if target.is_symlink() or (target.exists() and not target.is_dir()):
        raise FetchError("exists and is not a cached profile directory", file=str(target))
    previous = staging / "previous"
    if target.exists():
        target.rename(previous)
    try:
        new.rename(target)
    except OSError:
        if previous.exists():  # put the earlier fetch back: never no profile at all
            previous.rename(target)
        raise
