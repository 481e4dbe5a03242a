"""Validate an IR against its JSON Schema (rulelang/ir/schema.json, generated from the node table in
ir/spec.py): the one description of what an IR may hold.

Two readers share that description: a fast path, a predicate compiled from the schema (`_Quick`),
answers for the parts that are valid, which is nearly all of them; jsonschema is asked only for a part
the fast path refuses, to word the error (tests/test_quick_schema.py checks the two agree). The
semantic checks a schema cannot say (names resolve, arities, references) are `check.check_ir`, which
the engine runs on every IR before code is generated. Loading a compiled `.json` game imports this
module, never the language front end.
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import resources

from ..core.errors import Diagnostic, RuleError

IR_VERSION = 1


@lru_cache(maxsize=1)
def ir_schema() -> dict:
    return json.loads(resources.files("rulelang.ir").joinpath("schema.json").read_text(encoding="utf-8"))


_STUBS: dict[str, dict] = {"expr": {"k": "lit", "v": None}, "stmt": {"s": "goto", "step": "stub"}}


@lru_cache(maxsize=1)
def _schemas() -> dict:
    """What each validator checks: "ir" a whole IR; "expr" and "stmt" (if the schema names them) one
    expression or statement; and for each kind of expression or statement, `(part, kind)`, a node of
    that kind alone, its expressions and statements stubbed (they are validated on their own): the
    same rules as the union's case for the kind, without trying every other case first."""
    schema = ir_schema()
    out: dict = {"ir": schema}
    defs, base = schema.get("$defs", {}), schema.get("$id")
    if base and "expr" in defs and "stmt" in defs:
        for part, tag in (("expr", "k"), ("stmt", "s")):
            out[part] = {"$ref": f"{base}#/$defs/{part}"}
            for case in defs[part].get("allOf", []):
                kind = case.get("if", {}).get("properties", {}).get(tag, {}).get("const")
                if isinstance(kind, str) and "then" in case:
                    out[(part, kind)] = _shallow(case["then"], defs)
    return out


@lru_cache(maxsize=1)
def _validators() -> dict:
    """A jsonschema validator for each of `_schemas()`: the one that finds, and words, what is wrong
    (imported only then: a valid IR passes the quick checks, and jsonschema takes ~0.2 s to import)."""
    import jsonschema
    from referencing import Registry
    from referencing.jsonschema import DRAFT202012
    schema = ir_schema()
    registry = Registry().with_resource(schema["$id"], DRAFT202012.create_resource(schema)) \
        if schema.get("$id") else None
    out = {}
    for key, part in _schemas().items():
        if isinstance(key, str) and key != "ir":          # a reference into the IR schema
            out[key] = jsonschema.Draft202012Validator(part, registry=registry)
        else:
            out[key] = jsonschema.Draft202012Validator(part)
    return out


# ---- quick checks ----------------------------------------------------------------------------
# jsonschema takes ~0.3 ms a node (most of compiling a large game went there). A compiled IR is
# almost always valid, so each part is first checked by a predicate built once from the same
# schema, for the keywords the IR schema uses, with jsonschema's meaning of each; only a part that
# fails it (or that it cannot judge) goes to jsonschema, which then finds and words the errors. A
# predicate answers exactly as jsonschema would, or raises _Unsure (a float, a tuple, a subclass of
# dict: values whose JSON meaning it does not model), so it never lets through what jsonschema refuses.

class _Unsure(Exception):
    """A value the quick checks do not model: jsonschema decides."""


_JSON_TYPE = {dict: "object", list: "array", str: "string", bool: "boolean", int: "integer", type(None): "null"}
_SCALARS = (str, int, bool, type(None))            # (bool is an int to isinstance: compared by type below)
_ANNOTATIONS = frozenset({"$schema", "$defs", "$comment", "title", "description", "default", "examples",
                          "then", "else"})          # (then/else are read with their `if`)


def _json_type(x) -> str:
    t = _JSON_TYPE.get(type(x))
    if t is None:
        raise _Unsure
    return t


def _other(x) -> bool:
    """A keyword for objects (or arrays) holds for any other JSON value: True, or _Unsure."""
    if type(x) not in _JSON_TYPE:
        raise _Unsure
    return True


def _always(x) -> bool:
    return True


def _all(checks: list):
    """One predicate for a schema's keywords, all of which must hold."""
    if not checks:
        return _always
    if len(checks) == 1:
        return checks[0]

    def check(x) -> bool:
        for c in checks:
            if not c(x):
                return False
        return True
    return check


