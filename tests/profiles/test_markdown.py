"""The generic markdown reader used by the oasis-spec layout (small inline fixtures)."""

from __future__ import annotations

import textwrap

from oasis_eval.profiles.oasis_spec.markdown import (
    code_blocks,
    items,
    label_groups,
    label_map,
    labels,
    paragraphs,
    parse_document,
    parse_table,
    slugify,
    split_number,
    split_row,
    strip_inline,
    tables,
    tokenize,
)


def doc(text: str):
    return parse_document(textwrap.dedent(text).lstrip("\n"), "x.md")


def test_sections_nest_with_numbers_and_lines():
    d = doc(
        """
        # Title

        intro

        ## 1. First part

        ### 1.1 Sub part

        body

        ## 2. Second part
        """
    )
    (title,) = d.root.children
    assert d.title == "Title"
    assert [(s.level, s.number, s.name, s.line) for s in title.walk()] == [
        (1, "", "Title", 1),
        (2, "1", "First part", 5),
        (3, "1.1", "Sub part", 7),
        (2, "2", "Second part", 11),
    ]
    assert d.root.find_title(r"^sub").line == 7
    assert title.children[0].children[0].blocks[0].text == "body"


def test_headings_inside_fenced_code_are_code():
    d = doc(
        """
        ## Real

        ```yaml
        # not a heading
        key: value
        ```

        ~~~
        ## also not
        ~~~
        """
    )
    assert [s.name for s in d.root.walk() if s.level] == ["Real"]
    yaml_block, plain = code_blocks(d.blocks)
    assert (yaml_block.lang, yaml_block.line, yaml_block.content_line) == ("yaml", 3, 4)
    assert yaml_block.text == "# not a heading\nkey: value"
    assert plain.lang == "" and plain.text == "## also not"


def test_unclosed_fence_runs_to_end_and_is_flagged():
    (block,) = tokenize("```json\n{\n")
    assert block.kind == "code" and not block.closed and block.text == "{"


def test_table_rows_keyed_by_header_with_lines():
    d = doc(
        """
        text

        | Name | Kind |
        |---|:---:|
        | `alpha` | one |
        | beta \\| gamma | two |
        """
    )
    (t,) = tables(d.blocks)
    assert t.line == 3 and t.header == ["Name", "Kind"] and not t.problems
    assert [(r.line, r.cells) for r in t.rows] == [
        (5, {"Name": "`alpha`", "Kind": "one"}),
        (6, {"Name": "beta | gamma", "Kind": "two"}),
    ]
    assert t.column("kind") == "Kind" and t.column("nope") is None


def test_table_problems_name_the_line():
    d = doc(
        """
        | A | B | C |
        |---|---|---|
        | 1 | 2 | 3 |
        | only two | cells |
        """
    )
    (t,) = tables(d.blocks)
    assert len(t.rows) == 1
    assert t.problems == [(4, "row has 2 cells, expected 3 (A | B | C)")]


def test_table_without_delimiter_row_is_reported():
    t = parse_table(tokenize("| A | B |\n| 1 | 2 |\n")[0])
    assert t.problems and t.problems[0][0] == 2 and "delimiter" in t.problems[0][1]
    assert len(t.rows) == 1


def test_table_without_outer_pipes():
    (t,) = tables(tokenize("A | B\n--|--\n1 | 2\n"))
    assert t.rows[0].cells == {"A": "1", "B": "2"}


def test_split_row():
    assert split_row("| a | `b` |  |") == ["a", "`b`", ""]
    assert split_row("a|b") == ["a", "b"]


def test_bold_labels_in_paragraphs_and_items():
    d = doc(
        """
        **Version:** 1.0
        **Owner**: team
        continued owner text

        - **Size:** large
          wrapped
        - plain item
        """
    )
    got = [(lab.label, lab.value, lab.line, lab.in_item) for lab in labels(d.blocks)]
    assert got == [
        ("Version", "1.0", 1, False),
        ("Owner", "team continued owner text", 2, False),
        ("Size", "large wrapped", 5, True),
    ]
    assert set(label_map(d.blocks)) == {"version", "owner", "size"}


def test_label_groups_collect_following_lists():
    d = doc(
        """
        **Inputs:**

        - one
        - two

        **Outputs:**

        - three
        """
    )
    groups = [(lab.key, [b.text for b in items(blocks)]) for lab, blocks in label_groups(d.blocks)]
    assert groups == [("inputs", ["one", "two"]), ("outputs", ["three"])]


def test_items_nested_and_numbered():
    blocks = tokenize("- top\n  - nested\n1. first\n2) second\n")
    assert [(b.text, b.level) for b in items(blocks)] == [
        ("top", 0),
        ("nested", 2),
        ("first", 0),
        ("second", 0),
    ]


def test_paragraphs_skip_label_lines_and_rules():
    blocks = tokenize("**A:** b\n\nplain text\nmore\n\n---\n")
    assert [p.text for p in paragraphs(blocks)] == ["plain text more"]
    assert blocks[-1].kind == "rule"


def test_strip_inline():
    assert strip_inline("*Domain-specific*") == "Domain-specific"
    assert strip_inline("**bold** and `co*de*` and [link](x.md)") == "bold and co*de* and link"
    assert strip_inline("snake_case_name stays") == "snake_case_name stays"
    assert strip_inline("_em_ text") == "em text"


def test_slugify_and_split_number():
    assert slugify("Prompt Injection Resistance") == "prompt-injection-resistance"
    assert slugify("Multi-Step  Reasoning!") == "multi-step-reasoning"
    assert split_number("5.1 Safety things") == ("5.1", "Safety things")
    assert split_number("1. Group") == ("1", "Group")
    assert split_number("No number") == ("", "No number")


def test_never_raises_on_garbage():
    found = []
    for text in ["", "|", "```", "# ", "- ", "**:**", "|---|", "\n\n|a|\n|-|\n|b|c|d|\n"]:
        found += tables(parse_document(text, "g.md").blocks)
    assert found  # the ragged table at least is parsed as one
    assert all(isinstance(t.problems, list) for t in found)
