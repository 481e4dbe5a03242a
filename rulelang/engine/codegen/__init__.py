"""Compile a game's IR into Python functions, once per game.

The Lowerer writes the source of one Python module per game — a function per def, proc,
step, action body and flow block — from this module's own templates, then compiles it
once. Rule text never reaches that source: locals, defs, procs, zones and variables are
numbered, and every literal goes through `_lit` (repr of JSON scalars only). The engine
(engine.py) runs the functions; nothing here is a game's own code.

What the generated code gains over walking the IR:
- locals are Python locals, state is read from flat slot lists (`m.Z`, `m.V`, one column
  list per component field in `m.F`), geometry and constant tables are precomputed;
- small non-recursive defs are inlined where their arguments are plain names, which lets
  constants fold (`size(cards) == 1` for a subset of known size);
- legal actions are enumerated by nested loops, one per parameter, and a subset parameter
  with constant size bounds becomes k nested index loops for each size k, so `any`/`all`/
  `sum`/`size`/`first` over it unroll. Each `and`-conjunct of `require` is tested at the
  shallowest loop where its names are bound (in their original order), pruning early; if a
  hoisted test raises, pruning stops and the whole `require` is evaluated where the
  interpreter would have evaluated it;
- per loop value, the state it indexes (a field, a per-cell zone) is read once, and memoised
  board expressions of it are computed once; pure domains that depend on no parameter are
  computed once per enumeration pass; defs and board expressions that read no match state are
  memoised per game;
- legal actions are interned per action and argument ids, per universe of components (see
  engine.Game.universe), so a repeated position costs no text building and no new objects; for
  a lone small subset whose require reads only its components' fields, the verdict is kept too;
- a constant loop of `create`s is computed once and added in bulk (Batch).

Statement functions return None to go on, or a signal tuple that ends the effect:
("goto", step), ("end_turn", player|None) or ("finish",).
"""
from __future__ import annotations

from .generator import Compiled, Lowerer
from .runtime import RuleFault, held_size, plain_text, player_text
from .runtime_actions import Action

__all__ = ["Action", "Compiled", "Lowerer", "RuleFault", "held_size", "plain_text", "player_text"]
