"""The hand core: tiles and notation, per-suit tables, shapes (splits, shanten, waits) and
discard tables.  Pure hand computation, the ground floor: it imports nothing of ``dsl`` or
``interpreter`` (tests/test_layers.py)."""
