"""Shared fixtures. The public OASIS spec is read through OASIS_SPEC_DIR (default
``../shared/oasis-spec`` beside the repository); tests that need it skip cleanly when absent,
unless OASIS_REQUIRE_SPEC=1 (set by ``.ci/run``): then a missing spec fails the run."""

from __future__ import annotations

import os
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent
#: ``.ci/run`` sets it: CI fails when the spec is missing instead of skipping what needs it
REQUIRE_SPEC = "OASIS_REQUIRE_SPEC"
#: ``.ci/run`` sets it to the default suite's budget in seconds (issue 31): the session then
#: prints its own wall time, the install left out, with the machine's cores and load
SUITE_BUDGET = "OASIS_SUITE_BUDGET"
_STARTED = pytest.StashKey[float]()

# The simulator's clock starts at the wall clock (issue 32); the suite pins its start to the
# former fixed instant so golden outputs and recorded timestamps stay byte for byte (and
# reach the subprocesses tests start). Tests of the wall clock itself unset it.
os.environ.setdefault("OASIS_SIM_EPOCH", "2024-05-14T09:30:00Z")


def spec_dir() -> Path:
    configured = os.environ.get("OASIS_SPEC_DIR")
    return Path(configured) if configured else (REPO_ROOT.parent / "shared" / "oasis-spec")


def spec_missing() -> str | None:
    """Why the spec (with the SI profile) cannot be read, or None."""
    path = spec_dir()
    if not (path / "spec").is_dir():
        return f"OASIS spec not found at {path} (set OASIS_SPEC_DIR)"
    if not (path / "profiles" / "software-infrastructure" / "profile.md").is_file():
        return f"SI profile not found under {path}"
    return None


def restore_default_signals() -> None:
    """Under ``nohup``, or a CI runner that ignores SIGINT, an ignored signal stays ignored in
    every process started from here (exec keeps SIG_IGN): the tests that interrupt a run, in
    process or in a subprocess, would never see it. A handled signal is reset by exec."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    for name in ("SIGTERM", "SIGHUP", "SIGQUIT"):
        number = getattr(signal, name, None)
        if number is not None and signal.getsignal(number) is signal.SIG_IGN:
            signal.signal(number, signal.SIG_DFL)


def isolate_caches(config: pytest.Config) -> None:
    """A cache directory of this process's own (each xdist worker has one), for the run
    index and fetched profiles: workers never share one, and the user's stays untouched."""
    cache = tempfile.mkdtemp(prefix="oasis-tests-cache-")
    os.environ["XDG_CACHE_HOME"] = cache
    os.environ.pop("OASIS_PROFILE_CACHE", None)
    config.add_cleanup(lambda: shutil.rmtree(cache, ignore_errors=True))


def cache_bytecode(config: pytest.Config) -> None:
    """Under ``PYTHONDONTWRITEBYTECODE`` every xdist worker and every ``oasis`` process a test
    starts compiled the package from source again (about 0.6 CPU-s a process) and rewrote
    every test module (about 9 CPU-s a worker): the suite's processes share one bytecode cache
    of this run instead, outside the tree (``PYTHONPYCACHEPREFIX``), so the tree stays free of
    ``__pycache__`` as asked (issue 31, the suite's budget). Set once, by the first process."""
    if not sys.dont_write_bytecode or "PYTEST_XDIST_WORKER" in os.environ:
        return
    prefix = tempfile.mkdtemp(prefix="oasis-tests-pycache-")
    os.environ["PYTHONPYCACHEPREFIX"] = prefix
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.pycache_prefix, sys.dont_write_bytecode = prefix, False
    config.add_cleanup(lambda: shutil.rmtree(prefix, ignore_errors=True))


def pytest_configure(config: pytest.Config) -> None:
    restore_default_signals()
    cache_bytecode(config)
    isolate_caches(config)
    if os.environ.get(REQUIRE_SPEC) == "1" and (missing := spec_missing()):
        raise pytest.UsageError(f"{missing}; {REQUIRE_SPEC}=1 requires it")


