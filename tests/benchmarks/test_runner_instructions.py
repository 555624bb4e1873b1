"""The runner's instruction count (benchmarks/runner_instructions.py, issue 30, session 20):
the shares are read from callgrind's compressed output, a call's inclusive cost is not
counted as its caller's own, and the command says so plainly when valgrind is missing."""

from __future__ import annotations

import importlib
import shutil
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
if str(REPO_ROOT) not in sys.path:  # ``benchmarks`` is not an installed package
    sys.path.insert(0, str(REPO_ROOT))
counting = importlib.import_module("benchmarks.runner_instructions")

#: callgrind's format with name compression: ``ob=(1) name`` once, ``ob=(1)`` after;
#: ``cfn=``/``cob=`` name a callee; the cost line after ``calls=`` is inclusive
SAMPLE = b"""version: 1
creator: callgrind-3.19.0
events: Ir
summary: 0

ob=(1) /usr/lib/libpython3.11.so.1.0
fl=(1) /tmp/python-build/Python-3.11.7/Python/ceval.c
fn=(1) _PyEval_EvalFrameDefault
10 100
+2 50
cob=(2) /usr/lib/x86_64-linux-gnu/libcrypto.so.3
cfi=(2) ???
cfn=(2) SHA256_Update
calls=3 0
* 7000
-1 25
fi=(3) /tmp/python-build/Python-3.11.7/./Objects/dictobject.c
5 30

ob=(2)
fl=(2)
fn=(2)
0 6000

ob=(1)
fl=(3)
fn=(3) insertdict
1 45

totals: 6250
"""


def test_shares_by_object_count_self_cost_only() -> None:
    shares = counting.by_object(SAMPLE)
    assert shares == {
        "python: Python/ceval.c": 175,
        "libcrypto.so.3": 6000,
        "python: Objects/dictobject.c": 75,
    }
    assert sum(shares.values()) == 6250  # the file's totals: no inclusive cost counted


def test_the_total_is_read_from_the_file() -> None:
    assert counting._total(SAMPLE) == 6250
    assert counting._total(b"events: Ir\n") == 0


@pytest.mark.skipif(shutil.which("valgrind") is not None, reason="valgrind is installed")
def test_without_valgrind_it_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    assert counting.main([]) == 2
    assert "valgrind" in capsys.readouterr().err