class _Quick:
    """Builds the predicate of a schema. `root` is the document `#/...` references point into, `base`
    its `$id`; a keyword or reference outside what is modelled raises NotImplementedError (then there
    is no quick check for that schema: jsonschema checks every part)."""

    def __init__(self, root: dict, base: str | None):
        self.root, self.base = root, base
        self.defs: dict = {}                            # "#/$defs/NAME" -> its predicate, once built

    def build(self, schema):
        if schema is True:
            return _always
        if schema is False:
            return lambda x: False
        if not isinstance(schema, dict) or ("$id" in schema and schema is not self.root):
            raise NotImplementedError
        checks = []
        for key, value in schema.items():
            if key in _ANNOTATIONS or (key == "$id" and schema is self.root):
                continue
            make = getattr(self, "k_" + key.lstrip("$"), None)
            if make is None:
                raise NotImplementedError(key)
            checks.append(make(value, schema))
        return _all(checks)

    def k_ref(self, ref, schema):
        if not isinstance(ref, str):
            raise NotImplementedError
        if self.base and ref.startswith(self.base + "#"):
            ref = ref[len(self.base):]
        defs = self.root.get("$defs") if isinstance(self.root, dict) else None
        if not (ref.startswith("#/$defs/") and isinstance(defs, dict) and ref[8:] in defs):
            raise NotImplementedError(ref)
        name = ref[8:]
        if name not in self.defs:
            self.defs[name] = None                      # (a definition that refers to itself)
            self.defs[name] = self.build(defs[name])
        found = self.defs

        def check(x) -> bool:
            return found[name](x)
        return check

    def k_type(self, types, schema):
        types = frozenset(types if isinstance(types, list) else [types])
        if not types <= set(_JSON_TYPE.values()) | {"number"}:
            raise NotImplementedError
        numbers = "number" in types

        def check(x) -> bool:
            t = _JSON_TYPE.get(type(x))
            if t is None:
                raise _Unsure
            return t in types or (numbers and t == "integer")
        return check

    def k_const(self, value, schema):
        return self.k_enum([value], schema)

    def k_enum(self, values, schema):
        if not isinstance(values, list) or not all(isinstance(v, _SCALARS) for v in values):
            raise NotImplementedError
        allowed = [(type(v), v) for v in values]

        def check(x) -> bool:
            if type(x) not in _JSON_TYPE:
                raise _Unsure
            for t, v in allowed:
                if type(x) is t and x == v:
                    return True
            return False
        return check

    def k_properties(self, props, schema):
        checks = [(k, self.build(v)) for k, v in props.items()]

        def check(x) -> bool:
            if type(x) is not dict:
                return _other(x)
            for k, c in checks:
                if k in x and not c(x[k]):
                    return False
            return True
        return check

    def k_required(self, names, schema):
        def check(x) -> bool:
            if type(x) is not dict:
                return _other(x)
            for k in names:
                if k not in x:
                    return False
            return True
        return check

    def k_additionalProperties(self, extra, schema):
        if "patternProperties" in schema:
            raise NotImplementedError
        known = frozenset(schema.get("properties", {}))
        c = self.build(extra)

        def check(x) -> bool:
            if type(x) is not dict:
                return _other(x)
            for k, v in x.items():
                if k not in known and (extra is False or not c(v)):
                    return False
            return True
        return check

    def k_propertyNames(self, names, schema):
        c = self.build(names)

        def check(x) -> bool:
            return _json_type(x) != "object" or all(c(k) for k in x)
        return check

    def k_items(self, items, schema):
        prefix = len(schema.get("prefixItems", []))
        c = self.build(items)

        def check(x) -> bool:
            if type(x) is not list:
                return _other(x)
            if items is False:
                return len(x) <= prefix
            for v in x[prefix:]:
                if not c(v):
                    return False
            return True
        return check

    def k_prefixItems(self, items, schema):
        checks = [self.build(v) for v in items]

        def check(x) -> bool:
            return _json_type(x) != "array" or all(c(v) for c, v in zip(checks, x))
        return check

    def _bound(self, limit, holds, kind: str):
        if type(limit) not in (int, float):
            raise NotImplementedError

        def check(x) -> bool:
            return _json_type(x) != kind or holds(x)
        return check

    def k_minimum(self, low, schema):
        return self._bound(low, lambda x: not x < low, "integer")

    def k_maximum(self, high, schema):
        return self._bound(high, lambda x: not x > high, "integer")

    def k_minItems(self, low, schema):
        return self._bound(low, lambda x: not len(x) < low, "array")

    def k_maxItems(self, high, schema):
        return self._bound(high, lambda x: not len(x) > high, "array")

    def k_maxLength(self, high, schema):
        return self._bound(high, lambda x: not len(x) > high, "string")     # (code points, as jsonschema counts)

    def k_pattern(self, pattern, schema):
        search = re.compile(pattern).search             # (jsonschema: re.search, the same engine)

        def check(x) -> bool:
            return _json_type(x) != "string" or search(x) is not None
        return check

    def k_allOf(self, schemas, schema):
        return _all([self.build(s) for s in schemas])

    def k_anyOf(self, schemas, schema):
        checks = [self.build(s) for s in schemas]
        return lambda x: any(c(x) for c in checks)

    def k_oneOf(self, schemas, schema):
        checks = [self.build(s) for s in schemas]
        return lambda x: sum(1 for c in checks if c(x)) == 1

    def k_if(self, condition, schema):
        test = self.build(condition)
        then = self.build(schema.get("then", True))
        otherwise = self.build(schema.get("else", True))
        return lambda x: then(x) if test(x) else otherwise(x)


