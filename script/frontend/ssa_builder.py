"""SSA construction straight from the AST (Braun et al. 2013), with types decided as it goes.

Each Python local variable has a current definition per block. Reading a variable in a block
with one predecessor recurses into it; in a block with several it creates a block parameter
(the phi) whose arguments are filled in when the block is sealed, i.e. when all its
predecessors are known. Loop headers stay unsealed until their back edges exist. Parameters
whose arguments are all the same value (or the parameter itself) are removed at once.

Types: every value is typed when it is made. At a merge, a parameter takes the unified type of
its incoming values and the compiler converts each argument (int flowing into a float merge is
converted in its predecessor). A loop header's parameter is typed from the values known when it
is created; if a back edge later brings a wider type, the builder records a *hint* (this
variable at this loop is a float) and raises `Restart`; the driver rebuilds the function with
the hints, which only widen, so this ends after a few rounds.

Possibly-unassigned variables: each local `x` has a shadow bool variable ``$def:x``; a read of
`x` whose shadow is not the constant true emits a `check` that raises UnboundLocalError, so a
read on the path where Python would fail fails the same way. A read that no assignment of a
known type reaches at all (its value has the unknown type once the types have settled) always
fails: it becomes a `raise`, and the rest of its statement is built in a dead block.
"""

from __future__ import annotations

import re

from script.errors import CompileError, SourceLoc
from script.ir import types as T
from script.ir.core import Block, BlockParam, Const, Function, Instr, Value, replace_all_uses_with, set_terminator
from script.ir.ops import ExcInfo
from script.frontend.int_consts import U64_MERGE_TEXT
from script.frontend.unknown import UNKNOWN, Restart, Undef, Unknown, has_unknown  # noqa: F401 (Restart: its users import it here)


def unify_types(a: T.Type, b: T.Type) -> T.Type | None:
    if isinstance(a, Unknown):
        return b
    if isinstance(b, Unknown):
        return a
    return T.merge(a, b, bool_int=True)      # (a bool|int is read only where its value decides)


def _check_not_negative(block: Block, v: Value) -> None:
    """An int `v` about to become a u64 where paths meet (`types.unify`: `h = 5381` beside
    `h = (...) & MASK64`): OverflowError when it is negative, which a u64 would read as
    2**64 more (its two's complement)."""
    neg = Instr("cmp", [v, Const(0, T.I64)], T.BOOL, "lt", v.loc)
    block.insert_before_terminator(neg)
    block.insert_before_terminator(Instr("check", [neg, v], T.NONE, ExcInfo("OverflowError", U64_MERGE_TEXT), v.loc))


