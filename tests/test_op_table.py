"""The op table's columns (script/ir/ops.py): each per-op fact has the op names it had as a
local set of op names before it became a column."""

from script.backend.llvm import abi, lower, refcount
from script.compiler import _REGISTER_EFFECTS
from script.cuda.compile import _CAUGHT, KERNEL_OK
from script.ir import parallel
from script.ir.ops import OPS
from script.ir.passes import cse, deferred
from script.ir.verifier import _COMPLEX_OPS


def names(column: str) -> set:
    return {name for name, op in OPS.items() if getattr(op, column)}


def test_columns_pin_the_old_sets():
    assert names("may_raise") == set(abi.RAISING_OPS)
    assert names("fresh") == set(refcount._FRESH)
    assert names("consumes") == set(refcount._CONSUMING)
    assert names("reads") == set(deferred._READS)
    assert names("env_only") == set(_REGISTER_EFFECTS)
    assert names("view") == set(parallel._VIEWS)
    assert names("complex_ok") == set(_COMPLEX_OPS)
    assert names("commutative") == set(cse._COMMUTATIVE)
    assert names("always_defined") == set(lower._SPECULATABLE)
    assert names("kernel_ok") == set(KERNEL_OK)
    assert {n for n, op in OPS.items() if op.family == "caught"} == set(_CAUGHT)
