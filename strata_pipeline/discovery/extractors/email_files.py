"""E-mail messages (.eml, RFC 5322): subject, sender, date, the body text and the attachments' names."""

from __future__ import annotations

import email
import email.policy
from email.message import EmailMessage, MIMEPart

from strata_pipeline.discovery.extractors.extraction import (
    DEFAULT_LIMITS,
    Extraction,
    ExtractionError,
    ExtractLimits,
    _guarded,
)
from strata_pipeline.discovery.extractors.html import extract_html

# A message has at least one of these; bytes without any are not an e-mail.
_HEADERS = ("from", "to", "subject", "date", "message-id")


def _one_line(value: object) -> str:
    return " ".join(str(value or "").split())


def _date(message: EmailMessage) -> str:
    """The Date header as "2026-03-03 09:15 +0100" (one form for every mailer's), else as written."""
    header = message.get("date")
    moment = getattr(header, "datetime", None)
    if moment is not None:
        return moment.strftime("%Y-%m-%d %H:%M %z").strip()
    return _one_line(header)


def _part_text(part: MIMEPart) -> str:
    """A text part's content as str; a charset Python does not know is read as UTF-8 with replacement."""
    try:
        content = part.get_content()
    except (LookupError, UnicodeError):
        content = None
    if not isinstance(content, str):
        payload = part.get_payload(decode=True)
        content = payload.decode("utf-8", "replace") if isinstance(payload, bytes) else ""
    return content


def _body(message: EmailMessage, limits: ExtractLimits) -> str:
    """The text/plain body, else the text/html body's visible text (read by the HTML extractor)."""
    part = message.get_body(preferencelist=("plain", "html"))
    if part is None:
        return ""
    text = _part_text(part)
    if part.get_content_subtype() == "html":
        text = extract_html(text.encode("utf-8"), "body.html", limits).text
    return text.replace("\r\n", "\n").strip()


@_guarded("corrupt_email", "e-mail message")
def extract_eml(data: bytes, name: str = "", limits: ExtractLimits = DEFAULT_LIMITS) -> Extraction:
    """ "# Subject", "From:", "To:" and "Date:" lines, the body, then "Attachments:" with their names
    (attachments are listed, not extracted: each is its own format)."""
    message = email.message_from_bytes(data, policy=email.policy.default)
    assert isinstance(message, EmailMessage)  # what policy.default builds
    if not any(message.get(header) for header in _HEADERS):
        raise ExtractionError("corrupt_email", "Not an e-mail message: no From, To, Subject, Date or Message-ID.")
    blocks = []
    if subject := _one_line(message.get("subject")):
        blocks.append("# " + subject)
    header_lines = [
        f"{label}: {value}" for label in ("From", "To", "Cc") if (value := _one_line(message.get(label.lower())))
    ]
    if date := _date(message):
        header_lines.append(f"Date: {date}")
    if header_lines:
        blocks.append("\n".join(header_lines))
    if body := _body(message, limits):
        blocks.append(body)
    names = [_one_line(part.get_filename()) or part.get_content_type() for part in message.iter_attachments()]
    if names:
        blocks.append("Attachments: " + ", ".join(names))
    return Extraction(text="\n\n".join(blocks), kind="text", encoding="email")