class SSABuilder:
    """Blocks, current definitions and typed emission for one function being built.

    `hints` maps (loop key, variable) to the widened type a loop header parameter must take;
    it is shared across rounds (owned by the driver).

    Hooks, plain functions taking the builder first, which the lowering sets (None: the
    builder's own behaviour):
    - `emit_hook(b, op, operands, type, attr, loc)` makes every instruction in place of
      `emit_plain` (exceptions.py routes checks and calls inside a `try` to its handler);
    - `raise_hook(b, exc, loc)` in place of `raise_unbound` (the same, for a read that
      never finds its variable assigned);
    - `conflict_hook(b, other, v)` before a merge of two values of different types is
      reported (lists.py: an empty list meeting a typed one gives it its type).
    """

    def __init__(self, func: Function, filename: str, hints: dict):
        self.func = func
        self.filename = filename
        self.hints = hints
        self.block: Block | None = func.entry
        self.defs: dict[Block, dict[str, Value]] = {func.entry: {}}
        self.sealed: set[Block] = {func.entry}
        self.incomplete: dict[Block, dict[str, BlockParam]] = {}
        self.block_keys: dict[Block, object] = {}     # loop header block -> loop key
        self.loop_entries: dict[Block, list[Block]] = {}
        self.provisional: set[BlockParam] = set()      # typed before the block was sealed
        self.param_var: dict[BlockParam, str] = {}
        self.forward: dict[BlockParam, Value] = {}       # removed trivial parameter -> its value
        self.def_locs: dict[int, SourceLoc] = {}       # id(value) -> where it was assigned
        self.saw_unknown: SourceLoc | None = None
        self._dead_sink: Block | None = None
        self.dead_from: dict[Block, Block] = {}        # dead block -> where reads in it resolve
        self._left: Block | None = None                 # the block a jump last ended
        self.hints_changed = False
        self.global_rows: dict[int, str] = {}          # id of a global's row, or of a list holding them (lists.py)
        self.emit_hook = None
        self.raise_hook = None
        self.conflict_hook = None

    # ---- blocks -------------------------------------------------------------------------

    def new_block(self, name: str | None = None, loop_key=None) -> Block:
        b = self.func.add_block(name)
        self.defs[b] = {}
        if loop_key is not None:
            self.block_keys[b] = loop_key
        return b

    def seal(self, block: Block) -> None:
        """All of `block`'s predecessors are known: fill its parameters. Where one widens a
        loop header's parameter typed before (a Restart), the others are filled too, so that
        one rebuild takes every widening of the header (a loop around an inlined body reads
        many variables: generator_args.py), not one a round."""
        pending = self.incomplete.pop(block, {})
        self.sealed.add(block)
        restart = None
        for var, param in pending.items():
            try:
                self._fill_param(var, param)
            except Restart as e:
                restart = restart or e
            except Exception:
                if restart is None:
                    raise
                break           # (the round is rebuilt: what follows the first widening may not hold)
        if restart is not None:
            raise restart

    def goto(self, target: Block, loc=None) -> None:
        """End the current block (if still open) with a jump to `target`.

        Branches are made without arguments; `_fill_param` adds one per block parameter when
        the target is sealed, since only then are all its predecessors known.
        """
        if self.block is not None:
            self._left = self.block
            if self.is_dead():
                self._enter_dead(target)
                target = self._sink()
            set_terminator(self.block, "br", [], [target], [0], loc)
        self.block = None

    def branch(self, cond: Value, then: Block, other: Block, loc=None) -> None:
        if isinstance(cond, Const):
            if self.block is not None:
                self._enter_dead(other if cond.value else then)     # may still be built
            self.goto(then if cond.value else other, loc)
            return
        if self.block is not None:
            self._left = self.block
            if self.is_dead():
                self._enter_dead(then)
                self._enter_dead(other)
                set_terminator(self.block, "cbr", [Const(True, T.BOOL)], [self._sink(), self._sink()], [0, 0], loc)
            else:
                set_terminator(self.block, "cbr", [cond], [then, other], [0, 0], loc)
        self.block = None

    def start(self, block: Block) -> None:
        if block is not None and self.is_dead(block) and self._left is not None:
            self.dead_from.setdefault(block, self._left)     # built, though nothing jumps here
        self.block = block

    # ---- unreachable code ---------------------------------------------------------------
    #
    # A block with no predecessors (other than the entry) is dead: code after a certain
    # `raise` in the middle of an expression still has to be built somewhere until the
    # statement ends. Its jumps go to one sink block, never to live blocks, so what it
    # computes never reaches a merge; `build` drops all of it as unreachable. Variables read
    # in it take their values from where the dead code began (`dead_from`), so that it is
    # built with the types it would have had.

    def _enter_dead(self, target: Block) -> None:
        if not target.preds and target is not self.func.entry:
            self.dead_from.setdefault(target, self.block)

    def is_dead(self, block: Block | None = None) -> bool:
        b = block if block is not None else self.block
        return b is not None and b is not self.func.entry and not b.preds

    def reachable(self, block: Block) -> bool:
        """Whether some path of the blocks built so far leads from the entry to `block` (a
        block after an unconditional raise inside an expression has predecessors, all dead)."""
        seen, todo = {id(block)}, [block]
        while todo:
            b = todo.pop()
            if b is self.func.entry:
                return True
            for p in b.preds:
                if id(p) not in seen:
                    seen.add(id(p))
                    todo.append(p)
        return False

    def _sink(self) -> Block:
        if self._dead_sink is None:
            self._dead_sink = self.new_block("dead")
            self.sealed.add(self._dead_sink)
        return self._dead_sink

    def raise_unbound(self, exc, loc) -> Value:
        """End the current block with `raise exc` (a read that can never find its variable
        assigned) and go on in a dead block; the read's value is an Undef."""
        if self.raise_hook is not None:
            return self.raise_hook(self, exc, loc)
        return self.raise_unbound_plain(exc, loc)

    def raise_unbound_plain(self, exc, loc) -> Value:
        set_terminator(self.block, "raise", [], attr=exc, loc=loc)
        dead = self.new_block("dead")
        self.sealed.add(dead)
        self.dead_from[dead] = self.block
        self.block = dead
        return Undef(UNKNOWN, loc)

    # ---- variables ----------------------------------------------------------------------

    def write(self, var: str, value: Value, block: Block | None = None, loc=None) -> None:
        block = block or self.block
        self.defs[block][var] = value
        if loc is not None and not isinstance(value, Const):
            self.def_locs.setdefault(id(value), loc)

    def read(self, var: str, loc=None) -> Value:
        return self.read_in(var, self.block, loc)

    def read_in(self, var: str, block: Block, loc=None) -> Value:
        found = self.defs[block].get(var)
        if found is not None:
            return found
        if not block.preds and block in self.dead_from:
            value = self.read_in(var, self.dead_from[block], loc)
            self.defs[block][var] = value
            return value
        if block not in self.sealed and var.startswith("$def:") and self._entry_preds(block) and all(
                _is_true(self.read_in(var, p, loc)) for p in self._entry_preds(block)):
            # Definedness only goes from false to true (there is no `del`): a loop entered with
            # the variable assigned has it assigned on every back edge too.
            value = Const(True, T.BOOL)
        elif block not in self.sealed:
            param = self._new_param(var, block, loc, self._type_from_known_preds(var, block, loc))
            self.incomplete.setdefault(block, {})[var] = param
            self.provisional.add(param)
            value: Value = param
        elif len(block.preds) == 1:
            value = self.read_in(var, block.preds[0], loc)
        elif not block.preds:
            value = Undef(UNKNOWN, loc)
        else:
            param = self._new_param(var, block, loc, self._reaching_type(var, block, loc))
            self.defs[block][var] = param
            value = self._fill_param(var, param)
        value = self._current(value)
        self.defs[block][var] = value
        return value

    def _current(self, v: Value) -> Value:
        """`v`, or what replaced it when it was a trivial parameter since removed (removing one
        can make others trivial in turn, so a value read earlier may be stale)."""
        while v in self.forward:
            v = self.forward[v]
        return v

    def arrived(self, param: BlockParam) -> list[Value]:
        """The values of block parameter `param`'s variable on the edges into its block that
        are built (of a loop header being built: the edges from before the loop)."""
        var = self.param_var.get(param)
        if var is None:
            return []
        block = param.block
        preds = self._entry_preds(block) if block not in self.sealed else block.preds
        return [self.read_in(var, p) for p in dict.fromkeys(preds)]

    def _entry_preds(self, block: Block) -> list[Block]:
        """The predecessors of an unsealed loop header that come from outside the loop (the
        edges known when the header was entered); `continue` edges are added later."""
        return self.loop_entries.get(block, [])

    def enter_loop_header(self, header: Block) -> None:
        """Call right after the jump into a loop header, before anything reads in it."""
        self.loop_entries[header] = list(header.preds)

    def _type_from_known_preds(self, var: str, block: Block, loc) -> T.Type:
        t: T.Type = UNKNOWN
        for p in self._entry_preds(block):
            t = unify_types(t, self.read_in(var, p, loc).type) or t
        key = self.block_keys.get(block)
        hint = self.hints.get((key, var)) if key is not None else None
        if hint is not None:
            t = unify_types(t, hint) or hint
        return t

    def _reaching_type(self, var: str, block: Block, loc) -> T.Type:
        """The unified type of every definition of `var` that reaches the sealed `block`.

        A merge parameter is typed before its arguments are read, because reading them may
        come back to it around a loop (a variable first read after a loop that does not
        always assign it): the parameter then stands for itself among its own arguments and
        must already have its final type, or its users would be built for the wrong one. The
        walk stops at blocks that define `var` (their value's type is final: parameters made
        here are typed by this same walk) and at unsealed loop headers (a provisional
        parameter, widened by Restart if need be); a conflict is left for `_fill_param` to
        report."""
        t: T.Type = UNKNOWN
        seen = {block}
        stack = list(block.preds)
        while stack:
            b = stack.pop()
            if b in seen:
                continue
            seen.add(b)
            found = self.defs[b].get(var)
            if found is None and b not in self.sealed:
                found = self.read_in(var, b, loc)
            if found is None:
                stack.extend(b.preds)
                continue
            t = unify_types(t, found.type) or self._union_of(var, t, found.type) or t
        return t

    @staticmethod
    def _union_of(var: str, t: T.Type, u: T.Type) -> T.Type | None:
        """The union a variable of types `t` and `u` is (union_values.meet), where it may be
        one: not the compiler's names, but min()/max()'s best so far and a dispatch table's
        result; None otherwise (the conflict is reported where the types meet)."""
        if var.startswith("$") and not var.startswith(("$best", "$dispatch")) or has_unknown(t):
            return None
        from script.frontend.union_values import meet
        return meet(t, u)

    def _new_param(self, var: str, block: Block, loc, t: T.Type) -> BlockParam:
        param = block.add_param(t, loc, var if not var.startswith("$") else None)
        self.param_var[param] = var
        return param

    def _fill_param(self, var: str, param: BlockParam) -> Value:
        """Give `param` one argument per predecessor edge (its block is now sealed)."""
        block = param.block
        incoming = [(pred, self.read_in(var, pred, param.loc)) for pred in block.preds]
        incoming = [(pred, self._current(v)) for pred, v in incoming]
        t = param.type
        for pred, v in incoming:
            u = unify_types(t, v.type)
            if u is None:
                u = self._type_conflict(var, param, v, t)
            t = u
        if t != param.type:
            key = self.block_keys.get(block)
            if param in self.provisional:
                # A loop header's parameter typed before its back edges were known: its old
                # type (possibly unknown) may have shaped code already built, so rebuild.
                self.hints[(key, var)] = t
                self.hints_changed = True
                raise Restart()
            assert not param.uses, "a merge parameter changed type after it was used"
            param.type = t
        same = self._trivial_value(param, [v for _, v in incoming])
        if same is not None:
            if isinstance(same, Undef) and param.uses and not isinstance(param.type, Unknown):
                same = self._undefined(param.type, self.func.entry, param.loc, at_start=True)
            return self._replace_param(param, same, has_args=False)
        for pred in dict.fromkeys(block.preds):
            v = self.read_in(var, pred, param.loc)
            term = pred.terminator
            for k, s in enumerate(term.succs):
                if s is block:
                    term.add_succ_arg(k, self._coerce_in(pred, v, param))
        return param

    @staticmethod
    def _trivial_value(param: BlockParam, args) -> Value | None:
        """The one value all arguments agree on (ignoring `param` itself), or None.

        An undefined argument counts as a value of its own (the typed zero it becomes), so a
        variable assigned on only some paths keeps its parameter: the defined value would not
        dominate the merge."""
        same = None
        undef = False
        for a in args:
            if a is param or a is same:
                continue
            if isinstance(a, Undef):
                undef = True
                continue
            if same is not None and not _same_const(a, same):
                return None
            same = a
        if same is None:
            return Undef(param.type, param.loc)
        if undef or same.type != param.type:
            return None
        return same

    def _replace_param(self, param: BlockParam, same: Value, has_args: bool = True) -> Value:
        block = param.block
        # Parameters that receive `param` as an argument may become trivial once it is gone.
        # Only those: a parameter of the same block may still be waiting for its arguments
        # (it is being filled, further up the recursion).
        receivers = [s.params[j] for u in param.uses if u.block is not None and u.opname in ("br", "cbr")
                     for k, s in enumerate(u.succs) if s in self.sealed
                     for j, a in enumerate(u.succ_args(k)) if a is param]
        replace_all_uses_with(param, same)
        for defs in self.defs.values():
            for var, v in defs.items():
                if v is param:
                    defs[var] = same
        if has_args:
            block.remove_param(block.params.index(param))
        else:
            block.params.remove(param)
        self.param_var.pop(param, None)
        self.forward[param] = same
        for p in dict.fromkeys(receivers):
            if p not in self.param_var or p is param:
                continue
            s = p.block
            k = s.params.index(p)
            args = [pred.terminator.succ_args(j)[k] for pred in dict.fromkeys(s.preds)
                    for j, ss in enumerate(pred.terminator.succs) if ss is s]
            v = self._trivial_value(p, args)
            if v is not None and not isinstance(v, Undef):
                self._replace_param(p, v)
        return self._current(same)

    def _coerce_in(self, pred: Block, v: Value, param: BlockParam) -> Value:
        if v.type == param.type and not isinstance(v, Undef):     # (an Undef typed already: a
            return v                                              # parameter all of whose arguments were)
        if isinstance(v, Undef) or isinstance(v.type, Unknown):
            return self._undefined(param.type, pred, v.loc)
        return self.convert_in(pred, v, param.type, at_loop=param.block in self.block_keys)

    def _undefined(self, t: T.Type, pred: Block, loc, at_start: bool = False) -> Value:
        """What a parameter of type `t` receives from `pred` when its variable is unassigned
        there (`at_start`: a value made at the start of `pred`, the entry, for every use of a
        parameter found to be never assigned). It is never read (every read checks `$def:x`
        first), so any value of the type will do: zero, "" for a str, or for an array or a
        list a new empty one (a real one, so that reference counting needs no special case)."""
        made: list[Instr] = []

        def make(t: T.Type) -> Value:
            if isinstance(t, (T.TupleType, T.HashType)):     # (a dict or set: the tuple of its two lists)
                instr = Instr("tuple", [make(e) for e in t.elems], t, None, loc)
            elif isinstance(t, T.ArrayType):
                instr = Instr("alloc", [Const(0, T.I64)] * t.ndim, t.with_layout("C"), None, loc)
                if t.layout != "C":
                    made.append(instr)
                    instr = Instr("convert", [instr], t, None, loc)
            elif isinstance(t, T.ListType):     # (no length: never read; an instance: NULL)
                instr = Instr("list_null" if isinstance(t, T.ClassType) else "list_new", [], t, None, loc)
            elif isinstance(t, T.StrType):
                instr = Instr("str_const", [], t, "", loc)      # immortal: nothing to count
            elif isinstance(t, T.BytesType):                    # b"": the same object
                made.append(Instr("str_const", [], T.STR, "", loc))
                instr = Instr("convert", [made[-1]], t, None, loc)
            elif isinstance(t, T.ExcType):                      # no message: nothing to count
                instr = Instr("exception", [], t, ExcInfo("Exception", None), loc)
            elif isinstance(t, (T.EnumType, T.FuncType)):      # the first member, the first function
                instr = Instr("convert", [Const(0, T.I64)], t, None, loc)
            else:
                return Const(None if isinstance(t, T.NoneType) else 0, t, loc)
            made.append(instr)
            return instr

        if has_unknown(t):
            return Undef(UNKNOWN, loc)
        value = make(t)
        for k, instr in enumerate(made):
            if at_start:
                pred.insert(k, instr)
            else:
                pred.insert_before_terminator(instr)
        return value

    def _type_conflict(self, var: str, param: BlockParam, v: Value, t: T.Type) -> T.Type:
        """The type of `param`, met so far as `t`, where `v` of a type that does not unify
        with it arrives: a union of both (union_values.py), or the CompileError."""
        others = [self.read_in(var, p) for p in param.block.preds]
        shown = var.split(":", 1)[1] if var.startswith("$gen") else var      # (generators.py renames)
        what = f"variable '{shown}'"
        if re.fullmatch(r"\$acc\d+", var):        # (lists.sum_each, reduce_loop: a running total)
            shown, what = "total", "the running total (of sum(), from its start: 0 without one)"
        other = next((w for w in others if w.type != v.type and not isinstance(w.type, Unknown)), None)
        if other is not None and self.conflict_hook is not None:
            self.conflict_hook(self, other, v)
        union = self._union_of(var, t, v.type)
        if union is not None:
            return union
        loc_a = self.def_locs.get(id(v), v.loc)
        loc_b = self.def_locs.get(id(other), other.loc) if other is not None else param.loc
        tb = other.type if other is not None else param.type
        notes = []
        if loc_b is not None:
            notes.append(f"  '{shown}' is {tb} from {loc_b}")
        if loc_a is not None:
            notes.append(f"  '{shown}' is {v.type} from {loc_a}")
        from script.frontend.class_methods import mixed_classes
        raise CompileError(f"{what} has incompatible types {tb} and {v.type} where control "
                           f"flow merges" + mixed_classes(tb, v.type), param.loc or loc_a, tuple(notes))

    def drop_unknown_params(self) -> None:
        """Call once the function is built and its unreachable blocks removed: parameters still
        of unknown type carry nothing (every read of their variable raised), so they and their
        arguments go. Anything else of unknown type left in live code is recorded in
        `saw_unknown` (the round is retried, or the error reported), never lowered."""
        blocks = self.func.blocks
        for b in blocks:
            drop = [k for k, p in enumerate(b.params) if has_unknown(p.type)]
            for pred in dict.fromkeys(b.preds):
                term = pred.terminator
                for k, succ in enumerate(term.succs):
                    if succ is b:
                        for j in reversed(drop):
                            term.remove_succ_arg(k, j)
            for j in reversed(drop):
                del b.params[j]
        defined = {id(v) for b in blocks for v in (*b.params, *b.instrs)}
        for b in blocks:
            for v in (*b.params, *(x for i in b.instrs for x in (i, *i.operands))):
                if has_unknown(v.type) or not isinstance(v, Const) and id(v) not in defined:
                    self.saw_unknown = self.saw_unknown or v.loc or self.func.loc
                    return

    # ---- emission -----------------------------------------------------------------------

    def emit(self, op: str, operands, type: T.Type, attr=None, loc=None) -> Value:
        if self.emit_hook is not None:
            return self.emit_hook(self, op, operands, type, attr, loc)
        return self.emit_plain(op, operands, type, attr, loc)

    def emit_plain(self, op: str, operands, type: T.Type, attr=None, loc=None) -> Value:
        """Append an instruction to the current block (an Undef when an operand's type is
        not known yet), whatever `emit_hook` would do with it."""
        if any(isinstance(v.type, Unknown) or isinstance(v, Undef) for v in operands):
            if not self.is_dead():
                self.saw_unknown = self.saw_unknown or loc
            return Undef(UNKNOWN if type is None else type, loc)
        instr = Instr(op, operands, type, attr, loc)
        self.block.append(instr)
        rows = self.global_rows
        if rows and op in ("extract", "list_get") and id(operands[0]) in rows and holds_list(type):
            # a list inside a global tuple or dict (lists.global_list): read-only as the global
            self.global_lists[id(instr)] = rows[id(instr)] = rows[id(operands[0])]
        if op == "extract" and self.global_lists and isinstance(operands[0], Instr) and \
                operands[0].opname == "tuple" and id(operands[0].operands[attr]) in self.global_lists:
            # a global list that went through a tuple (`r, s = f.r, f.s`): still read-only
            part = operands[0].operands[attr]
            self.global_lists[id(instr)] = self.global_lists[id(part)]
            if id(part) in rows:
                rows[id(instr)] = rows[id(part)]
        return instr

    def convert_in(self, block: Block, v: Value, t: T.Type, at_loop: bool = False) -> Value:
        """`v` as a `t`, made at the end of `block` (which jumps to a merge). `at_loop`: the
        merge is a loop's header, where an int meeting a u64 is the loop's start (`x = seed`
        before `x = (x * A + C) % 2**64`): its bits are what the masked arithmetic needs, so
        a negative one is not refused there (returned untouched by a loop that never runs,
        it reads back as 2**64 more: docs/integers.md)."""
        if v.type == t:
            return v
        if t == T.U64 and v.type == T.I64 and not at_loop and not (isinstance(v, Const) and v.value >= 0):
            _check_not_negative(block, v)
        folded = fold_convert(v, t)
        if folded is not None:
            return folded
        if isinstance(t, T.IntFloatType):             # an int or a float where they meet (mixed_numbers.py)
            from script.frontend.mixed_numbers import build

            def emit_num(op, args, rt):
                instr = Instr(op, args, rt, None, v.loc)
                block.insert_before_terminator(instr)
                return instr
            return build(emit_num, v, v.loc)
        if isinstance(t, T.OptionalType) and not isinstance(v.type, T.OptionalType):
            # None, or a value, where a merge makes an optional (optional.py)
            if isinstance(v.type, T.NoneType):
                elems = [Const(False, T.BOOL), self._undefined(t.value, block, v.loc)]
            else:
                elems = [Const(True, T.BOOL), self.convert_in(block, v, t.value)]
            instr = Instr("tuple", elems, t, None, v.loc)
            block.insert_before_terminator(instr)
            return instr
        def emit(op, args, rt, attr=None):      # (an instruction at the end of `block`)
            instr = Instr(op, args, rt, attr, v.loc)
            block.insert_before_terminator(instr)
            return instr
        if isinstance(t, T.UnionType):      # values of types CPython keeps apart (union_values.py)
            from script.frontend.union_values import build
            return build(emit, v, t, lambda alt: self._undefined(alt, block, v.loc), v.loc)
        if T.is_instance_union(t):          # instances of several classes (class_unions.py)
            from script.frontend.class_unions import build_union
            return build_union(v, t, emit)
        if isinstance(t, T.TupleType) and isinstance(v.type, Unknown):
            # a value of a round that is rebuilt once its type is known (a min/max
            # accumulator of tuples read before the first element types it)
            return self._undefined(t, block, v.loc)
        if isinstance(t, T.TupleType):
            elems = []
            for k, et in enumerate(t.elems):
                e = Instr("extract", [v], v.type.elems[k], k, v.loc)
                block.insert_before_terminator(e)
                elems.append(self.convert_in(block, e, et))
            instr = Instr("tuple", elems, t, None, v.loc)
        else:
            instr = Instr("convert", [v], t, None, v.loc)
        block.insert_before_terminator(instr)
        return instr


