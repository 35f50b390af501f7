"""Migration steps: each rewrites a ruleset document of one format into the next, in place."""
