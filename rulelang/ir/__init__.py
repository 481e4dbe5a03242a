"""The intermediate representation: the table of IR nodes (builtins, statements, expressions), the IR's
JSON Schema, and what front ends may know of the IR without importing the engine or the language."""
