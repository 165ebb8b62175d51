"""Closed word classes and formats that several stages match (calendar names, redaction placeholders),
written once."""
