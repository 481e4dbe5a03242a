"""Typed, immutable syntax nodes; each carries the span of source it came from.

The parser builds these, the checker reads them, the compiler lowers them to IR.
Field order: `span` first, then the node's own parts.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..core.errors import Span


@dataclass(frozen=True, eq=False)
class Node:
    span: Span


# ---- types -------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class TypeRef(Node):
    name: str                           # a type's name, "list", or "or" (a union: `Card or player`)
    elem: "TypeRef | None" = None      # for list[...]
    alts: tuple = ()                    # for a union: its TypeRefs


# ---- expressions -------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class Lit(Node):
    value: Any                          # int, str, bool or None


@dataclass(frozen=True, eq=False)
class Name(Node):
    name: str


@dataclass(frozen=True, eq=False)
class Unary(Node):
    op: str                             # "-" or "not"
    operand: Node


@dataclass(frozen=True, eq=False)
class Binary(Node):
    op: str                             # + - * / % == != < <= > >= in and or ..
    left: Node
    right: Node


@dataclass(frozen=True, eq=False)
class Cond(Node):
    test: Node
    then: Node
    other: Node


@dataclass(frozen=True, eq=False)
class Attr(Node):
    obj: Node
    name: str


@dataclass(frozen=True, eq=False)
class Index(Node):
    obj: Node
    index: Node


@dataclass(frozen=True, eq=False)
class Call(Node):
    name: str
    args: tuple


@dataclass(frozen=True, eq=False)
class KwArg(Node):
    name: str
    value: Node


@dataclass(frozen=True, eq=False)
class Make(Node):
    """Kind(field: value, ...) — used by `create`."""
    kind: str
    kwargs: tuple


@dataclass(frozen=True, eq=False)
class Comprehension(Node):
    elem: Node
    var: str
    iterable: Node
    where: Node | None
    key: Node | None = None              # `by K`: the elements ordered by K (ascending, stable)
    more: tuple = ()                     # further loops `for b in ys`: (name, iterable, span), outer first


@dataclass(frozen=True, eq=False)
class Aggregate(Node):
    """sum(x.value for x in xs where ...) — a builtin applied to a comprehension."""
    name: str
    comp: Comprehension
    default: Node | None = None          # max(… for …, D) / min(…, D): D when there is no element


@dataclass(frozen=True, eq=False)
class ListLit(Node):
    items: tuple


@dataclass(frozen=True, eq=False)
class ListComp(Node):
    comp: Comprehension


@dataclass(frozen=True, eq=False)
class Can(Node):
    """`can HOOK(args) of c`: c's card has an ability for the hook whose `where` and `from` hold."""
    hook: str
    args: tuple
    card: Node


# ---- statements --------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class LValue(Node):
    name: str
    index: Node | None


@dataclass(frozen=True, eq=False)
class Move(Node):
    what: Node
    dest: Node
    position: str                        # "top", "bottom", "" (the zone's default) or "depth"
    depth: Node | None = None            # "depth" (the builtin `insert(X, ZONE, N)`): N above it


@dataclass(frozen=True, eq=False)
class Shuffle(Node):
    zone: Node


@dataclass(frozen=True, eq=False)
class Eliminate(Node):
    """`eliminate P`: P (a player or a list) is out: skipped by the turn order from now on.
    `until round_end`: for the rest of this round (`until` the period's name); `readmit P`: in again (back)."""
    who: Node
    until: str | None = None
    until_span: Span | None = None
    back: bool = False


@dataclass(frozen=True, eq=False)
class Assign(Node):
    target: LValue
    op: str                              # "=", "+=", "-="
    value: Node


@dataclass(frozen=True, eq=False)
class Append(Node):
    value: Node
    target: LValue                       # a list variable (or one entry of a per-player one) or local


@dataclass(frozen=True, eq=False)
class Remove(Node):
    value: Node
    target: LValue                       # a list variable (or one entry of one) or local: its first E goes


@dataclass(frozen=True, eq=False)
class Let(Node):
    name: str
    value: Node


@dataclass(frozen=True, eq=False)
class If(Node):
    test: Node
    then: tuple
    other: tuple


@dataclass(frozen=True, eq=False)
class For(Node):
    var: str
    iterable: Node
    body: tuple


@dataclass(frozen=True, eq=False)
class While(Node):
    test: Node
    body: tuple