@lru_cache(maxsize=1)
def _quick_checks() -> dict:
    """A predicate for each of `_schemas()` that the quick checks can model."""
    schema = ir_schema()
    out = {}
    for key, part in _schemas().items():
        root = schema if isinstance(key, str) else part   # ("expr"/"stmt": a reference into the IR schema)
        try:
            out[key] = _Quick(root, root.get("$id")).build(part)
        except (NotImplementedError, re.error, TypeError, AttributeError):
            pass
    return out


def _passes(check, part) -> bool:
    """Does the quick check say `part` is valid? False when it cannot tell."""
    try:
        return check is not None and check(part)
    except Exception:                    # (_Unsure, RecursionError, anything unforeseen): jsonschema decides
        return False


_SHALLOW: dict[str, dict] = {"#/$defs/expr": {"type": "object"}, "#/$defs/optexpr": {"type": ["object", "null"]},
            "#/$defs/block": {"type": "array", "items": {"type": "object"}}}


def _shallow(schema, defs: dict):
    """`schema` with its references to expressions and statements reduced to their JSON type (the
    nodes themselves are validated on their own) and any other reference written out."""
    if isinstance(schema, dict):
        ref = schema.get("$ref")
        if isinstance(ref, str) and len(schema) == 1:
            if ref in _SHALLOW:
                return dict(_SHALLOW[ref])
            if ref.startswith("#/$defs/") and ref[8:] in defs:
                return _shallow(defs[ref[8:]], defs)
        return {k: _shallow(v, defs) for k, v in schema.items()}
    if isinstance(schema, list):
        return [_shallow(v, defs) for v in schema]
    return schema


_NULL = "null"          # the role of a literal's value in _slice: copied as null


@lru_cache(maxsize=1)
def _slice_tables() -> tuple:
    """The IR tables _slice reads, built once: the kinds of expression and statement, and for each
    kind the role of each of its fields (required and optional together) by the field's type:
    expression(s), block, target, fields, _NULL for a literal's value, else "literal"."""
    from ..ir import spec as irspec
    kinds = {"expr": irspec.EXPRESSIONS, "stmt": irspec.STATEMENTS}
    type_roles = {irspec.EXPR: "expr", irspec.OPTEXPR: "expr", irspec.EXPRS: "exprs", irspec.BLOCK: "block",
                  "target": "target", "fields": "fields", irspec.LITERAL: _NULL}
    kind_roles = {role: {tag: {k: type_roles.get(t, "literal") if isinstance(t, str) else "literal"
                               for k, t in {**spec.required, **spec.optional}.items()}
                         for tag, spec in table.items() if spec is not None}
                  for role, table in kinds.items()}
    return kinds, kind_roles


# the roles of the fields of an object that is no node, by the object's role: (by name, any other)
_PLAIN_FIELD_ROLES = {"target": ({"i": "expr"}, "literal"), "fields": ({}, "expr"), "top": ({}, "top")}
_NO_ROLES: dict = {}


def _slice(doc, role: str, path: list) -> tuple:
    """A copy of `doc` in which every statement and expression below the top is a stub, and the
    parts cut out: [(role, part, its path)]. The roles of a node's
    fields come from the IR tables (irspec); above the first node (role "top") nodes are known by
    their "k" or "s". A literal's value, which the schema leaves free, is copied as null, so that
    statements differing only in literals (the rows of a content file) validate as one."""
    return _Slicer(doc, role, path).run()


