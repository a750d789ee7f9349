"""The FileCheck harness itself: each directive passes and fails where it should."""

from __future__ import annotations

import pytest

from filecheck import CheckFailure, filecheck, parse_checks

OUTPUT = """\
func @f(%0: i64) -> i64 {
bb0:
  %1 = add %0, 1:i64 : i64                     ; 3:4
  ret %1
}

func @g() -> none {
bb0:
  ret
}
"""


def _check(text: str) -> None:
    filecheck(OUTPUT, parse_checks(text))


@pytest.mark.parametrize("checks", [
    "// CHECK: add %0, 1:i64 : i64 ; 3:4",                       # padding is free
    "// CHECK: bb0:\n// CHECK-NEXT: %1 = add\n// CHECK-NEXT: ret %1",
    "// CHECK: func @f\n// CHECK-NOT: mul\n// CHECK: ret %1",
    "// CHECK: %{{[0-9]+}} = add",
    "// CHECK-LABEL: func @f\n// CHECK: ret %1\n// CHECK-LABEL: func @g\n// CHECK: ret",
    "// CHECK-LABEL: func @g\n// CHECK-NOT: add",                 # add is before the label
])
def test_passing_checks(checks):
    _check(checks)


@pytest.mark.parametrize("checks,why", [
    ("// CHECK: mul", "no match"),
    ("// CHECK: bb0:\n// CHECK-NEXT: ret %1", "not on the next line"),
    ("// CHECK: bb0:\n// CHECK-NOT: add\n// CHECK: ret", "matched where it must not"),
    ("// CHECK: ret %1\n// CHECK: add", "no match"),                  # order matters
    ("// CHECK-LABEL: func @f\n// CHECK: ret\n// CHECK: none\n// CHECK-LABEL: func @g",
     "no match"),                                                     # confined to @f
    ("// CHECK-LABEL: func @g\n// CHECK-NOT: ret", "matched where it must not"),
    ("// CHECK-LABEL: func @h", "label not found"),
])
def test_failing_checks(checks, why):
    with pytest.raises(CheckFailure, match=why):
        _check(checks)


def test_no_checks_is_an_error():
    with pytest.raises(ValueError):
        filecheck(OUTPUT, parse_checks("nothing here"))


def test_an_unknown_directive_is_an_error():
    """`CHECK-SAME:` (LLVM's, not ours) would otherwise be read as a comment: a check that
    cannot fail."""
    with pytest.raises(ValueError, match="unknown directive"):
        parse_checks("// CHECK: bb0\n// CHECK-SAME: %1")