@dataclass(frozen=True, eq=False)
class Resolve(While):
    """`open W(args) … then resolve s from Z { … }`, read as the loop it is: while Z holds anything,
    open the window (each player may respond, and put more on Z), then, if Z still holds anything,
    `let s = top(Z)` and the block (which takes s off Z). `name` is s (for the linter)."""
    name: str = ""


@dataclass(frozen=True, eq=False)
class Repeat(Node):
    count: Node
    body: tuple


@dataclass(frozen=True, eq=False)
class Goto(Node):
    step: str


@dataclass(frozen=True, eq=False)
class EndTurn(Node):
    to: Node | None


@dataclass(frozen=True, eq=False)
class Finish(Node):
    result: str                          # "win", "lose", "draw", or "score" (the best score wins)
    who: Node | None                     # None: everyone
    why: Node | None = None              # why the game ended, for the players (a text)


@dataclass(frozen=True, eq=False)
class CallStmt(Node):
    name: str
    args: tuple


@dataclass(frozen=True, eq=False)
class Create(Node):
    make: Make
    dest: Node
    position: str


@dataclass(frozen=True, eq=False)
class CreateFrom(Node):
    """`create Kind from "cards.yaml" in zone`: one component per row of a YAML content file
    (a row's `copies: N` makes N), the rows checked against the kind's fields."""
    kind: str
    path: str                            # as written, relative to the rule file
    path_span: Span
    dest: Node
    position: str


@dataclass(frozen=True, eq=False)
class Log(Node):
    value: Node
    to: Node | None = None               # one player (or a list of them); None: everyone


@dataclass(frozen=True, eq=False)
class CreateCards(Node):
    """`create cards Kind(field: v) where COND in zone`: the copies of every `card` declaration
    of that kind whose fields satisfy COND (its field names are in scope)."""
    kind: str
    kwargs: tuple
    where: Node | None
    dest: Node
    position: str


@dataclass(frozen=True, eq=False)
class Choose(Node):
    """`choose x in D [where C] [by P] [optional] [prompt T] { ... } [else { ... }]`: the effect
    pauses until the chooser picks; mode "one", "subset" (unordered) or "order" (ordered)."""
    var: str
    mode: str
    domain: Node
    where: Node | None
    size: Node | None
    chooser: Node | None
    optional: bool
    prompt: Node | None
    body: tuple
    other: tuple
    label: Node | None = None            # `as E`: the text an option is shown as (the var is one option)
    always: bool = False                 # `always`: asked even when one answer is forced (hides that it was)
    var_type: Any = None                 # `choose x: T in …`: the variable's declared type (a TypeRef)
    about: Node | None = None            # `about C`: the component the question is about (named to who sees it)
    repeated: tuple = ()                 # (word, value) of a clause given again (`prompt … prompt …`: W265)


@dataclass(frozen=True, eq=False)
class May(Node):
    """`may [by P] [prompt T] [about C] { ... } [else { ... }]`: a yes/no question."""
    chooser: Node | None
    prompt: Node | None
    body: tuple
    other: tuple
    about: Node | None = None
    repeated: tuple = ()
    ignored: tuple = ()                  # `always`, `optional`, `as` written on it: they change nothing (W268)


@dataclass(frozen=True, eq=False)
class Emit(Node):
    event: str
    args: tuple


@dataclass(frozen=True, eq=False)
class ResolveTriggers(Node):
    """`resolve triggers`: the triggers the running effect has set off so far run now (each an
    effect of its own, as they would when it ends), and then it goes on."""


@dataclass(frozen=True, eq=False)
class Open(Node):
    """`open WINDOW(args) [from P] [to PLAYERS] [always] [until C]`: players (those listed), in turn
    from P, respond or pass until all pass; with `always` each is asked even with nothing to respond
    with; with `until C` nobody more is asked once C holds."""
    window: str
    args: tuple
    start: Node | None
    to: Node | None = None
    always: bool = False
    until: Node | None = None


@dataclass(frozen=True, eq=False)
class RunHook(Node):
    """`run HOOK(args) of c [by P]`: c's card declaration's ability for that hook, if it has one
    (with `by`: `me` is P inside it, not the player of the effect that runs it)."""
    hook: str
    args: tuple
    card: Node
    by: Node | None = None


