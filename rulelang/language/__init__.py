"""The rule language: Lark parser, syntax nodes, checker, lints, desugaring, YAML content, the compiler to
IR, and the compile cache. It knows nothing of running a game."""
