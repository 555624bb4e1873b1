from pathlib import Path

import pytest

from oasis_eval.diagnostics import Findings, UnusableInput
from oasis_eval.spec.yaml_io import load_documents, load_single


def write(tmp_path: Path, text: str, name: str = "doc.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_lines_are_recorded_per_key_and_item(tmp_path):
    path = write(tmp_path, "a: 1\nb:\n  - x\n  - y: 2\n")
    doc = load_single(path)
    assert doc.data == {"a": 1, "b": ["x", {"y": 2}]}
    assert doc.locations[("a",)] == 1
    assert doc.locations[("b", 0)] == 3
    assert doc.locations[("b", 1, "y")] == 4


def test_multi_document_start_lines(tmp_path):
    path = write(tmp_path, "# head\n---\nid: one\n---\nid: two\n")
    docs = load_documents(path)
    assert [d.data["id"] for d in docs] == ["one", "two"]
    assert [d.line for d in docs] == [3, 5]
    assert docs[1].locations[("id",)] == 5


def test_duplicate_key_is_an_error_with_both_lines(tmp_path):
    path = write(tmp_path, "id: a\nname: x\nid: b\n")
    findings = Findings()
    load_documents(path, findings)
    assert [(f.code, f.line) for f in findings] == [("duplicate-key", 3)]
    assert "line 1" in findings[0].message


def test_bad_yaml_is_unusable_input_with_line(tmp_path):
    path = write(tmp_path, "a: 1\nb: [1, 2\nc: 3\n")
    with pytest.raises(UnusableInput) as info:
        load_documents(path)
    assert info.value.file == str(path)
    assert info.value.line is not None and info.value.line >= 2
    assert "invalid YAML" in str(info.value)


def test_missing_file_is_unusable_input(tmp_path):
    with pytest.raises(UnusableInput, match="file not found"):
        load_documents(tmp_path / "absent.yaml")


def test_empty_file_has_no_single_document(tmp_path):
    with pytest.raises(UnusableInput, match="no YAML document"):
        load_single(write(tmp_path, "# only a comment\n"))