@dataclass(frozen=True, eq=False)
class Grant(Node):
    """`modify D(args) += E until turn_end`: E added to def D for these arguments, for a while."""
    target: str
    args: tuple
    amount: Node
    until: str


@dataclass(frozen=True, eq=False)
class Reveal(Node):
    what: Node
    to: Node | None                      # None: every player


# ---- declarations ------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class Modifier(Node):
    name: str
    value: Node | None


@dataclass(frozen=True, eq=False)
class Players(Node):
    low: int
    high: int
    ranking: tuple = ()                  # `ranked by` score, then tie-breaks (`me`: each player)


@dataclass(frozen=True, eq=False)
class OptionDecl(Node):
    name: str
    type: TypeRef
    default: Node
    choices: tuple = ()                  # `option o: ["a", "b"] = "a"`: the values it may take (else any)


@dataclass(frozen=True, eq=False)
class EnumItem(Node):
    name: str
    text: str
    about: str | None = None             # `text "…"`: its rules text, for people (shown on demand)


@dataclass(frozen=True, eq=False)
class EnumDecl(Node):
    name: str
    items: tuple


@dataclass(frozen=True, eq=False)
class TableDecl(Node):
    name: str
    entries: tuple                       # ((key expr, value expr), ...)


@dataclass(frozen=True, eq=False)
class Field(Node):
    name: str
    type: TypeRef
    default: Node | None


@dataclass(frozen=True, eq=False)
class KindDecl(Node):
    name: str
    fields: tuple
    label: Node | None
    text: Node | None = None             # `text E`: each component's rules text (its fields in scope)


@dataclass(frozen=True, eq=False)
class ZoneDecl(Node):
    name: str
    shape: str                           # "pile" or "set"
    shape_span: Span
    per: str | None                      # "player", "cell" or an unknown word (reported)
    per_span: Span | None
    modifiers: tuple
    per_board: str | None = None         # the board of `per cell of BOARD`
    more_per: tuple = ()                 # `per player per Colour`: the further (name, span, board) of a combined family


@dataclass(frozen=True, eq=False)
class BoardDecl(Node):
    name: str
    shape: str
    args: tuple
    modifiers: tuple


@dataclass(frozen=True, eq=False)
class VarDecl(Node):
    name: str
    type: TypeRef
    init: Node
    per: str | None
    per_span: Span | None
    modifiers: tuple
    per_board: str | None = None
    more_per: tuple = ()


@dataclass(frozen=True, eq=False)
class Param(Node):
    name: str
    type: TypeRef | None


@dataclass(frozen=True, eq=False)
class DefDecl(Node):
    name: str
    params: tuple | None                 # None: a named value, used without parentheses
    body: Node
    show: bool
    label: str | None = None             # `show "Label" = E`: how the screen names it
    result: Any = None                   # `def f(x): T = E`: the declared type of its value (a TypeRef)
    modifiers: tuple = ()                # `show "Label" = E, own` / `, table`: where the screen keeps it


@dataclass(frozen=True, eq=False)
class ShowDecl(Node):
    """`show "Label" = E`: a value in every player's view (`me` is the viewer), named for people.
    The checker makes it a shown def of its own (named `__showN`)."""
    label: str
    value: Node
    modifiers: tuple = ()                # `, own` (the viewer's own secrets) or `, table` (part of the table)


@dataclass(frozen=True, eq=False)
class ProcDecl(Node):
    name: str
    params: tuple
    body: tuple


@dataclass(frozen=True, eq=False)
class SetupDecl(Node):
    body: tuple


@dataclass(frozen=True, eq=False)
class ActionParam(Node):
    name: str
    mode: str                            # "one" or "subset"
    domain: Node
    size: Node | None                    # a range, for subsets


@dataclass(frozen=True, eq=False)
class ActionDecl(Node):
    name: str
    params: tuple
    require: Node | None
    body: tuple
    text: Node | None = None             # `as "drop in column " + text(c)`: the action's text, by the author
    refusal: Node | None = None          # `require C else TEXT`: why it is not legal now (no parameters)


@dataclass(frozen=True, eq=False)
class StepDecl(Node):
    name: str
    actor: Node | None
    enter: tuple
    actions: tuple
    in_turn: bool
    simultaneous: bool = False           # `step NAME simultaneous [by PLAYERS]`: answered in secret, revealed together
    reveal: tuple = ()                   # its `reveal { … }` block: runs once every answer has run


