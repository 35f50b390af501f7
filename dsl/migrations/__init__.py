"""Migration steps of the ruleset format: each rewrites an older file in place (comments kept)."""
