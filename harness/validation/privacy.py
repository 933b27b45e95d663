"""Privacy rules of the scenario data: phone numbers with a national part starting with 00, email
addresses on the reserved ``.example`` top-level domain."""

from __future__ import annotations

import re
from collections.abc import Iterator

from phonenumbers import COUNTRY_CODE_TO_REGION_CODE

# "+<country code> <national part>" with spaces, dots, dashes or brackets between digit groups.
_INTERNATIONAL = re.compile(r"\+\s?(\d[\d\s().-]{5,}\d)")
# The local part starts where a run of its characters starts (tried from inside a run, it
# rescanned the rest of the run from each position: quadratic on a long word).
_EMAIL = re.compile(r"(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@([A-Za-z0-9-]+\.)+([A-Za-z]{2,})\b")


def _national_part(digits: str) -> str | None:
    """The digits after the country code (codes are prefix-free, 1 to 3 digits)."""
    for n in (1, 2, 3):
        if int(digits[:n]) in COUNTRY_CODE_TO_REGION_CODE:
            return digits[n:]
    return None


def phone_number_problems(text: str) -> Iterator[str]:
    for m in _INTERNATIONAL.finditer(text):
        digits = re.sub(r"\D", "", m.group(1))
        national = _national_part(digits)
        if national is None:
            yield f"phone number +{m.group(1).strip()} has no known country code"
        elif not national.startswith("00"):
            yield f"phone number +{m.group(1).strip()}: the national part must start with 00"


def email_problems(text: str) -> Iterator[str]:
    for m in _EMAIL.finditer(text):
        if m.group(2).lower() != "example":
            yield f"email address {m.group(0)} must use the .example top-level domain"
