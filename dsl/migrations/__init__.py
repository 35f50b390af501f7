"""Steps of the ruleset format (see dsl/migrate.py): one module per change, each exposing
``migrate(doc) -> None`` that edits a ruamel.yaml round-trip document in place."""
