"""Test-wide settings: the IR verifier runs after the frontend and after every pass that
changes the function (ir/passes `run_pipeline`); and
the tests that run only with `-m slow` besides those marked where they are defined; and
hypothesis's profile.

Hypothesis draws the same examples on every run (profile "ci", `derandomize=True`), so that a
remaining difference it could find at random never fails CI by chance; `SCRIPT_HYPOTHESIS=explore`
draws new examples each run (with `--hypothesis-seed N` to replay one), which is how the
suite hunts for differences by hand (docs/testing.md).

`SLOW_IN_CI` names tests whose time (seconds of one worker on the 2-core machine, measured
with `--durations=0`) the suite cannot spend within its 15 minutes (CI runs `pytest`, which
deselects `slow`): leak checks that repeat their kernels thousands of times, the widest
NumPy comparisons, CLI and process round trips. Each has faster siblings that still run
(the same feature on fewer cases); `pytest -m slow` runs them all (docs/testing.md).
"""

import gc
import os

import pytest
from hypothesis import settings

os.environ.setdefault("SCRIPT_VERIFY", "1")

settings.register_profile("ci", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("SCRIPT_HYPOTHESIS", "ci"))

SLOW_IN_CI = {
    "tests/test_memory.py::test_dropped_functions_give_back_their_memory",            # 33 s
    "tests/test_memory.py::test_a_dropped_loaded_module_gives_its_blocks_back",       # 12 s
    "tests/test_array_alloc.py::test_returned_array_outlives_its_function",           # 20 s
    "tests/test_memo.py::test_module_level_cached_functions",                         # 20 s
    "tests/test_np3_features.py::test_axis_forms",                                    # 17 s
    "tests/test_np3_features.py::test_histogram_edges_and_density",                   # 9 s
    "tests/test_np3_features.py::test_diff_prepend_append",                           # 8 s
    "tests/test_escaping_containers.py::test_containers_are_released",                # 17 s
    "tests/test_dicts_refs.py::test_entries_are_released",                            # 16 s
    "tests/test_zz_round_trip.py::test_compiled_functions_round_trip",                # 16 s
    "tests/test_blas.py::test_products_agree_with_numpy",                             # 16 s
    "tests/test_realistic_py3.py::test_nothing_leaks",                                # 14 s
    "tests/test_array_reductions.py::test_products_match_numpy",                      # 14 s
    "tests/test_gaps_reduce.py::test_dtype",                                          # 14 s
    "tests/test_numpy_signal_linalg.py::test_convolve_correlate",                     # 13 s
    "tests/test_numpy_signal_linalg.py::test_nonzero",                                # 9 s
    "tests/test_numpy_signal_linalg.py::test_polyval_trapezoid",                      # 9 s
    "tests/test_numpy_stats.py::test_nan_reductions",                                 # 12 s
    "tests/test_numpy_stats.py::test_histogram_floats",                               # 12 s
    "tests/test_numpy_stats.py::test_histogram_ints",                                 # 9 s
    "tests/test_numpy_stats.py::test_nan_reductions_special_cases",                   # 8 s
    "tests/test_benchmarks_smoke.py::test_workload_kernels_quick_run",                # 12 s
    "tests/test_lapack.py::test_rank_deficient_and_integer_inputs",                   # 11 s
    "tests/test_lapack.py::test_square_functions_agree_with_numpy",                   # 10 s
    "tests/test_gaps_numpy2.py::test_repeat_tile",                                    # 10 s
    "tests/test_gaps_numpy2.py::test_products_spaces_powers",                         # 9 s
    "tests/test_grad.py::test_heat_equation",                                         # 10 s
    "tests/test_grad.py::test_reductions",                                            # 8 s
    "tests/test_einsum.py::test_einsum",                                              # 8 s
    "tests/test_callee_typed.py::test_containers_are_released",                       # 7 s
    "tests/test_containers_more.py::test_inner_tables_are_released",                  # 7 s
    "tests/test_recursive_classes.py::test_trees_and_lists_are_released",             # 7 s
    "tests/test_gaps_numpy.py::test_kron",                                            # 11 s
    "tests/test_gaps_numpy.py::test_roll",                                            # 9 s
    "tests/test_gaps_numpy2.py::test_gcd_sets",                                       # 8 s
    "tests/test_realistic_py3.py::test_parsing_text",                                 # 8 s
    "tests/test_grad_stencils.py::test_array_written_in_the_loop",                    # 8 s
    "tests/test_grad_stencils.py::test_in_place_steps",                               # 7 s
    "tests/test_numpy_lib_audit.py::test_sort_argsort",                               # 13 s
    "tests/test_numpy_lib_audit.py::test_isclose",                                    # 12 s
    "tests/test_numpy_lib_audit.py::test_unique",                                     # 12 s
    "tests/test_grad_iteration_arrays.py::test_arrays_that_outlive_their_iteration",  # 11 s
    "tests/test_arena.py::test_dropped_images_give_their_blocks_back",                # 8 s
    "tests/test_memory.py::test_dropped_closures_free_what_they_captured",            # 8 s
    "tests/test_memory.py::test_functions_loaded_from_the_store_share_their_memory_maps",  # 6 s
    "tests/test_list_reflect.py::test_no_leaks",                                      # 7 s
    "tests/test_re.py::test_functions_and_methods",                                   # 14 s
    "tests/test_callee_typed.py::test_element_types",                                 # 7 s
    "tests/test_numpy_lib_audit.py::test_var_std",                                    # 6 s
    "tests/test_numpy_lib_audit.py::test_quantile_cases",                             # 4 s
    "tests/test_numpy_lib_audit.py::test_unique_nan_and_complex",                     # 4 s
    "tests/test_numpy_signal_linalg.py::test_solve_inv_det",                          # 5 s
    "tests/test_np4_features.py::test_nothing_leaks",                                 # 4 s
    "tests/test_grad.py::test_arrays_made_each_step_and_written_later",               # 4 s
}


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.nodeid.split("[")[0] in SLOW_IN_CI:
            item.add_marker(pytest.mark.slow)


_last_module = [None]


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    """Before the first test of each file: collect cyclic garbage, then freeze what is left
    (gc.freeze), so that later collections walk only what later files made. A worker keeps
    every compiled function its files made (difftest's cache, module-level kernels) and
    their IR: about two million objects by the end of the suite, and each full collection
    walked them all (over a second each; ~95 s of the suite's CPU time, ~38 s frozen).
    What a test makes and drops is still collected, so leak checks see it freed."""
    module = getattr(item, "module", None)
    if module is not _last_module[0]:
        _last_module[0] = module
        gc.collect()
        gc.freeze()
