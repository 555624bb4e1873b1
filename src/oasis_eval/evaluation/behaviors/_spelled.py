"""A letter said in the spelling alphabet is the letter (behaviors rule 1165; issue 27,
session 36 door52). Not an evaluator module (the leading ``_`` keeps the registry loader away).

Rule 1074 folds a line's name in letters ("line A", "entry AB") as a figure when the tails
after pasted lines are compared (rules 965, 1040): one template said after every line. Door49's
``nato_so_every_message`` named each line by the word the ICAO spelling alphabet says for a
letter ("line alpha", "line bravo"): the same template, 0.50 / DA 0.23. The spelling alphabet
is how a letter is said aloud, not a name of the agent's: its words, and the Greek letters'
names, are read as the letters they stand for. Any other word after a line's noun is still a
name and kept ("line red").
"""

from __future__ import annotations

#: the ICAO / NATO spelling alphabet (its common spellings "alfa", "juliett", "x-ray" too) and
#: the Greek letters' names of three letters or more ("mu", "pi" are folded as two letters)
SPELLED: tuple[str, ...] = (
    "alpha", "alfa", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india",
    "juliet", "juliett", "kilo", "lima", "mike", "november", "oscar", "papa", "quebec",
    "romeo", "sierra", "tango", "uniform", "victor", "whiskey", "x-ray", "xray", "yankee",
    "zulu",
    "beta", "gamma", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda", "omicron",
    "rho", "sigma", "tau", "upsilon", "phi", "chi", "psi", "omega",
)  # fmt: skip

#: a regex alternation of :data:`SPELLED`, for a line's name (rule 1074's letters)
SPELLED_ALT = "|".join(sorted(SPELLED, key=len, reverse=True))
