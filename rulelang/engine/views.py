"""What a seat may see: `view(p)`, the log and the messages for a seat, and the words they are in.

Part of `Match` (match.py): a mixin sharing its state."""
from __future__ import annotations

import operator
import re

from typing import TYPE_CHECKING

from .chance import aside
from .codegen import plain_text, player_text
from .codegen.effects import HIDDEN_ABILITY, known_to, seen_by, seen_by_all
from ..core.errors import RuleFault, RuleRuntimeError
from ..core.limits import WORK_LIMIT
from ..core.textsafe import printable
from .support import RULE_FAULTS, SECRET_CHOICE
from .visibility import counts, sees
from .parts import MatchParts

if TYPE_CHECKING:
    from collections.abc import Sequence

    from .boards import Geometry

def without_internal(view: dict) -> dict:
    """A view without what the rules keep `internal` (bookkeeping: in the view for programs, off
    every screen): its zones and values, and those on the board's cells and of components."""
    internal = set(view.get("internal") or ())
    if not internal:
        return view
    out = dict(view)
    out["zones"] = [z for z in view["zones"] if not z.get("internal")]
    out["values"] = [v for v in view["values"] if not v.get("internal")]
    out["cells"] = {cell: {k: x for k, x in held.items() if k not in internal}
                    for cell, held in (view.get("cells") or {}).items()}
    out["cells"] = {cell: held for cell, held in out["cells"].items() if held}
    out["component_values"] = {c: {k: x for k, x in vals.items() if k not in internal}
                               for c, vals in (view.get("component_values") or {}).items()}
    out["component_values"] = {c: vals for c, vals in out["component_values"].items() if vals}
    if "component_texts" in view:
        out["component_texts"] = {c: {k: x for k, x in vals.items() if k not in internal}
                                  for c, vals in view["component_texts"].items()}
    if "cell_texts" in view:
        out["cell_texts"] = {c: {k: x for k, x in vals.items() if k not in internal}
                             for c, vals in view["cell_texts"].items()}
    if "cell_vars" in view:
        out["cell_vars"] = {k: x for k, x in view["cell_vars"].items() if k not in internal}
    if "cell_var_texts" in view:
        out["cell_var_texts"] = {k: x for k, x in view["cell_var_texts"].items() if k not in internal}
    if "cell_texts" in out:                              # (cells with nothing left: not listed)
        out["cell_texts"] = {c: vals for c, vals in out["cell_texts"].items() if vals}
    return out


_TEXTING: set = set()      # (match, component) whose text is being computed: a text reading itself stops


def _index_below(x, count: int) -> int | None:
    """`x` as a whole number from 0 to count - 1 (a NumPy integer too; never a bool), or None."""
    try:
        i = operator.index(x) if not isinstance(x, bool) else None
    except TypeError:
        return None
    return i if i is not None and 0 <= i < count else None


def seat_index(player, players: int) -> int:
    """A seat given to the API, or a ValueError that says there is no such player (`view(None)`
    was a bare TypeError, a new author's trial)."""
    seat = _index_below(player, players)
    if seat is None:
        named = str(player).strip().upper()
        if isinstance(player, str) and named[:1] == "P" and named[1:].isdigit() and len(named) < 8:
            # (a seat as the browser's links and the screen name it: a new author passed "P1")
            raise ValueError(f"no player {player!r}: the API numbers seats from 0 ({named} is "
                             f"{int(named[1:]) - 1})")
        raise ValueError(f"no player {player!r} in a {players}-player match")
    return seat


def component_index(c, count: int) -> int:
    """A component id given to the API, or a ValueError that says there is none (`rules_text(-1)`
    read the last one, `rules_text(10**6)` was an internal error: a fuzzer's trial)."""
    i = _index_below(c, count)
    if i is None:
        raise ValueError(f"no component {c!r} in this match (ids 0 to {count - 1})")
    return i


_SEAT_PREFIX = re.compile(r"P[1-9][0-9]*: ")


def _secret(text: str) -> str:
    """A log entry a reader may not read: `(a secret choice)`, after whose it was (`P2: `)."""
    seat = _SEAT_PREFIX.match(text)
    return seat.group(0) + SECRET_CHOICE if seat else SECRET_CHOICE


