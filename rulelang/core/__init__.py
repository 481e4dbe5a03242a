"""Leaf utilities every layer may use and that import nothing else of rulelang: errors and diagnostics,
limits, safe text and JSON, value types, the version."""
