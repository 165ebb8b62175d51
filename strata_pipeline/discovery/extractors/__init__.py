"""Text extraction per file format, one module per family of formats; `dispatch.extract` is the
entry point.

Each extractor turns bytes on disk into an `Extraction`. Failures are raised as
`ExtractionError` with a stable code, so the caller can record an error row instead of
failing the run. Every extractor raises nothing but `ExtractionError` for bad input: parser
exceptions (and MemoryError / RecursionError) are wrapped with the format's code.

Error codes (stable): unsupported_format, empty_file, too_much_text, binary_content,
invalid_encoding, corrupt_docx, corrupt_pptx, corrupt_odt, corrupt_rtf, corrupt_email, corrupt_pdf,
corrupt_table, corrupt_html, corrupt_text, corrupt_config, zip_bomb, encrypted_pdf, no_pages, no_text_layer,
out_of_memory, too_deeply_nested.
"""
