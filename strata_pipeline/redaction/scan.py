"""The text detectors read: same length as the document, so every offset still points into it.

Two things trip tokenizers without changing what a document says:
- line breaks exported as the two characters backslash and n ("Mackay\\n\\nLa Sagne");
- delimited rows with no space after the separator ("C-10482,Aino Hämäläinen,aino@...;"), which
  spaCy reads as one token. In a block of lines with the same number of separators, unquoted
  separators become tabs;
- e-mail quoting marks at the start of every line of a block ("> ", ">> ", "| "): replies quote whole
  blocks, and the marks hide that a line starts a name. Only these conventional marks count: other
  line prefixes ("}} ", "??? ") were first seen in the presidio generator's layout, which makes
  test data, so no rule reads them.
"""

from __future__ import annotations

import re

# "|" first: it is never prose punctuation, so a block of lines with as many bars is a table even where its
# cells hold commas ("| Lausanne, St. Gallen |"); then ";" before ",", whose cells hold decimal commas
_SEPARATORS = ("|", ";", ",")


def _unquoted(line: str, separator: str) -> list[int]:
    positions, quoted = [], False
    for position, ch in enumerate(line):
        if ch == '"':
            quoted = not quoted
        elif ch == separator and not quoted:
            positions.append(position)
    return positions


def _tabulate_block(lines: list[str], separator: str) -> list[str]:
    out = []
    for line in lines:
        chars = list(line)
        for position in _unquoted(line, separator):
            chars[position] = "\t"
        out.append("".join(chars))
    return out


def delimited_as_tabs(text: str) -> str:
    lines = text.split("\n")
    for separator in _SEPARATORS:
        counts = [len(_unquoted(line, separator)) if "\t" not in line else 0 for line in lines]
        start = 0
        while start < len(lines):
            end = start
            while end + 1 < len(lines) and counts[end + 1] == counts[start]:
                end += 1
            # a table: two or more lines with the same number (>= 2) of separators
            if counts[start] >= 2 and end > start:
                lines[start : end + 1] = _tabulate_block(lines[start : end + 1], separator)
                for k in range(start, end + 1):
                    counts[k] = 0
            start = end + 1
    return "\n".join(lines)


# E-mail quoting: one to four ">" (a nested reply), or a "|" bar.
_QUOTE_MARK = re.compile(r"^[ \t]*(>{1,4}|\|)[ \t]?")


def unquoted_blocks(text: str) -> str:
    """Blank the quoting marks that two or more consecutive lines start with."""
    lines = text.split("\n")
    marks = [m.group(1) if (m := _QUOTE_MARK.match(line)) else None for line in lines]
    for k, line in enumerate(lines):
        mark = marks[k]
        shared = mark is not None and (
            (k > 0 and marks[k - 1] == mark) or (k + 1 < len(lines) and marks[k + 1] == mark)
        )
        if shared:
            match = _QUOTE_MARK.match(line)
            assert match is not None
            lines[k] = " " * match.end() + line[match.end() :]
    return "\n".join(lines)


def scan_text(text: str) -> str:
    """The same-length text that detectors analyse in place of `text`."""
    scanned = re.sub(r"\\n", " \n", text)
    return delimited_as_tabs(unquoted_blocks(scanned))
