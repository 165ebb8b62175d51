"""The dry-run plan: what would be indexed, what would not and why, before any embedding."""
