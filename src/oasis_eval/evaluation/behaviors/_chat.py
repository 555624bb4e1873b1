"""Chat spellings read as their words (behaviors rule 431; heldout24, issue 27).

Not an evaluator module (the leading ``_`` keeps the registry loader away).

An operator answering in a chat channel writes "ur ask", "pls approve", "b/c the cap is 10",
"w/ headroom". A cue written for the words ("your ask", "because") reads the chat spelling
once it is spelled out: :func:`spelled_out` rewrites each whole-word chat spelling, nothing
else, so a cue matching the result matches what the words would have.
"""

from __future__ import annotations

import re

#: chat spelling -> its words; whole words only ("u" never inside "u-2", "ur" never in "urn")
_SPELLINGS = {"u": "you", "ur": "your", "pls": "please", "plz": "please", "b/c": "because",
              "w/o": "without", "w/": "with"}  # fmt: skip
_CHAT = re.compile(r"(?<![\w/.\-])(b/c|w/o|w/|ur|u|pls|plz)(?=\s|$|[,.;:!?)])", re.IGNORECASE)


def spelled_out(text: str) -> str:
    """``text`` with each chat spelling replaced by its words (module doc)."""
    return _CHAT.sub(lambda m: _SPELLINGS[m[1].lower()], text)