def _is_true(v: Value) -> bool:
    return isinstance(v, Const) and v.value is True


def _same_const(a: Value, b: Value) -> bool:
    return isinstance(a, Const) and isinstance(b, Const) and a.key() == b.key()


def fold_convert(v: Value, t: T.Type) -> Const | None:
    """`v` converted to `t` at compile time when `v` is a numeric constant and the IR's own
    folding rules (the backend's semantics) give a certain result; else None, and the caller
    emits a `convert` (a NaN or out-of-range float stored into an int, say)."""
    if not (isinstance(v, Const) and v.type.is_numeric() and t.is_numeric()):
        return None
    from script.ir.semantics import fold
    return fold("convert", None, t, [v])


def holds_list(t: T.Type) -> bool:
    """Whether a value of type `t` is or holds a list (a tuple's, a dict's or a set's)."""
    if isinstance(t, (T.ListType, T.HashType)):
        return True
    return isinstance(t, T.TupleType) and any(holds_list(e) for e in t.elems)


def borrow_from_callers(builder, find) -> list:
    """The hint keys `find(caller)` gives in the callers being built, nearest first, each
    recorded as that caller's (`raise_foreign` carries a hint `builder` sets for it up)."""
    keys = []
    for caller in callers_of(builder):
        for k in find(caller):
            builder.__dict__.setdefault("borrowed", {})[id(k[1])] = caller
            keys.append(k)
    return keys


def callers_of(builder) -> list:
    """The builders of the functions being built while `builder` is, nearest first."""
    stack = list(builder.ctx.in_progress.values())
    return [b for b in reversed(stack) if b is not builder]