class _Slicer:
    """One walk of _slice, with an explicit stack (a legal IR nests deeper than Python's recursion
    allows): each value popped is copied by its type, an object or an array pushing its children
    with their roles."""

    def __init__(self, doc, role: str, path: list):
        self.kinds, self.kind_roles = _slice_tables()
        self.stubbing = "expr" in _schemas()
        self.cuts: list = []
        self.holder: list = [None]
        self.stack: list = [(doc, role, 0, path, self.holder, 0)]

    def run(self) -> tuple:
        stack = self.stack
        while stack:
            x, role, depth, where, parent, key = stack.pop()
            if isinstance(x, dict):
                self.object(x, role, depth, where, parent, key)
            elif isinstance(x, list):
                self.array(x, role, depth, where, parent, key)
            else:
                parent[key] = x
        return self.holder[0], self.cuts

    def object(self, x: dict, role: str, depth: int, where: list, parent, key) -> None:
        """An object: a node below the top is cut out (a stub in its place); else copied, a
        literal's value as null, each field's value pushed with the role its kind gives it."""
        if role == "top":
            k, st = x.get("k"), x.get("s")
            role = "expr" if isinstance(k, str) and k in self.kinds["expr"] else \
                "stmt" if isinstance(st, str) and st in self.kinds["stmt"] else "top"
        named, other = _PLAIN_FIELD_ROLES.get(role, (_NO_ROLES, "literal"))
        if role in ("expr", "stmt"):
            if self.stubbing and depth > 0:
                self.cuts.append((role, x, where))
                parent[key] = dict(_STUBS[role])
                return
            tag = x.get("k" if role == "expr" else "s")
            roles = self.kind_roles[role].get(tag) if isinstance(tag, str) else None
            if roles is not None:                 # a node of a known kind
                named, other = roles, "literal"
        copy: dict = {}
        parent[key] = copy
        push = self.stack.append
        for k, v in x.items():
            child = named.get(k, other)
            copy[k] = None if child is _NULL else v
            if child is not _NULL and isinstance(v, (dict, list)):
                push((v, child, depth + 1, where + [k], copy, k))

    def array(self, x: list, role: str, depth: int, where: list, parent, key) -> None:
        """An array: a block's statements are cut out (stub_block); other items pushed, with the
        role of the array's elements."""
        items = list(x)
        parent[key] = items
        child = {"exprs": "expr", "block": "stmt", "top": "top"}.get(role, "literal")
        if child == "top" and x and all(isinstance(v, dict) and isinstance(v.get("s"), str)
                                        and v["s"] in self.kinds["stmt"] for v in x):
            child = "stmt"                   # a block of the top level (setup, a step's enter ...)
        if child == "stmt" and self.stubbing:
            self.stub_block(x, where, items)
            return
        for i, v in enumerate(x):
            if isinstance(v, (dict, list)):
                self.stack.append((v, child, depth + 1, where + [i], items, i))

    def stub_block(self, x: list, where: list, items: list) -> None:
        """Every statement of a block is cut out; the block (an array the schema puts no bound on)
        keeps one stub for them all, so 100,000 rows are not 100,000 stubs to validate."""
        self.cuts.extend(("stmt", v, where + [i]) for i, v in enumerate(x) if isinstance(v, dict))
        if all(isinstance(v, dict) for v in x):
            items[:] = [dict(_STUBS["stmt"])] if x else []
        else:                    # (something not even an object: keep the places, for the error's path)
            items[:] = [dict(_STUBS["stmt"]) if isinstance(v, dict) else v for v in x]


def validate_ir(ir: dict, file: str = "<ir>") -> None:
    """Raise RuleError if `ir` does not match the schema (e.g. a hand-edited or foreign JSON file).

    jsonschema validates by recursion, about ten Python frames per level of the document, and a
    legal IR nests up to IR_DEPTH_LIMIT levels; so the document is validated a node at a time
    (its expressions and statements stubbed, then validated on their own), each expression or
    statement by the schema's case for its kind (an unknown kind by the whole union, which says
    so), and alike nodes once."""
    schemas, quick = _schemas(), _quick_checks()
    found: list = []
    seen: set = set()                                  # parts already validated, as JSON text
    work: list = [("ir", ir, [])]
    try:
        while work and len(found) < 5:
            role, doc, path = work.pop()
            part, cuts = _slice(doc, "top" if role == "ir" else role, path)
            work.extend(reversed(cuts))
            tag = part.get("k" if role == "expr" else "s") if isinstance(part, dict) else None
            key: str | tuple = role
            if role in ("expr", "stmt") and isinstance(tag, str) and (role, tag) in schemas:
                key = (role, tag)                      # (an unknown kind: the union says so)
            if _passes(quick.get(key), part):
                continue                               # valid: jsonschema would find nothing
            if role != "ir":
                text = json.dumps(part, sort_keys=True, default=repr)
                if (role, text) in seen:
                    continue
                seen.add((role, text))
            for e in _validators()[key].iter_errors(part):
                found.append((path + list(e.absolute_path), e.message))
    except RecursionError:
        found.append(([], "it is nested too deeply to validate"))
    if found:
        diags = []
        for where, message in sorted(found, key=lambda f: [str(p) for p in f[0]])[:5]:
            where = "/".join(str(p) for p in where) or "(root)"
            if len(message) > 200:                   # the message quotes the offending value
                message = message[:200] + "…"
            diags.append(Diagnostic("E301", f"IR does not match its schema at {where}: {message}", None))
        raise RuleError(diags)
