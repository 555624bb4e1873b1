"""The reports' escaping shortcuts give what the full passes give (issue 30).

``visible_controls`` returns printable ASCII as it is and the Markdown table cell escapes a
pipe only when the text holds one: both are checked here against the regex passes they skip,
over every code point a report can meet in the first planes and hostile mixtures."""

from __future__ import annotations

import re

from oasis_eval import control_chars as controls
from oasis_eval.reporting import markdown

#: every code point of the Basic Multilingual Plane's first part and the specials, alone
#: and inside ordinary text, plus pipes escaped and not
_SAMPLES = [
    *[chr(c) for c in range(0x3000)],
    *[f"ok {chr(c)} text" for c in (*range(0x20), *range(0x7F, 0xA0), 0x202E, 0x2066, 0xFFFE)],
    "plain printable ASCII: a|b \\| c",
    "tab\tand\nnewline",
    "\x1b[31mred\x1b[0m",
    "",
    "|",
    "\\|",
    "a\\\\|b",
    "\ud800 lone surrogate",
]


def test_visible_controls_is_the_regex_pass() -> None:
    got = [controls.visible_controls(text) for text in _SAMPLES]
    assert len(got) > 0x3000
    assert got == [controls._CONTROL.sub(controls._escape, text) for text in _SAMPLES]


def test_printable_ascii_is_returned_unchanged() -> None:
    text = "".join(chr(c) for c in range(0x20, 0x7F))
    assert controls.visible_controls(text) is text


def test_cell_text_escapes_pipes_as_the_regex_does() -> None:
    expected = [re.sub(r"(?<!\\)\|", r"\\|", text) or " " for text in _SAMPLES]
    assert len(expected) > 0x3000
    assert [markdown._cell_text(text) for text in _SAMPLES] == expected


def test_a_memoised_cell_is_each_of_its_parts_own() -> None:
    """The cell memos (issue 30) key on every part a layout shows: the same text as code, in
    bold, in a tone or as a link is written otherwise, and a cell given as a string is the
    dict cell with that text; a hostile text is escaped the same the second time."""
    from oasis_eval.reporting import html

    text = "a_b | `x` <i>"
    variants = [
        text,
        {"text": text},
        {"text": text, "code": True},
        {"text": text, "strong": True},
        {"text": text, "tone": "fail"},
        {"text": text, "href": "s-1"},
        {"text": text, "tone": ["not", "a", "key"]},
    ]
    for layout in (markdown._inline, html.inline_cell):
        first = [str(layout(v)) for v in variants]
        assert [str(layout(v)) for v in variants] == first
        assert first[0] == first[1]
        shown = {first[1], first[2], first[3]} | (
            {first[4], first[5]} if layout is html.inline_cell else set()
        )
        assert len(shown) == (5 if layout is html.inline_cell else 3)
        assert "<i>" not in first[0]
    assert markdown._text("# title") == markdown._text("# title") == "\\# title"


def test_markdown_escape_matches_the_two_branch_pattern() -> None:
    """``markdown._ESCAPE`` (one opening class, the underscore's condition after it) escapes
    exactly what the two-branch pattern it replaced escapes (issue 30), over seeded strings
    of the characters it reads and every sample above."""
    import random

    reference = re.compile(r"([\\`*<>\[\]~&])|((?<![A-Za-z0-9])_|_(?![A-Za-z0-9]))")
    alphabet = list("ab_Z9é \\`*<>[]~&_-.:x|")
    rng = random.Random(30)
    texts = _SAMPLES + [
        "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12))) for _ in range(20_000)
    ]

    def escaped(match: re.Match[str]) -> str:
        return "\\" + match.group(0)

    assert len(texts) > 20_000
    for text in texts:
        assert markdown._ESCAPE.sub(escaped, text) == reference.sub(escaped, text), repr(text)


def test_markdown_blank_runs_match_the_counted_pattern() -> None:
    for text in ["", "\n", "a\n\nb", "a\n\n\nb", "\n\n\n\n\nx\n\n\n", "a\n \n\n\nb"]:
        assert markdown._BLANK_RUN.sub("\n\n", text) == re.sub(r"\n{3,}", "\n\n", text)


def test_html_shown_str_is_markupsafe_s_escape() -> None:
    """``html._shown`` of a str (its own replacements) is what markupsafe's escape of the
    finalized value gives (issue 30), over every sample and the characters it escapes."""
    import markupsafe

    from oasis_eval.reporting import html

    texts = [*_SAMPLES, "&<>'\"", "a & b < c > d 'e' \"f\"", "&amp; already", "<b>x</b>"]
    for text in texts:
        assert html._shown(text) == str(markupsafe.escape(html._finalize(text))), repr(text)
    assert html._shown(markupsafe.Markup("<b>")) == "<b>"
    assert html._shown(None) == "None" and html._shown(3) == "3"


def test_markdown_text_checks_a_line_opening_only_where_one_can_be() -> None:
    """``markdown._text_of`` searches ``_LEAD`` only in a text opening with a block opener or
    a decimal digit (issue 30): every other opening gives what the search gives."""
    markdown._forget()
    openings = [chr(c) for c in range(0x3000)] + ["12.", "3)", "٣.", "#", "- x", "+", "=", ">"]
    assert markdown._text_of("12. x") == "12\\. x" and markdown._text_of("# x") == "\\# x"
    for text in openings + [o + " rest" for o in openings]:
        flat = controls.visible_controls(" ".join(text.split()))
        escaped = markdown._ESCAPE.sub(markdown._escaped, flat)
        assert markdown._text_of(text) == markdown._LEAD.sub(markdown._lead_escaped, escaped)
    markdown._forget()
