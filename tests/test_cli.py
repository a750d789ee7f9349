"""The command line, driven as users drive it: `python -m script ...` in a subprocess.

Every subcommand and flag, bad files, bad signatures, missing functions, and the exit
status (0 ok, 1 error in the user's code, 2 bad usage). The parsers behind the options
(`--sig`, the Graphviz writer, colours) also get quick in-process tests.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import script
from script.cli.errors import UsageError

ROOT = str(Path(script.__file__).resolve().parent.parent)

QUICK = '''\
import script

@script.script
def collatz(n: int) -> int:
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps

@script.script
def poly(x, k):
    acc = 0.0
    for i in range(k, 0, -1):
        acc = acc * x + i
    return acc

def plain(a, b):
    return a * b + 1

LIMIT = 10
print("printed while importing")
'''

CALLS = QUICK + "collatz(27); poly(0.5, 10); poly(2, 3)\n"      # compiles 3 signatures at import

BAD = '''\
import script


@script.script
def fine(n: int) -> int:
    return n + 1


@script.script
def uses_with(n: int) -> int:
    with open("f"):
        return n
    n += 1
    return 0


@script.script
def wrong_return(x: float) -> int:
    return x * 2.0


@script.script
def bad_annotation(x: bytearray) -> int:
    return 1


@script.script
def untyped(a, b):
    return a + undefined_name


def helper(x):
    return x + {1: {2: 3}}


@script.script
def calls_helper(x: int) -> int:
    return helper(x)
'''

# wrong_return and bad_annotation compile: annotations are hints, as in CPython (an int
# annotation on a float result, a type the compiler does not know); calls_helper raises
# CPython's TypeError for int + dict when it runs, as CPython does.
BAD_ERRORS = [("11:5", "'with' statements are not supported")]


def run(*args, cwd, stdin=None, check_rc=None):
    path = [p for p in (ROOT, os.environ.get("PYTHONPATH")) if p]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(path))
    env.pop("NO_COLOR", None)
    proc = subprocess.run([sys.executable, "-m", "script", *args], cwd=cwd, env=env, input=stdin,
                          capture_output=True, text=True, timeout=120)
    if check_rc is not None:
        assert proc.returncode == check_rc, (proc.returncode, proc.stdout[-300:], proc.stderr)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    d = tmp_path_factory.mktemp("cli")
    (d / "quick.py").write_text(QUICK)
    (d / "calls.py").write_text(CALLS)
    (d / "bad.py").write_text(BAD)
    (d / "syntax.py").write_text(
        "import script\n\n@script.script\ndef f(x: int) -> int:\n    return x +* 2\n")
    (d / "importfail.py").write_text("import script\nimport no_such_module_for_scriptc\n")
    (d / "raises.py").write_text("def g():\n    raise RuntimeError('boom')\n\ng()\n")
    (d / "toplevel.py").write_text(textwrap.dedent('''\
        import script

        @script.script
        def f(x: int) -> int:
            with open("f"):
                return x

        f(3)
        '''))
    (d / "helper_mod.py").write_text("SCALE = 3\n")
    (d / "imports_sibling.py").write_text(textwrap.dedent('''\
        import script
        from helper_mod import SCALE

        @script.script
        def scaled(x: int) -> int:
            return x * SCALE
        '''))
    (d / "nothing.py").write_text("X = 1\n")
    (d / "defaults.py").write_text("import script\n\n@script.script\ndef f(x, n=3):\n    return x * n\n")
    return d


# ---- help, version, entry points --------------------------------------------------------

def test_help_lists_commands_and_examples(work):
    p = run("--help", cwd=work, check_rc=0)
    for word in ("dump", "check", "compile", "inspect", "demo", "examples:", "exit status"):
        assert word in p.stdout
    assert run(cwd=work, check_rc=2).stdout == ""          # no command: usage on stderr
    p = run("dump", "--help", cwd=work, check_rc=0)
    assert "--print-after" in p.stdout and "examples:" in p.stdout
    p = run("dump", cwd=work, check_rc=2)
    assert "FILE.py" in p.stderr and "FUNC" not in p.stderr.splitlines()[-1]
    run("frobnicate", cwd=work, check_rc=2)


def test_scriptc_console_script_is_python_m_script(work):
    exe = shutil.which("scriptc")
    if exe is None:
        pytest.skip("scriptc is not installed on PATH")
    env = dict(os.environ, PYTHONPATH=ROOT)
    via_exe = subprocess.run([exe, "dump", "quick.py", "collatz", "--stage", "ssa"], cwd=work,
                             env=env, capture_output=True, text=True, timeout=120)
    via_m = run("dump", "quick.py", "collatz", "--stage", "ssa", cwd=work, check_rc=0)
    assert via_exe.returncode == 0 and via_exe.stdout == via_m.stdout
    assert script.__version__ in run("--version", cwd=work, check_rc=0).stdout


def test_demo_still_works(work):
    p = run("demo", cwd=work, check_rc=0)
    assert "poly.signatures" in p.stdout and "NO (" not in p.stdout


# ---- dump ---------------------------------------------------------------------------------

def test_dump_all_functions_at_opt_is_a_parseable_module(work):
    from script.ir.parser import parse_module
    p = run("dump", "calls.py", cwd=work, check_rc=0)
    names = re.findall(r"^func @(\S+)\(", p.stdout, re.M)
    assert names == ["collatz.i64", "poly.f64_i64", "poly.i64_i64"]   # top-level calls' signatures
    assert "printed while importing" in p.stderr and "printed" not in p.stdout
    assert "\x1b[" not in p.stdout                     # --color auto: not a terminal
    parse_module(p.stdout, verify=True)


def test_dump_one_function_at_each_stage(work):
    ssa = run("dump", "quick.py", "poly", "--sig", "f64, i64", "--stage", "ssa", cwd=work, check_rc=0)
    assert re.findall(r"^func @(\S+)\(", ssa.stdout, re.M) == ["poly.f64_i64"]
    assert "convert" in ssa.stdout and '"quick.py":12' in ssa.stdout
    tree = run("dump", "quick.py", "collatz", "--stage", "ast", cwd=work, check_rc=0)
    assert tree.stdout.startswith("FunctionDef(\n  name='collatz'")
    llvm = run("dump", "quick.py", "collatz", "--stage", "llvm", cwd=work, check_rc=0)
    assert llvm.stdout.startswith("; script: collatz(int) -> int\n") and "define " in llvm.stdout
    asm = run("dump", "quick.py", "poly", "--sig", "poly=int, int", "--stage", "asm",
              cwd=work, check_rc=0)
    assert "script: poly(int, int) -> float" in asm.stdout.splitlines()[0]
    assert len(asm.stdout.splitlines()) > 10


def test_dump_a_plain_function_by_name(work):
    p = run("dump", "quick.py", "plain", "--sig", "int, float", "--stage", "ssa", cwd=work, check_rc=0)
    assert "func @plain.i64_f64(%0: i64, %1: f64) -> f64" in p.stdout


def test_dump_opt_level_and_print_after(work):
    o0 = run("dump", "quick.py", "collatz", "--opt", "0", cwd=work, check_rc=0)
    ssa = run("dump", "quick.py", "collatz", "--stage", "ssa", cwd=work, check_rc=0)
    assert o0.stdout == ssa.stdout                     # -O0 runs no IR pass
    trace = run("dump", "quick.py", "collatz", "--opt", "1", "--print-after", "all",
                cwd=work, check_rc=0)
    headers = re.findall(r"^// IR after (\w+)", trace.stdout, re.M)
    assert headers == ["masked", "strength", "constfold", "dce", "simplify_cfg"]
    one = run("dump", "quick.py", "collatz", "--print-after", "licm", cwd=work, check_rc=0)
    assert re.findall(r"^// IR after (\w+)", one.stdout, re.M) == ["licm"]


def test_dump_dot_renders(work):
    p = run("dump", "quick.py", "collatz", "--format", "dot", "--stage", "ssa", cwd=work, check_rc=0)
    text = p.stdout
    assert text.startswith('digraph "cfg" {') and text.rstrip().endswith("}")
    assert "subgraph cluster_f0" in text and "@collatz.i64(%0: i64) -> i64" in text
    assert re.search(r'-> f0_bb\d+ \[label="%\d+ true"', text)
    assert re.search(r'-> f0_bb\d+ \[label="%\d+ false"', text)
    assert re.search(r'\[label="\(%\d+, 0:i64\)"', text)      # block arguments on the edge
    assert ": bool\\l" in text                                  # instructions with their types
    if shutil.which("dot") is None:
        pytest.skip("Graphviz (dot) is not installed")
    svg = subprocess.run(["dot", "-Tsvg"], input=text, capture_output=True, text=True, timeout=60)
    assert svg.returncode == 0 and "<svg" in svg.stdout, svg.stderr


@pytest.mark.parametrize("args,message", [
    (("--stage", "ptx"), "quick.py has no kernels (@script.kernel)"),
    (("--stage", "llvm", "--format", "dot"), "--format dot"),
    (("--stage", "ssa", "--print-after", "all"), "--print-after"),
    (("--print-after", "nopass"), "no pass 'nopass'"),
    (("--opt", "7"), "invalid choice"),
    (("--stage", "tokens"), "invalid choice"),
    (("--color", "sometimes"), "invalid choice"),
])
def test_dump_bad_options_are_usage_errors(work, args, message):
    p = run("dump", "quick.py", *args, cwd=work, check_rc=2)
    assert message in p.stderr and p.stdout == ""


def test_dump_reports_compile_errors_and_goes_on(work):
    p = run("dump", "bad.py", cwd=work, check_rc=1)
    assert "func @fine.i64" in p.stdout
    for where, text in BAD_ERRORS:
        assert f"bad.py:{where}: " in p.stderr and text in p.stderr
    assert "skipped untyped(a, b) is not annotated" in p.stderr


# ---- signatures and function names ---------------------------------------------------------

@pytest.mark.parametrize("args,message", [
    (("poly", "--sig", "f65, i64"), "unknown type 'f65'"),
    (("poly", "--sig", "f64"), "gives 1 type(s), but poly(x, k) takes 2"),
    (("poly", "--sig", "(f64, i64"), "missing ')'"),
    (("poly", "--sig", "f64[1], i64"), "an array type is written f64[:]"),
    (("--sig", "nosuch=f64"), "no function 'nosuch'"),
    (("collatz", "--sig", "poly=f64, i64"), "not among the functions"),
    (("nosuch",), "quick.py has no function 'nosuch' (its @script functions: collatz, poly)"),
    (("LIMIT",), "'LIMIT' in quick.py is not a function (its type is int)"),
    (("plain",), "plain(a, b) is not annotated"),
])
def test_bad_signatures_and_names(work, args, message):
    p = run("dump", "quick.py", *args, cwd=work, check_rc=2)
    assert message in p.stderr, p.stderr


def test_a_signature_other_than_the_annotations_compiles(work):
    p = run("dump", "quick.py", "collatz", "--sig", "collatz=float", "--stage", "ssa", cwd=work, check_rc=0)
    assert "func @collatz.f64(%0: f64)" in p.stdout      # annotations are hints, as in CPython


def test_signature_spellings_agree(work):
    texts = {run("dump", "quick.py", "poly", "--sig", sig, "--stage", "ssa", cwd=work, check_rc=0).stdout
             for sig in ("float, int", "(f64, i64)")}
    assert len(texts) == 1
    p = run("dump", "defaults.py", "--sig", "float", "--stage", "ssa", cwd=work, check_rc=0)
    assert "func @f.f64_i64(%0: f64, %1: i64)" in p.stdout        # n takes its default's type


# ---- bad files -------------------------------------------------------------------------------

def test_bad_files(work):
    p = run("dump", "missing.py", cwd=work, check_rc=2)
    assert "missing.py: no such file" in p.stderr
    run("check", str(work), cwd=work, check_rc=2)
    p = run("dump", "syntax.py", cwd=work, check_rc=1)
    assert p.stderr.startswith("syntax.py:5:15: SyntaxError: invalid syntax\n    return x +* 2\n")
    assert p.stderr.splitlines()[2].strip() == "^"
    p = run("dump", "importfail.py", cwd=work, check_rc=1)
    assert "importing importfail.py failed: ModuleNotFoundError" in p.stderr
    assert "importfail.py:2, in <module>" in p.stderr
    p = run("dump", "toplevel.py", cwd=work, check_rc=1)   # a compile error from a top-level call
    assert p.stderr.startswith("toplevel.py:5:")
    p = run("dump", "nothing.py", cwd=work, check_rc=2)
    assert "no @script functions" in p.stderr
    p = run("dump", "imports_sibling.py", cwd=work, check_rc=0)   # its directory is on sys.path
    assert "mul %0, 3:i64" in p.stdout


# ---- check -----------------------------------------------------------------------------------

def test_check_reports_every_error_in_order(work):
    p = run("check", "bad.py", cwd=work, check_rc=1)
    where = re.findall(r"^bad\.py:(\d+:\d+): ", p.stderr, re.M)
    assert where == [w for w, _ in BAD_ERRORS]
    for _, text in BAD_ERRORS:
        assert text in p.stderr
    assert "untyped(a, b) not checked" in p.stderr
    assert p.stdout == "1 error in 1 file (4 signatures checked)\n"
    p = run("check", "bad.py", "--sig", "untyped=int, int", cwd=work, check_rc=1)
    assert "bad.py:29:16: name 'undefined_name' is not defined" in p.stderr
    assert "untyped(a, b) not checked" not in p.stderr


def test_check_clean_and_broken_files_together(work):
    p = run("check", "calls.py", cwd=work, check_rc=0)
    assert p.stdout == "ok: 1 file, 3 signatures checked, no errors\n"
    p = run("check", "quick.py", cwd=work, check_rc=0)
    assert "poly(x, k) not checked" in p.stderr and p.stdout.startswith("ok: 1 file, 1 signature ")
    p = run("check", "quick.py", "syntax.py", "importfail.py", "raises.py", cwd=work, check_rc=1)
    assert "syntax.py:5:15: SyntaxError" in p.stderr
    assert "ModuleNotFoundError: No module named 'no_such_module_for_scriptc'" in p.stderr
    assert "RuntimeError: boom" in p.stderr and "raises.py:2, in g" in p.stderr
    assert p.stdout.startswith("3 errors in 4 files")


# ---- colour ------------------------------------------------------------------------------

def test_color_always_and_never(work):
    colored = run("--color", "always", "dump", "quick.py", "collatz", cwd=work, check_rc=0)
    assert "\x1b[" in colored.stdout
    plain = run("dump", "quick.py", "collatz", "--color", "never", cwd=work, check_rc=0)
    assert re.sub(r"\x1b\[[0-9;]*m", "", colored.stdout) == plain.stdout
    err = run("check", "bad.py", "--color", "always", cwd=work, check_rc=1)
    assert "\x1b[1mbad.py:11:5:\x1b[0m" in err.stderr


# ---- compile and inspect -------------------------------------------------------------------

def _has_saved() -> bool:
    try:
        import script.saved  # noqa: F401
    except ImportError:
        return False
    return True


def test_compile_and_inspect(work):
    if not _has_saved():
        p = run("compile", "quick.py", "-o", "q.smod", cwd=work, check_rc=2)
        assert "saved modules are not available" in p.stderr
        (work / "q.smod").write_bytes(b"PK")
        run("inspect", "q.smod", cwd=work, check_rc=2)
        return
    p = run("compile", "quick.py", "-o", "q.smod", "--sig", "poly=float, int", cwd=work, check_rc=0)
    assert "saved 2 functions (2 signatures) to q.smod" in p.stdout
    listing = run("inspect", "q.smod", cwd=work, check_rc=0).stdout
    assert "collatz" in listing and "poly" in listing
    p = run("inspect", "q.smod", "poly", "--stage", "opt", cwd=work, check_rc=0)
    assert re.findall(r"^func @(\S+)\(", p.stdout, re.M) == ["poly.f64_i64"]
    p = run("inspect", "q.smod", "--stage", "ssa", cwd=work, check_rc=0)
    assert re.findall(r"^func @(\S+)\(", p.stdout, re.M) == ["collatz.i64", "poly.f64_i64"]
    run("inspect", "q.smod", "poly", cwd=work, check_rc=2)           # FUNC needs --stage
    run("inspect", "q.smod", "nosuch", "--stage", "opt", cwd=work, check_rc=2)
    (work / "junk.smod").write_bytes(b"not a zip archive")
    assert "junk.smod" in run("inspect", "junk.smod", cwd=work, check_rc=1).stderr
    run("compile", "bad.py", "-o", "bad.smod", cwd=work, check_rc=1)
    assert not (work / "bad.smod").exists()


def test_compile_and_inspect_usage(work):
    run("inspect", "absent.smod", cwd=work, check_rc=2)
    run("compile", "missing.py", cwd=work, check_rc=2)


# ---- the pieces, in process ----------------------------------------------------------------

def test_signature_parser():
    from script.cli.signature import fit_to_arity, parse_option
    from script.ir import types as T
    assert parse_option("f64, i64").types == (T.F64, T.I64)
    assert parse_option("int, float, bool, None").types == (T.I64, T.F64, T.BOOL, T.NONE)
    assert parse_option("script.i32, np.float32, uint8").types == (T.I32, T.F32, T.U8)
    assert parse_option("(i64, f64), tuple[bool, (i8,)]").types == (
        T.TupleType([T.I64, T.F64]), T.TupleType([T.BOOL, T.TupleType([T.I8])]))
    assert parse_option("").types == ()
    named = parse_option(" poly = float, int ")
    assert named.func == "poly" and named.types == (T.F64, T.I64)
    assert fit_to_arity(parse_option("(float, int)").types, 2) == (T.F64, T.I64)
    assert fit_to_arity(parse_option("(float, int)").types, 1) == (T.TupleType([T.F64, T.I64]),)
    assert parse_option("f64[:], f32[:, ::1], np.int32[::1]").types == (
        T.ArrayType(T.F64, 1, "A"), T.ArrayType(T.F32, 2, "C"), T.ArrayType(T.I32, 1, "C"))
    for bad in ("f64 i64", "f64,,", "bytearray", "(", "i64)", "f64[1]", "f64[::1, :]", "f64[:", "1"):
        with pytest.raises(UsageError):
            parse_option(bad)


def test_dot_escapes_and_colors():
    from script.cli.color import Painter
    from script.cli.dot import _quote
    assert _quote('a "b"\\') == '"a \\"b\\"\\\\"'
    assert _quote("x\ny") == '"x\\ly\\l"'
    text = "  %3 = cmp.ne %1, 1:i64 : bool                 ; 6:10"
    painted = Painter(True).paint(text, "ir")
    assert re.sub(r"\x1b\[[0-9;]*m", "", painted) == text and painted != text
    assert Painter(False).paint(text, "ir") == text