class MatchViews(MatchParts):
    """What each seat may see and read."""

    def visible_to(self, player: int) -> set:
        """The components `player` may see now (public zones, their own, revealed to them)."""
        player = seat_index(player, self.players)
        return self._seen_by(player)

    def copies(self) -> dict:
        """Each component that has copies (one kind, the same label and fields) -> the ids of all of
        them, itself included: which of them a hand played is the engine's pick (docs/engine.md,
        "Copies played from a hidden zone"), so a front end that judges what a seat learnt counts
        them as one."""
        from .codegen.runtime_actions import copy_classes
        return copy_classes(self)

    def visible_to_all(self) -> set:
        """The components anyone watching the table may see now: in public zones (a top-only pile's
        top) or revealed to all (`reveal X`), while they stay where they were shown. Not a card a
        player sees as its owner, nor one shown to some players only — even where between them
        every seat sees it (of two players, one shown the other's hand; the one seat of a solo game)."""
        return seen_by_all(self)

    def _seen_by(self, player: int) -> set:
        """The components `player` may see now."""
        seen = set(known_to(self, player)) if self.known else set()
        for z, value in zip(self.game.zones, self.Z):
            if z["visibility"] == "public":
                for zl in (value if z["per"] else [value]):
                    seen.update(zl[-1:] if z.get("top") else zl)
            elif z["visibility"] == "owner" and z["per"] == "player":
                seen.update(value[player])
            elif z["visibility"] == "owner" and z["per"] == "key":
                for member, zl in enumerate(value):
                    if self.game.member_owner(z, member, self.players) == player:
                        seen.update(zl)
            elif z["visibility"] == "others" and z["per"] in ("player", "key"):
                for member, zl in enumerate(value):
                    if sees("others", self.game.member_owner(z, member, self.players), player):
                        seen.update(zl)
        return seen

    def log_for(self, player: int | None) -> list[str]:
        """The log (actions and answers, in order) as `player` may read it: an answer naming a
        component that player could not see when it was chosen reads "(a secret choice)".
        None: as everyone may read it (a spectator)."""
        if player is not None:
            player = seat_index(player, self.players)
        private = self.private
        if not private:
            return list(self.log)
        # (whose answer it was stays: a simultaneous step's `P2: bid 3`, an out-of-turn `P3: …`, reads
        # `P2: (a secret choice)`, as the terminal and the browser show it — who answers is no secret)
        return [_secret(text) if i in private and (player is None or player not in private[i]) else text
                for i, text in enumerate(self.log)]

    def message_log(self) -> list[dict]:
        """Every message so far, in order: {"to": None (everyone) or [players], "text": …}."""
        return [{"to": None, "text": x} if isinstance(x, str) else {"to": list(x["to"]), "text": x["text"]}
                for x in self.messages]

    def messages_for(self, player: int | None) -> list[str]:
        """The messages `player` may read: everyone's, and those sent to them (`log … to`). None:
        everyone's alone (a spectator's, as `log_for(None)`: a new author's check raised there)."""
        if player is None:
            return [x for x in self.messages if isinstance(x, str)]
        player = seat_index(player, self.players)
        return [x if isinstance(x, str) else x["text"] for x in self.messages
                if isinstance(x, str) or player in x["to"]]

    def shown(self, player: int) -> list[dict]:
        """The rules' `show` values as `player` sees them: the entries `view(player)["values"]` has
        for them (one with an `"error"` for a value that failed), without the cost of the rest."""
        player = seat_index(player, self.players)
        self.work = WORK_LIMIT
        values: list = []
        saved, self.me = self.me, player
        try:
            self._view_shown(values)
        finally:
            self.me = saved
        return values

    @aside
    def view(self, player: int, drawing: bool = True) -> dict:
        """What `player` sees (docs/engine.md). `drawing=False`: without the board's text drawing
        (`"board": None`), which a program reading the cells needs not pay for (an agent's
        observation: the drawing was 28 % of an adapter's step on a board game — a researcher's trial)."""
        player = seat_index(player, self.players)
        self.work = WORK_LIMIT                      # shown defs may loop too
        game = self.game
        geometry = game.geometry
        zones, cells, seen = self._view_zones(player)
        saved = self.me
        try:
            cell_texts: dict = {}
            cell_vars: dict = {}
            cell_var_texts: dict = {}
            values, component_values, value_texts = self._view_values(player, seen, cells, cell_texts, cell_vars,
                                                                      cell_var_texts)
            self.me = player
            self._view_shown(values)
            drawn = self._drawing(player) if geometry is not None and drawing else None
        except RULE_FAULTS + (RuleFault,) as err:
            raise self._rule_error("computing a view", err) from None
        finally:
            self.me = saved
        return {"game": game.name, "players": self.players, "viewer": player,
                "actor": self.current_player if self.simul is None else self._simul_actor(player), "turn_player": self.current, "step": self.step,
                "turn": self.turn_count, "zones": zones, "values": values, "cells": cells,
                "component_values": component_values, "board": drawn, "over": self.is_over,
                **({"component_texts": value_texts} if value_texts else {}),
                **({"cell_texts": cell_texts} if cell_texts else {}),
                **({"cell_vars": cell_vars} if cell_vars else {}),
                **({"cell_var_texts": cell_var_texts} if cell_var_texts else {}),
                **({"internal": sorted(self._internal_names())} if self._internal_names() else {}),
                "outcome": self.result, **self._choice_view(player),
                **({"round": self.seq[0], "turn_order": list(self.seq[1]),
                    "eliminated": [p for p in range(self.players) if self.seq[2][p]],
                    **({"out_this_round": [p for p in range(self.players) if self.seq[2][p] == "round"]}
                       if "round" in self.seq[2] else {})} if game.sequenced else {})}

    def _view_zones(self, player: int) -> tuple[list, dict, list]:
        """The zones as `player` sees them, what lies on the board's cells, and the components seen."""
        game = self.game
        zones = []
        cells: dict = {}
        seen: list[int] = []                       # the components this player may see
        known = known_to(self, player) if self.known else {}
        for z in game.zones:
            name, vis = z["name"], z["visibility"]
            value = self.Z[game.zone_slot[name]]
            if z["per"] == "cell":
                self._view_cell_zone(z, value, cells, seen, known)
                continue
            owners: Sequence[int | None]
            if z["per"] == "component":            # one zone per component: those holding something
                owners = [c for c, items in enumerate(value) if items]
            else:
                owners = range(len(value)) if z["per"] else [None]
            keyed = z["per"] == "key"
            members = game.members(z["key"], self.players) if keyed else None
            top_only = z.get("top")
            for owner in owners:
                items = value[owner] if owner is not None else value
                if top_only and items:                 # a pile showing only its top: the rest unseen
                    seen.append(items[-1])
                    zones.append(self._view_top_only(z, owner, items))
                    continue
                member = owner
                if keyed:
                    owner = game.member_owner(z, member, self.players)  # type: ignore[arg-type]  # (keyed: an index)
                visible = sees(vis, owner, player)
                if visible:
                    seen.extend(items)
                kind = game.zone_kind[name]
                if visible and items:                  # what is seen: its kinds are no secret
                    kinds = {self.kinds[c] for c in items}
                    kind = kinds.pop() if len(kinds) == 1 else None
                entry = {"name": name, "owner": owner, "visibility": vis, "ordered": z["ordered"],
                         "count": len(items) if counts(z, owner, player) else None, "kind": kind,
                         "cards": [{"id": c, "label": self.labels[c]} for c in items] if visible else None}
                if z.get("uncounted"):             # (its size hidden from who cannot see into it)
                    entry["uncounted"] = True
                if z["per"] == "component":        # (its owner is a component: say which, if it is seen: below)
                    entry["owner"] = None
                    entry["of"] = {"id": owner, "label": self.labels[owner]}  # type: ignore[index]  # (a component id)
                elif keyed:                        # one of a family per enum value(s): which
                    entry["key"] = list(members[member])      # type: ignore[index]  # (keyed: listed above)
                    entry["key_text"] = game.member_text(z["key"], members[member])  # type: ignore[index]
                if not visible and known:
                    shown = [{"id": c, "label": self.labels[c],        # (revealed: to everyone)
                              **({"revealed": True} if self.known[c].to == "all" else {})}
                             for c in items if c in known]
                    if shown:                      # revealed to this player (`reveal`, `look`)
                        entry["known"] = shown
                        seen.extend(x["id"] for x in shown)
                        kinds = {self.kinds[c] for c in items}
                        if len(kinds) == 1 and len(shown) == len(items) and all(x.get("revealed") for x in shown):
                            entry["kind"] = kinds.pop()    # (all revealed to everyone: their kind is no secret)
                if z.get("internal"):              # bookkeeping: off the screen, not out of the view
                    entry["internal"] = True
                zones.append(entry)
        if game.component_zones:                   # a zone of a component this player cannot see: not whose
            seen_now = set(seen)
            for entry in zones:
                if "of" in entry and entry["of"]["id"] not in seen_now:
                    entry["of"] = {"id": None, "label": "a hidden component"}
        return zones, cells, seen

    def _view_cell_zone(self, z: dict, value: list, cells: dict, seen: list, known: dict | None = None) -> None:
        """A zone per cell: what lies on each cell (labels where public, or where every piece there was
        revealed to this player — a new author's Codenames key, shown to the spymasters, read `key: 1`
        — else how many)."""
        names, vis = self.game.geometry.names, z["visibility"]  # type: ignore[union-attr]  # (a cell: a board)
        for cell, items in enumerate(value):
            if items:
                visible = (items[-1:] if z.get("top") else items) if vis == "public" else None
                if visible is None and known and all(c in known for c in items):
                    visible = items
                shown = [self.labels[c] for c in visible] if visible is not None else None
                if visible is not None:
                    seen.extend(visible)
                cells.setdefault(names[cell], {})[z["name"]] = shown if shown is not None else len(items)

    def _view_top_only(self, z: dict, owner, items: list) -> dict:
        """A pile that shows only its top component, to everyone."""
        game, name = self.game, z["name"]
        entry = {"name": name, "owner": owner, "visibility": z["visibility"], "ordered": True, "count": len(items),
                 "kind": game.zone_kind[name], "top_only": True,
                 "cards": [{"id": items[-1], "label": self.labels[items[-1]]}]}
        if z["per"] == "key":
            entry["key"] = list(game.members(z["key"], self.players)[owner])
            entry["key_text"] = game.member_text(z["key"], entry["key"])
            entry["owner"] = game.member_owner(z, owner, self.players)
        elif z["per"] == "cell" or z["per"] == "component":
            entry["owner"] = None
        if z.get("internal"):      # bookkeeping: off the screen, not out of the view
            entry["internal"] = True
        return entry

    def _view_values(self, player: int, seen: list, cells: dict, cell_texts: dict,
                     cell_vars: dict, cell_var_texts: dict) -> tuple[list, dict, dict]:
        """The variables `player` may see: per-player ones with the others' hidden, per-component and
        per-cell ones where they differ from their initial value (into `cells`; those that name
        something, in words, into `cell_texts`; each per-cell one's name and initial value into
        `cell_vars`: what in `cells` is no zone, and what a cell not listed holds — in words, where
        it names something, into `cell_var_texts`)."""
        game = self.game
        geometry: Geometry = game.geometry  # type: ignore[assignment]  # (read only for a cell: a board)
        values: list = []
        component_values: dict = {}
        value_texts: dict = {}                     # (those that name something: in words)
        seen_set = set(seen)
        internal = self._internal_names()
        for name, per, vis, init in game.vars:
            if vis == "hidden" or (vis != "public" and per not in ("player", "key")):
                continue                           # (`owner`, `others`: only a player's own value has an owner)
            value = self.V[game.var_slot[name]]
            how = game.var_how.get(name)
            held = "comps" if name in game.var_comp_lists else how     # (how its value's ids are seen)
            # (per component and per cell too: a card held there that the viewer cannot see is no id —
            # `mate 5` against `mate 0` told which hidden card another player had picked)
            if per == "component":                 # visible components whose value is not the initial one,
                initial = next(v for slot, v in self.comp_defaults if slot == game.var_slot[name])
                of = None if name in internal else self._listed_kind(name)   # every one of its kind
                kinds = self.kinds
                for c in seen:
                    if value[c] != initial or kinds[c] == of:
                        component_values.setdefault(str(c), {})[name] = self._seen_value(held, value[c], seen_set)
                        if how is not None:        # (in words: `Elm (mate Oak)`, not an id)
                            value_texts.setdefault(str(c), {})[name] = self._words(how, value[c], seen_set)
                continue
            if per == "cell":                      # only the cells that differ from the initial value
                initial = init(self)
                cell_vars[name] = self._seen_value(held, initial, seen_set)
                if how is not None:                # (`P1`, not 0, where a cell is back to it)
                    cell_var_texts[name] = self._words(how, initial, seen_set)
                for cell, v in enumerate(value):
                    if v != initial:
                        cells.setdefault(geometry.names[cell], {})[name] = self._seen_value(held, v, seen_set)
                        if how is not None:        # (`P2`, not 1: the terminal says each change)
                            cell_texts.setdefault(geometry.names[cell], {})[name] = self._words(how, v, seen_set)
                continue
            if per == "key":                       # per enum value(s): each member named
                key = game.var_keys[name]
                owner_at = key.index("player") if "player" in key else None
                row: list = []
                for parts, v in zip(game.members(key, self.players), value):
                    shown = vis == "public" or (owner_at is not None and sees(vis, parts[owner_at], player))
                    member = {"key": list(parts), "key_text": game.member_text(key, parts),
                              "value": self._seen_value(held, v, seen_set) if shown else None}
                    if how is not None and shown:
                        member["text"] = self._words(how, v, seen_set)
                    row.append(member)
                values.append({"name": name, "per_key": row, **({"internal": True} if name in internal else {})})
                continue
            if per:
                row = [self._seen_value(held, v, seen_set) if sees(vis, p, player) else None
                       for p, v in enumerate(value)]
                entry = {"name": name, "per_player": row}
                if how is not None:                # "P2", a card's label: what the value is, in words
                    entry["texts"] = [None if not sees(vis, p, player) or v is None
                                      else self._words(how, v, seen_set) for p, v in enumerate(value)]
            else:
                entry = {"name": name, "value": self._seen_value(held, value, seen_set)}
                if how is not None:
                    entry["text"] = self._words(how, value, seen_set)
            if name in internal:                   # bookkeeping: off the screen, not out of the view
                entry["internal"] = True
            values.append(entry)
        return values, component_values, value_texts

    def _listed_kind(self, name: str) -> str | None:
        """The kind of whose components a `var … per KIND` that is not `internal` is listed in full
        (a die's face shows even while it is the initial one); None: only where it changed."""
        kinds = self.game.__dict__.get("_listed_kinds")
        if kinds is None:
            kinds = self.game.__dict__["_listed_kinds"] = {
                v["name"]: v.get("of") for v in self.game.ir["vars"] if v["per"] == "component"}
        return kinds.get(name)

    def _internal_names(self) -> frozenset:
        """The zones and variables the rules mark `internal` (bookkeeping: kept off the screen)."""
        names = self.game.__dict__.get("_internal_names")
        if names is None:
            ir = self.game.ir
            names = self.game._internal_names = frozenset(
                x["name"] for x in ir["zones"] + ir["vars"] if x.get("internal"))
        return names

    def _view_shown(self, values: list) -> None:
        """The `show` values, computed for `me` (the viewer), added to `values`."""
        game = self.game
        labels = game.code.labels
        for name, fn, how, to_text in game.shown:
            error = None
            try:
                value = fn(self)
                if how.startswith("list:"):       # a list: each element's text (the screen lays them out)
                    inner = how[5:]
                    shown = [self._plain(v) if inner == "plain" else to_text(self.labels, [v]) for v in value]
                else:
                    shown = self._plain(value) if how == "plain" else to_text(self.labels, value)
            except RULE_FAULTS + (RuleFault,) as err:
                # one broken line of the screen: the rest of the view, and the match, go on
                failure = self._rule_error(f"computing `show {labels.get(name, name)}`", err)
                if not isinstance(failure, RuleRuntimeError):
                    raise failure from None
                shown, error = None, str(failure)   # (one budget for every value: the next ones
                                                    # fail at once once it is spent)
            if name in labels:                 # `show "Label" = E`: named as the rules say
                values.append({"name": labels[name], "value": shown, "label": True})
            else:
                values.append({"name": name, "value": shown})
            if error is not None:
                values[-1]["error"] = error
            place = game.ir["defs"][name].get("place")
            if place:                          # `, own` (the viewer's own secrets) or `, table`
                values[-1][place] = True

    def _choice_view(self, player: int) -> dict:
        """What a player sees of a paused effect: who must choose what, and what is running. The
        options are the chooser's alone (they may name cards only the chooser can see)."""
        if self.simul is not None and self.result is None:
            return self._simul_view(player)
        if self.pending is None or self.result is not None:
            return {}
        q = self.pending["question"]
        running = []
        for f in q["stack"]:
            source = f.get("source")
            if source is not None and not seen_by(self, source, player):    # a card this player cannot see
                f = {**f, "effect": HIDDEN_ABILITY, "source": None}
            running.append(dict(f))
        choice = {"chooser": q["chooser"], "prompt": q["prompt"], "kind": q["kind"],
                  "options": list(q["options"]) if player == q["chooser"] else None,
                  "running": running}
        asker = q.get("asker")
        if asker is not None and seen_by(self, asker, player):     # the card whose ability asks, if seen
            choice["asker"] = {"source": asker, "label": self.labels[asker]}
        if q.get("picked") and player == q["chooser"]:    # a subset or order being picked: the picks so far
            choice["picked"] = list(q["picked"])
        if "also" in q:                # a window answered first: who else may answer, and this seat's answers
            choice["also"] = [seat for seat, _ in q["also"]]
            choice["options"] = choice["options"] or self._also(player) or None
        return {"choice": choice}

    def zone_ids(self) -> dict:
        """Every zone list of this match by id, with its (capacity, name) or None: for the targets
        of `move` and `shuffle` that the rules compute at run time."""
        if self._zone_ids is None:
            ids: dict = {}
            for z, value, cap in zip(self.game.zones, self.Z, self.game.slot_caps):
                for zl in (value if z["per"] else [value]):
                    ids[id(zl)] = cap
            self._zone_ids = ids
        return self._zone_ids

    @aside
    def cell_drawing(self, player: int, cell: str) -> str | None:
        """What the board's drawing shows on one cell (named as the board names it) for `player`: the
        rules' `draw` def there, as `view(player)["board"]` draws it (`^`); None without a `draw` def
        or with no such cell. (`look f6` at the terminal said "mount: yes", never the `^` drawn there
        nor what the board's key says of it — a first hour.)"""
        player = seat_index(player, self.players)
        game = self.game
        g = game.geometry
        if g is None or game.draw is None or not isinstance(cell, str) or cell not in g.names:
            return None
        width = g.cell_width if "cell_width" in game.ir["boards"][0] else None
        saved, self.me, self.work = self.me, player, WORK_LIMIT
        try:
            return printable(plain_text(game.draw(self, list(g.names).index(cell))))[:width]
        except RULE_FAULTS + (RuleFault,) as err:
            raise self._rule_error("computing a view", err) from None
        finally:
            self.me = saved

    def _drawing(self, player: int) -> str:
        game = self.game
        g: Geometry = game.geometry  # type: ignore[assignment]  # (drawn only with a board)
        if game.draw is not None:
            draw = game.draw
            # (with `cell_width N` a longer text is cut: it would push the cells after it out of line)
            width = g.cell_width if "cell_width" in game.ir["boards"][0] else None
            return g.draw(lambda cell: printable(plain_text(draw(self, cell)))[:width])   # the line breaks are ours
        cell_zones = [game.zone_slot[z["name"]] for z in game.zones
                      if z["per"] == "cell" and z["visibility"] == "public" and not z.get("internal")]

        def glyph(cell):
            for slot in cell_zones:
                items = self.Z[slot][cell]
                if items:
                    return printable(self.labels[items[-1]][:g.cell_width])
            return "." if g.kinds[cell] == g.kinds[0] else "·"
        return g.draw(glyph)

    def _words(self, how: str, v, seen: set) -> str:
        """A variable's value in words for a view: a player's name, a cell's, an enum value's text,
        a component's label if the viewer can see the component (else "a hidden component")."""
        if v is None:
            return "none"
        if how.startswith("list:") and isinstance(v, (list, tuple)):
            return ", ".join(self._words(how[5:], x, seen) for x in v) if v else "empty"
        if how == "comp":
            return self.labels[v] if v in seen else "a hidden component"
        if how == "player":
            return player_text(v)
        if how == "cell":
            return self.game.geometry.names[v] if self.game.geometry is not None else plain_text(v)
        if how.startswith("enum:"):
            return self.game.lowerer.enum_text.get(how[5:], {}).get(v, plain_text(v))
        return plain_text(v)

    def _seen_value(self, how, v, seen: set):
        """A variable's value as a view shows it: a component the viewer cannot see is no id (ids
        follow the order components were made in, and could tell which card it is), only None."""
        if how == "comp" and v is not None and v not in seen:
            return None
        if how == "comps" and isinstance(v, list):     # a list of components: the unseen as None
            return [x if x in seen else None for x in v]
        if isinstance(how, str) and how.startswith("list:") and isinstance(v, (list, tuple)):
            return [self._seen_value(how[5:], x, seen) for x in v]     # (lists of lists: a review's `[[0]]`)
        return self._plain(v)

    @staticmethod
    def _plain(v):
        return list(v) if isinstance(v, list) else v

    @aside
    def rules_text(self, c: int, player: int | None = None) -> str | None:
        """Component c's rules text for people: its card declaration's `text "…"` first, then its
        kind's `text E` (computed with `me` the player asking), as paragraphs; None when the rule
        file gives none. A seat that is no player, or an id that is no component: ValueError."""
        c = component_index(c, len(self.labels))
        player = seat_index(player, self.players) if player is not None else None
        saved, self.me, self.work = self.me, player if player is not None else self.me, WORK_LIMIT
        try:
            return self.component_text(c)
        except RULE_FAULTS + (RuleFault,) as err:
            raise self._rule_error("computing a component's text", err) from None
        finally:
            self.me = saved

    def rules_texts(self, ids, player: int | None = None) -> list:
        """The rules texts of many components (the rulebook's list of them) sharing one work budget:
        a fuzzer's 10,000 costly texts, each with a budget of its own, took some 12 minutes. A text
        that fails, and every text once the budget is spent, is None."""
        ids = [component_index(c, len(self.labels)) for c in ids]
        player = seat_index(player, self.players) if player is not None else None
        saved, self.me, self.work = self.me, player if player is not None else self.me, WORK_LIMIT
        out: list = []
        try:
            for c in ids:
                if self.work < 0:
                    out.append(None)
                    continue
                try:
                    out.append(self.component_text(c))
                except RULE_FAULTS + (RuleFault,):
                    out.append(None)
        finally:
            self.me = saved
        return out

    def component_text(self, c: int) -> str | None:
        """Component c's card text, then its kind's text (with `me` as it is now; the work it does
        is charged to whatever reads it: `rules_text(c)` in the rules). None: it has none."""
        kind = self.kinds[c]
        fields = self._fields(c, kind)
        cards = self.game.__dict__.get("_card_texts")
        if cards is None:
            cards = self.game._card_texts = {(d["kind"], d["name"]): d["text"]
                                             for d in self.game.ir.get("cards", []) if "text" in d}
        own = cards.get((kind, fields["card"])) if fields.get("card") else None
        fn = self.game.code.defs.get("__text_" + kind)
        if fn is None:
            return own
        key = (id(self), c)
        if key in _TEXTING:                         # its text reads its own text
            raise RuleFault(f"the text of {self.labels[c]} reads itself (`rules_text`)")
        _TEXTING.add(key)
        try:
            value = fn(self, c)
        finally:
            _TEXTING.discard(key)
        value = value if isinstance(value, str) else plain_text(value)
        if own and value:
            return own + "\n\n" + value
        return own or value or None