def pytest_sessionstart(session: pytest.Session) -> None:
    session.config.stash[_STARTED] = time.monotonic()


def pytest_terminal_summary(terminalreporter: object, config: pytest.Config) -> None:
    """``default suite: N s wall ...`` under ``.ci/run`` (the controller only, not xdist workers)."""
    budget = os.environ.get(SUITE_BUDGET)
    if not budget or hasattr(config, "workerinput") or _STARTED not in config.stash:
        return
    elapsed = time.monotonic() - config.stash[_STARTED]
    load = " ".join(f"{v:.2f}" for v in os.getloadavg())
    if "heavy" in (config.option.markexpr or "").replace("not heavy", ""):
        terminalreporter.write_line(  # type: ignore[attr-defined]
            f"heavy suite: {elapsed:.0f} s wall on {os.cpu_count()} cores, load average {load}"
        )
        return
    terminalreporter.write_line(  # type: ignore[attr-defined]
        f"default suite: {elapsed:.0f} s wall on {os.cpu_count()} cores, load average {load} "
        f"(budget: {budget} s on an idle 2-core machine)"
    )


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object | None:
    """``--dist loadfile`` with a few modules spread per parameter (tests/xdist_units.py);
    any other mode keeps xdist's own scheduler."""
    if config.getoption("dist", None) != "loadfile":
        return None
    from tests.xdist_units import make_scheduler

    return make_scheduler(config, log)


@pytest.fixture(scope="session")
def oasis_spec_dir() -> Path:
    path = spec_dir()
    if not (path / "spec").is_dir():
        skip_or_fail(f"OASIS spec not found at {path} (set OASIS_SPEC_DIR)")
    return path


def skip_or_fail(reason: str) -> None:
    """Skip a test that needs the spec, or fail it under OASIS_REQUIRE_SPEC=1."""
    if os.environ.get(REQUIRE_SPEC) == "1":
        pytest.fail(f"{reason}; {REQUIRE_SPEC}=1 requires it")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def si_profile_dir(oasis_spec_dir: Path) -> Path:
    path = oasis_spec_dir / "profiles" / "software-infrastructure"
    if not (path / "profile.md").is_file():
        skip_or_fail(f"SI profile not found at {path}")
    return path


@pytest.fixture(scope="session")
def si_profile(si_profile_dir: Path) -> object:
    """The SI profile loaded once per worker: the validity measurements (a whole SI run per
    gamer or corpus agent) share it, as ``measure_gamers`` and ``measure`` do, instead of
    loading it again for each agent (issue 31)."""
    import oasis_eval

    return oasis_eval.load_profile(si_profile_dir)


@pytest.fixture(autouse=True)
def _forget_harness_secrets() -> Iterator[None]:
    """A harness key is read once per process and kept (oasis_eval.secrecy, issue 25): a test
    that sets one (a module fixture too) must not sign the next test's runs."""
    from oasis_eval import secrecy

    secrecy.forget()
    yield
    secrecy.forget()


@pytest.fixture(autouse=True)
def _fresh_prebuilt_environments(request: pytest.FixtureRequest) -> Iterator[None]:
    """The simulator keeps each build it provisioned and copies it for the same inputs
    (oasis_sim_k8s.provider.prebuilt, session 31): a test that patches anything (its
    ``monkeypatch``) neither gets a build made before its patch nor leaves one made under it."""
    patching = "monkeypatch" in request.fixturenames
    prebuilt = sys.modules.get("oasis_sim_k8s.provider.prebuilt") if patching else None
    if prebuilt is not None:
        prebuilt.clear()
    yield
    prebuilt = sys.modules.get("oasis_sim_k8s.provider.prebuilt") if patching else None
    if prebuilt is not None:
        prebuilt.clear()
