"""`str()`/`repr()` of lists, tuples, named tuples, dicts, sets and optionals, with CPython's
text (also for f-strings, `print` and `format(x)`): the elements are written with `repr`,
nested containers the same way, `()`/`(x,)`, `set()` for an empty set, `None` for an
absent optional.

Tuples (whose elements may differ in type) are written inline, element by element; lists,
dicts and sets by the functions below, written in the compiled subset and compiled on demand
for the container's type (as strlib's are), whose own `repr(x)` of an element comes back
here for a nested container. A set is written in its iteration order, which is insertion
order compiled and hash order in CPython (docs/dicts.md).
"""

from __future__ import annotations

from script.frontend.unknown import PendingElement, PendingPart, Unknown
from script.ir import types as T
from script.ir.core import Value
from script.frontend import optional


def list_text(xs) -> str:
    return "[" + ", ".join([repr(x) for x in xs]) + "]"


def var_tuple_text(xs) -> str:
    if len(xs) == 1:
        return "(" + repr(xs[0]) + ",)"
    return "(" + ", ".join([repr(x) for x in xs]) + ")"


def set_text(s) -> str:
    if len(s) == 0:
        return "set()"
    return "{" + ", ".join([repr(x) for x in s]) + "}"


def dict_text(d) -> str:
    return "{" + ", ".join([repr(k) + ": " + repr(v) for k, v in d.items()]) + "}"


# CPython's text of the collections classes compiled code holds as plain dicts and lists, where
# the source shows the class (python_classes `class_text`); repr and str are the same.

def counter_text(d) -> str:
    if len(d) == 0:
        return "Counter()"
    items = sorted(d.items(), key=lambda kv: kv[1], reverse=True)      # most_common()'s order
    return "Counter({" + ", ".join([repr(k) + ": " + repr(v) for k, v in items]) + "})"


def ordered_dict_text(d) -> str:        # Python 3.11 and before
    if len(d) == 0:
        return "OrderedDict()"
    return "OrderedDict([" + ", ".join(["(" + repr(k) + ", " + repr(v) + ")" for k, v in d.items()]) + "])"


def ordered_dict_text_312(d) -> str:    # Python 3.12 on: a dict display
    if len(d) == 0:
        return "OrderedDict()"
    return "OrderedDict(" + dict_text(d) + ")"


def defaultdict_text(d, factory: str) -> str:
    return "defaultdict(" + factory + ", " + dict_text(d) + ")"


def dict_keys_text(xs) -> str:
    return "dict_keys(" + list_text(xs) + ")"


def dict_values_text(xs) -> str:
    return "dict_values(" + list_text(xs) + ")"


def dict_items_text(xs) -> str:
    return "dict_items(" + list_text(xs) + ")"


def deque_text(xs) -> str:
    return "deque(" + list_text(xs) + ")"


def bounded_deque_text(xs, maxlen: int) -> str:
    return "deque(" + list_text(xs) + ", maxlen=" + str(maxlen) + ")"


def has_text(t: T.Type) -> bool:
    """Whether `container_text` writes a value of type `t`."""
    return isinstance(t, (T.ListType, T.TupleType, T.HashType)) and not isinstance(t, T.ClassType)


def _is_settled(t: T.Type) -> bool:
    """Whether `t` has no part still unknown in this round (an empty list's element type
    before its first store: the round is built again once it is known)."""
    todo = [t]
    while todo:
        u = todo.pop()
        if isinstance(u, (Unknown, PendingElement, PendingPart)):
            return False
        todo += _inner_types(u)
    return True


def _inner_types(t: T.Type) -> list:
    if isinstance(t, T.ClassType):
        return []                       # (an instance is not written as text here)
    if isinstance(t, T.ListType):
        return [t.elem]
    if isinstance(t, T.HashType):
        return [t.key, t.value] if isinstance(t, T.DictType) else [t.key]
    return list(t.elems) if isinstance(t, T.TupleType) else []


def container_text(self, v: Value, node, conversion: str = "s") -> Value:
    """str(v) (`conversion` "r": repr(v)) for a value `v` of a type `has_text` accepts;
    `self` is the FunctionLowering."""
    t = v.type
    if not _is_settled(t):            # a placeholder, in a round that is built again
        self.saw_unknown = self.saw_unknown or self.loc(node)
        return self.str_constant("", node)
    if isinstance(t, T.OptionalType):
        return self.choose(optional.present(self, v, node), lambda: self.str_of(optional.value_of(self, v, node), node, conversion),
                           lambda: self.str_constant("None", node), node)
    if isinstance(t, T.TupleType):
        return _tuple_text(self, v, node)
    shown = self.class_text(v, node)        # a Counter, defaultdict, OrderedDict or deque
    if shown is not None:
        return shown
    if isinstance(t, T.IterType):
        self.error(f"str() of a {t.kind} object is not supported in compiled code (CPython writes "
                   f"{'range(start, stop, step)' if t.kind == 'range' else '<' + t.kind + ' object at ...>'}, "
                   f"which the list compiled code holds cannot give); write list(...) of it", node)
    if isinstance(t, T.VarTupleType):
        return self.str_lib(var_tuple_text, [v], node)       # `tuple(xs)`: a tuple's text
    if isinstance(t, T.ListType):
        return self.str_lib(list_text, [v], node)
    if isinstance(t, T.SetType):
        return self.str_lib(set_text, [v], node)
    return self.str_lib(dict_text, [v], node)


def _tuple_text(self, v: Value, node) -> Value:
    loc = self.loc(node)
    items = [self.str_of(self.emit("extract", [v], et, k, loc), node, "r") for k, et in enumerate(v.type.elems)]
    if isinstance(v.type, T.NamedTupleType):
        from script.pyhooks.named_instance import lookup_class
        cls = lookup_class(v.type.key)
        if getattr(cls.__repr__, "__module__", None) != "collections" or cls.__str__ is not object.__str__:
            self.error(f"str() of a {cls.__name__} with its own __repr__/__str__ is not supported in "
                       "compiled code", node)
        parts = [self.str_constant(cls.__name__ + "(", node)]
        for k, (name, text) in enumerate(zip(v.type.fields, items)):
            parts += [self.str_constant((", " if k else "") + name + "=", node), text]
        return self.str_join_parts(parts + [self.str_constant(")", node)], node)
    if not items:
        return self.str_constant("()", node)
    parts = [self.str_constant("(", node)]
    for k, text in enumerate(items):
        parts += [self.str_constant(", ", node)] if k else []
        parts.append(text)
    return self.str_join_parts(parts + [self.str_constant(",)" if len(items) == 1 else ")", node)], node)
