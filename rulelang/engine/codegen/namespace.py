"""The namespace of generated code: every name the generator's templates may use besides the
game's own constants and functions, and nothing else (runtime.py, runtime_moves.py and
runtime_actions.py hold them).
"""
from __future__ import annotations

from itertools import compress

from . import runtime
from .constants import NOCONST
from .runtime import (FAULTS, ROUND_OUT, _action_text, _at, _appended, _bottom, _bottomn, _built,
                      _charge, _comp_text, _distinct, _div, _each, _eliminate, _eq, _extreme,
                      _extreme_or, _fault, _fill, _fill_cell, _first, _flat, _grown, _in, _kept, _key, _last, _logged,
                      _memo_put, _mod, _mul, _next_seat, _ord, _others, _overworked, _pick,
                      _players_from, _plus, _range, _refuse, _remaining, _removed, _reversed, _scoped, _seat, _seat_or_none, _seats, _sides,
                      _set_order, _sort_pairs, _sorted, _split, _subset_limit, _subsets,
                      _subsets_charge, _text_of, _top, _topn, _unless_false, as_items, plain_text,
                      player_text)
from .runtime_actions import _copy_ids, _mkact, _same_text, _told_apart
from .runtime_moves import _add, _add_batch, _move, _move1, _move_all, _move_zone, _over, _over_any, _zone
from ..boards import reachable
from ...ir.spec import BUILTIN_FUNCTIONS
from ...core.limits import CALL_DEPTH_LIMIT, LOOP_LIMIT

# Every name generated code may use besides the game's own constants and functions: the
# generator's templates refer to these and nothing else.
NAMESPACE = {
    "_items": as_items, "_at": _at, "_eq": _eq, "_first": _first, "_last": _last, "_top": _top, "_bottom": _bottom,
    "_topn": _topn, "_bottomn": _bottomn, "_extreme": _extreme, "_extreme_or": _extreme_or, "_action_text": _action_text,
    "_next_seat": _next_seat, "_others": _others, "_remaining": _remaining, "_players_from": _players_from,
    "_eliminate": _eliminate, "ROUND_OUT": ROUND_OUT, "_ord": _ord, "_set_order": _set_order, "_div": _div, "_mod": _mod,
    "_key": _key, "_pick": _pick, "_subsets": _subsets, "_subset_limit": _subset_limit,
    "_range": _range, "_mul": _mul, "_grown": _grown, "_kept": _kept, "_overworked": _overworked, "_each": _each, "_unless_false": _unless_false, "_scoped": _scoped, "_appended": _appended, "_removed": _removed, "_sorted": _sorted, "_split": _split, "_sort_pairs": _sort_pairs, "_move": _move, "_move1": _move1,
    "_move_zone": _move_zone, "_move_all": _move_all, "_zone": _zone, "_over": _over, "_over_any": _over_any, "_add": _add,
    "_add_batch": _add_batch, "_mkact": _mkact, "_same_text": _same_text, "_told_apart": _told_apart, "_copy_ids": _copy_ids, "_fault": _fault, "_compress": compress, "_fill": _fill, "_fill_cell": _fill_cell, "_refuse": _refuse,
    "_plain": plain_text, "_ptext": player_text, "_reachable": reachable, "_comp_text": _comp_text,
    "_ONCE": (None,), "_UNSET": NOCONST,
    "_FAULTS": FAULTS,
    # the cost model (limits.py): sizes measured where values are made, work charged where it is done
    "_plus": _plus, "_in": _in, "_logged": _logged, "_memo_put": _memo_put, "_subsets_charge": _subsets_charge,
    "_charge": _charge, "_built": _built, "_text_of": _text_of, "_distinct": _distinct, "_reversed": _reversed, "_seat": _seat, "_seats": _seats, "_seat_or_none": _seat_or_none, "_sides": _sides,
    "_flat": _flat,
    # builtins lowered generically (ir/spec.py, `Builtin.runtime`): `f(m, *args)`
    **{b.runtime: getattr(runtime, b.runtime) for b in BUILTIN_FUNCTIONS.values() if b.runtime},
    "LOOP_LIMIT": LOOP_LIMIT, "CALL_DEPTH_LIMIT": CALL_DEPTH_LIMIT, "_max": max, "_min": min,
}
