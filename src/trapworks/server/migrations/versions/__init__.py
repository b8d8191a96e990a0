"""One file per schema version, oldest first (0001 is the schema before migrations existed)."""
