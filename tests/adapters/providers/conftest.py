"""Fixtures for provider adapter tests: a running fake petri server.

The tests run with ``--import-mode=importlib``, so ``fake_petri.py`` is loaded by
path here and reached through fixtures, not imports.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest


def _load_fake_petri() -> Any:
    name = "oasis_eval_tests_fake_petri"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name("fake_petri.py"))
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def petri() -> Iterator[Any]:
    server = _load_fake_petri().FakePetri().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def free_port_url() -> str:
    """A URL on which nothing listens (the port was bound, then released)."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"
