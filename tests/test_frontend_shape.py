"""The frontend's shape (DESIGN.md, "Target layout"; docs/architecture.md, "Where the code
departs"): no class of more than three bases, and the lowering's context table sound.

Lowerings are free functions over the lowering `cx`; the few a feature reaches through the
lowering because importing their module would close an import cycle are
`lower_stmt.CONTEXT_API`'s, installed as methods of `FunctionLowering` at import.
"""

from __future__ import annotations

import ast
import pathlib

import pytest

FRONTEND = pathlib.Path(__file__).resolve().parent.parent / "script" / "frontend"


def _modules():
    """The frontend's modules and the library's it compiles (script/lib)."""
    return sorted(FRONTEND.glob("*.py")) + sorted((FRONTEND.parent / "lib").rglob("*.py"))


@pytest.mark.parametrize("path", _modules(), ids=lambda p: p.name)
def test_no_class_of_more_than_three_bases(path):
    tree = ast.parse(path.read_text())
    wide = [(n.name, len(n.bases)) for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and len(n.bases) > 3]
    assert not wide, f"{path.name}: {wide}"


@pytest.mark.parametrize("path", _modules(), ids=lambda p: p.name)
def test_no_local_hides_a_function_it_calls(path):
    """A module-level function that calls `name(...)` has no local `name` (a method's local
    did not hide a sibling method; a free function's hides the sibling function)."""
    tree = ast.parse(path.read_text())
    top = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    for fn in (n for n in tree.body if isinstance(n, ast.FunctionDef)):
        local = {a.arg for a in fn.args.args + fn.args.kwonlyargs}
        local |= {x.id for x in ast.walk(fn) if isinstance(x, ast.Name) and isinstance(x.ctx, ast.Store)}
        called = {x.func.id for x in ast.walk(fn) if isinstance(x, ast.Call) and isinstance(x.func, ast.Name)}
        assert not local & top & called, f"{path.name}: {fn.name} hides {local & top & called}"


def test_context_api_is_the_modules_functions():
    from script.frontend.lower_stmt import CONTEXT_API, FunctionLowering
    seen = set()
    for module, names in CONTEXT_API.items():
        assert isinstance(names, tuple), module.__name__
        for name in names:
            assert name not in seen, name
            seen.add(name)
            assert getattr(FunctionLowering, name) is getattr(module, name)
            assert callable(getattr(module, name))


def test_a_name_installed_twice_is_an_error():
    from script.frontend import lower_stmt

    class Host:
        def item_value(self):
            pass
    with pytest.raises(TypeError, match="has 'item_value' already"):
        lower_stmt._install_api(Host, {lower_stmt.arrays: ("item_value",)})


def test_the_phases_picture_is_drawn_from_the_tables():
    """docs/phases.svg is what tools/phases_svg.py draws from STEPS, PIPELINES and the
    backend's stages: run it after changing them."""
    import importlib.util
    root = pathlib.Path(__file__).resolve().parent.parent
    spec = importlib.util.spec_from_file_location("phases_svg", root / "tools" / "phases_svg.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    assert (root / "docs" / "phases.svg").read_text() == tool.draw(), "run python tools/phases_svg.py"
