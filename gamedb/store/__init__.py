"""Storage: the SQL schema, opening databases, and schema migrations."""
