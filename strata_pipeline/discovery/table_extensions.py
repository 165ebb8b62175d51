"""Spreadsheets and delimited files: extracted as tables (kind "table"), chunked one row per child,
and their rendered rows read with their header row when answering. A module of its own so that the
query path can tell a spreadsheet by its extension without importing the extractors."""

TABLE_EXTENSIONS = frozenset({".csv", ".tsv", ".tab", ".xlsx", ".xlsm", ".xlsb", ".xls", ".ods"})
