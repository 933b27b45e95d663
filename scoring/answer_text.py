"""The answer as its reader sees it, for the answer checks.

Models write markdown; a phone shows "**5:30**" as a bold 5:30 and "`Lyon`" as Lyon, so emphasis
and code marks are not part of what was said. Runs of whitespace (line breaks of a list, tabs)
read as one space, and the text is read with a space at each end, so a check written with a
leading or trailing space to mark a word's edge (" 5:30" against "15:30") also holds at the
answer's first or last word.
"""

from __future__ import annotations

import re

# ** and __ anywhere; a single * or _ only at a word's edge (anna_weber@..., 2*3 keep theirs).
_EMPHASIS = re.compile(r"\*\*+|__+|(?<!\w)[*_](?=\S)|(?<=\S)[*_](?!\w)|`+")
_SPACE = re.compile(r"\s+")


def answer_as_read(answer: str) -> str:
    """``answer`` without markdown emphasis or code marks, whitespace runs as one space, and a
    space at each end."""
    return f" {_SPACE.sub(' ', _EMPHASIS.sub('', answer)).strip()} "
