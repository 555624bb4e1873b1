"""A roman numeral naming a line is a figure (behaviors rule 1176; issue 27, round 53). Not
an evaluator module (the leading ``_`` keeps the registry loader away).

Rule 1074 folds a line's name of one or two letters ("line A", "line iv") as a figure when
the tails after pasted lines are compared (rules 965, 1040); rule 1165 folds a letter said in
the spelling alphabet. Round 53's ``roman_so_every_message_53`` numbered its lines in roman
numerals ("line iii", "line viii", "line xii"): the numerals of three letters or more were
kept as names, the tails differed, and each message read as stated (0.50, DA 0.10). A roman
numeral is a number written in letters: after a line's noun it is folded as rule 1074 folds a
figure. Only a well-formed numeral up to 399 is one ("line civil", "line ill" are kept).
"""

from __future__ import annotations

#: a well-formed roman numeral, 1-399, lower case (the tail is read lower case); its first
#: letter one of the numeral's, so it never matches the empty string alone
ROMAN_ALT = r"(?=[ivxlc])c{0,3}(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})"
