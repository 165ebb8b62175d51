"""Closed word classes that several stages match (calendar names), written once."""
