"""Every size and effort limit in one place: what a shared rule file, IR or save may ask of the machine.

Rule files, compiled IR, YAML content and save files come from other people (docs/security.md).
These bounds keep any of them from hanging the machine or exhausting its memory; each is named in
docs/language.md ("Limits"), and hitting one is a clear rule error, never a traceback.
"""
from __future__ import annotations

# ---- running a rule ----
LOOP_LIMIT = 10_000            # iterations of one while/repeat
# The one cost model: every effect (a setup, an action with the flow it starts, a trigger...) and
# every listing of the legal actions has WORK_LIMIT units of work. A loop turn or a call of a
# recursive def is one; building, copying, scanning, comparing or printing a list of n elements or
# a text of n characters is n (list `+`, `*`, `sort`, `distinct`, `in`, `text(…)`, comprehensions,
# `log`...). So one effect can neither run long nor allocate more than a few tens of megabytes.
WORK_LIMIT = 2_000_000         # units of work (see above) in one effect or one listing
CALL_DEPTH_LIMIT = 200         # nested calls of (mutually) recursive defs and procs
FLOW_LIMIT = 1_000             # step changes in one apply before the flow is declared broken
INTERRUPT_LIMIT = 24           # interrupts taken while one effect waits (nested in each other too)
PLAYER_LIMIT = 64              # seats in one match
RANGE_LIMIT = 100_000          # elements of one `lo..hi` range
LIST_LIMIT = 10_000            # elements of one list a rule grows: by `append`, `+` or `*`
TEXT_LIMIT = 10_000            # characters of one text a rule builds (`+`, `*`, `text(…)`, a label...)
VALUE_LIMIT = 1_000_000        # elements of one value, counting those of the lists inside it
LIST_DEPTH_LIMIT = 64          # lists nested inside lists in one value
INT_LIMIT = 2 ** 62            # largest magnitude of an integer a rule computes
SUBSET_COUNT_LIMIT = 100_000   # subsets (all sizes together) a parameter may list in one listing
COMPONENT_LIMIT = 10_000       # components in one match
STATE_LIMIT = 4_000_000        # elements and characters a position holds (variables, fields, messages)
FAMILY_LIMIT = 100_000         # members of one `per …` zone or variable family (at the most players)
FAMILIES_LIMIT = 1_000_000     # members of all the families of a game together

# ---- a run of many games ----
# Each effect is bounded (WORK_LIMIT), but a run plays as many as its games take: a file whose every
# action is costly, or whose position is large, could keep `simulate` or `lint --deep` busy for hours.
# So a run has a budget of CPU time (measured between actions; `--max-cpu`, 0 for none): when it is
# spent the run stops with a clear message and what it found so far. It leaves room under a minute
# for loading the file and for the one effect (a few seconds at most) still running when it runs out.
RUN_CPU_LIMIT = 45.0           # CPU seconds of one `simulate` (all its games and sweeps) or one file's `lint --deep`

# ---- reading a rule file ----
SOURCE_LIMIT = 400_000         # characters of one rule file (the parser reads ~100,000 a second)
NESTING_LIMIT = 12             # blocks nested inside blocks (if, for, while, repeat ...)
EXPR_DEPTH_LIMIT = 64          # expressions nested inside expressions (a long `a + b + ...` chain counts)

# ---- YAML content ----
YAML_DEPTH_LIMIT = 32          # collections nested in one content file (a row needs 2)
YAML_SIZE_LIMIT = 1_000_000    # bytes of one content file
YAML_NODE_LIMIT = 100_000      # YAML nodes in one content file, aliases expanded
COPIES_LIMIT = 1_000           # `copies:` of one row

# ---- compiled IR and save files ----
JSON_SIZE_LIMIT = 20_000_000   # bytes of one IR, save or cache file
JSON_DEPTH_LIMIT = 500         # nesting of arrays/objects in one IR, save or cache file
IR_DEPTH_LIMIT = 200           # expressions and blocks nested in one compiled IR

# `else if` chains are not nesting to a reader, but each link is a level of the IR: as many links
# as the IR's depth leaves room for once the deepest expression and blocks are counted.
ELSE_IF_LIMIT = max(8, (IR_DEPTH_LIMIT - EXPR_DEPTH_LIMIT - 2 * NESTING_LIMIT - 12) // 2)
