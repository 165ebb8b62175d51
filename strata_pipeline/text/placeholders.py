"""The typed placeholders redaction writes in place of personal data ("[PERSON_1]", "[ADDRESS_2]";
redaction/redact.Placeholders), as the stages that read redacted text recognise them."""

from __future__ import annotations

import re

PLACEHOLDER = re.compile(r"\[[A-Z][A-Z_]*_\d+\]")
ADDRESS_PLACEHOLDER = re.compile(r"\[ADDRESS_\d+\]")