@dataclass(frozen=True, eq=False)
class OnDecl(Node):
    event: str
    body: tuple
    params: tuple | None = None          # a trigger on a declared event: its parameter names
    where: Node | None = None
    zone: str | None = None              # `on enter Z(c)` / `on leave Z(c)`: event is "enter"/"leave"


@dataclass(frozen=True, eq=False)
class SignatureDecl(Node):
    """`event NAME(params)`, `window NAME(params)` or `hook NAME(params)`."""
    what: str                            # "event", "window" or "hook"
    name: str
    params: tuple
    prompt: Node | None = None           # a window's `as E`: its question as players read it
    order: str | None = None             # a window's `order seat|first` (None: seat order)
    responses: tuple = ()                # a window's `respond NAME …` (WindowResponse), before desugaring


@dataclass(frozen=True, eq=False)
class WindowResponse(Node):
    """`respond NAME [as "TEXT"] [where C] { … }` in a window's body: a response any player asked
    may make (when C holds, `me` the player asked), with no card."""
    name: str
    text: str | None
    where: Node | None
    body: tuple


@dataclass(frozen=True, eq=False)
class AnytimeDecl(Node):
    """`anytime action …`: an action offered at every step to the player who acts there."""
    action: "ActionDecl"


@dataclass(frozen=True, eq=False)
class OrderDecl(Node):
    """`order triggers by P`: the player who picks which of several waiting triggers runs first."""
    chooser: Node


@dataclass(frozen=True, eq=False)
class EstimateDecl(Node):
    """`estimate E`: how well `me` is doing, 0 (as good as lost) to 100 (as good as won). Search
    bots score a playout they stop before the end with it."""
    value: Node


@dataclass(frozen=True, eq=False)
class SideDecl(Node):
    """`side E`: the side, team or faction `me` played, as a text (read when the game ends);
    simulation reports give win rates per side."""
    value: Node


@dataclass(frozen=True, eq=False)
class AboutDecl(Node):
    """`about "…"`, `about win "…"`, `about zone NAME "…"`…: words for the players, which the
    rulebook (`rulelang rules`) and `help ACTION` show. They change nothing in how the game runs."""
    what: str                            # game, win, setup, zone, step, action, option
    name: str | None                     # the zone, step, action or option it is about
    text: str
    name_span: Span | None = None


@dataclass(frozen=True, eq=False)
class CardField(Node):
    name: str
    value: Node


@dataclass(frozen=True, eq=False)
class Ability(Node):
    """One ability of a card. `on NAME(params)`: a hook, a trigger on an event, or a response in a
    window (told apart by what NAME declares); `replace P(params)`: instead of a call of proc P;
    `modify D(params) += E`: added to def D while the card is in play."""
    form: str                            # "on", "replace" or "modify"
    names: tuple                         # the hook/event/window, procs or def it is about
    params: tuple                        # parameter names, bound positionally
    where: Node | None
    zones: tuple | None                  # `from Z, ...`: where the card must be (None: in play)
    body: tuple                          # statements ("on", "replace")
    value: Node | None = None            # the added amount ("modify")
    zone: str | None = None              # `on enter Z(c)`, `on leave Z(c)`: names = ("enter"/"leave",)
    text: str | None = None              # `on … as "Counterattack"`: its name as players read it


@dataclass(frozen=True, eq=False)
class CardDecl(Node):
    kind: str
    name: str
    fields: tuple
    abilities: tuple
    text: str | None = None              # `text "…"`: the card's rules text, for people


@dataclass(frozen=True, eq=False)
class WhenDecl(Node):
    test: Node
    body: tuple


@dataclass(frozen=True, eq=False)
class LimitDecl(Node):
    """`turn limit N { ... }`: run the block when turn N+1 would begin."""
    count: Node
    body: tuple


@dataclass(frozen=True, eq=False)
class Game(Node):
    name: str
    decls: tuple
    sources: tuple = ()                  # ((file, text), ...) of included files, for caret lines


def walk(node):
    """Every node under `node` (declarations, statements and expressions), with an explicit stack."""
    stack = [node]
    while stack:
        x = stack.pop()
        if isinstance(x, (list, tuple)):
            stack.extend(x)
            continue
        if not isinstance(x, Node):
            continue
        yield x
        for name in x.__dataclass_fields__:
            if name != "span":
                stack.append(getattr(x, name))
