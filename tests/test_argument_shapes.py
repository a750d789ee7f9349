"""Arguments from Python of the shapes real code passes (measured on a corpus of doctested
functions, benchmarks/doctest_corpus.py): each runs in CPython and compiled on copies of
the same arguments, and the results, the exceptions and the arguments after the call are
compared item by item with their types (test_table_arguments.check).

Dict and set arguments whose keys, or values, are of several kinds that one type holds each
as it is: ints and floats (`{0.5: [1], 1: [2]}`, `{"a": 1, "b": 2.5}`), lists of ints
among lists of floats (`{0: [1.0, 3.0], 1.0: [0, 2.0]}`). List arguments whose tuples hold
ints and floats at one position (`[(0, 1, 4), (1, 2, 0.5)]`), and lists of named tuples
(`[Particle(1.5, 4, 3.4, 4), ...]`)."""

from collections import namedtuple

import pytest
from hypothesis import given, settings, strategies as st

import script
from test_table_arguments import check


def is_bipartite(graph):
    """graphs/check_bipatrite.py's BFS (a list for its deque), whose doctests pass float and
    int vertices."""
    visited = {}
    for node in graph:
        if node in visited:
            continue
        visited[node] = 0
        queue = [node]
        while queue:
            cur = queue.pop(0)
            for nb in graph.get(cur, []):
                if nb not in visited:
                    visited[nb] = 1 - visited[cur]
                    queue.append(nb)
                elif visited[nb] == visited[cur]:
                    return False
    return True


def items_of(d):
    return [(k, v) for k, v in d.items()]


def total(d):
    s = 0
    for k in d:
        s += d[k]
    return s


def double_values(d, key):
    for k in d:
        d[k] = d[k] * 2
    d[key] = 1
    return len(d)


def append_to(g, u, x):
    g[u].append(x)
    return g[u]


def lookup(d, k):
    return d[k]


def members(s, x):
    s.add(x)
    return sorted(s)


@pytest.mark.parametrize("fn, args", [
    (is_bipartite, ({0.9: [1, 3], 1: [0, 2], 2: [1, 3], 3: [0, 2]},)),
    (is_bipartite, ({0: [1.0, 3.0], 1.0: [0, 2.0], 2.0: [1.0, 3.0], 3.0: [0, 2.0]},)),
    (is_bipartite, ({0: [1, 2], 1: [0.5], 0.5: [1]},)),
    (items_of, ({"a": 1, "b": 2.5, "c": -3},)),
    (items_of, ({0.5: "x", 1: "y", 2.0: "z"},)),
    (items_of, ({"a": [1], "b": [2.5], "c": []},)),
    (items_of, ({"a": [[1]], "b": [[2.5], []]},)),
    (total, ({"a": 1, "b": 2.5},)),
    (total, ({"a": 2**62, "b": 2**62, "c": 0.5},)),
    (double_values, ({"a": 1, "b": 2.5}, "new")),
    (double_values, ({1: 1.5, 2.5: 3}, 1.0)),
    (append_to, ({1: [2], 2: [0.5]}, 1, 0.25)),
    (append_to, ({1: [2], 2: [0.5]}, 2, 7)),
    (lookup, ({1: "a", 2.5: "b"}, 1.0)),
    (lookup, ({1: "a", 2.5: "b"}, 2)),
    (members, ({1, 2.5}, 1.0)),
    (members, ({1, 2.5}, 3)),
])
def test_tables_of_ints_and_floats_against_cpython(fn, args):
    check(fn, *args)


def test_the_callers_lists_stay_themselves():
    g = {1: [2], 2: [0.5]}
    row = g[1]
    out = script.script(append_to)(g, 1, 0.25)
    assert out is row and g[1] is row and row == [2, 0.25] and type(row[0]) is int


def test_kinds_no_type_holds_are_still_refused():
    # (True is 1 to a dict, but not to the caller once written back: bools and ints apart)
    for d in ({True: 1, 2: 3}, {"a": 1, "b": "x"}, {"a": 1, "b": [1]}, {"a": [1], "b": 1.5}):
        with pytest.raises(TypeError, match="argument 'd' of type dict is not supported"):
            script.script(items_of)(d)


def test_a_list_of_arrays_is_refused_at_the_call():
    """Typing a list argument never asks an element its truth (an array's is an error)."""
    import numpy as np
    with pytest.raises(TypeError, match="argument 'd' of type list is not supported"):
        script.script(items_of)([np.arange(2), np.arange(2)])


NUMBERS = st.one_of(st.integers(-4, 4), st.sampled_from([0.5, -1.5, 2.0, 3.0]))
KEYS = [-4, -1, 0, 1, 2, 3, 0.5, -1.5, 2.0, 3.0, 1.0]       # (a list of num: tuples hold one kind)
OPS = st.lists(st.tuples(st.sampled_from("adgm"), st.integers(0, len(KEYS) - 1)), min_size=1, max_size=20)


def num_ops(d, keys, ops):
    n = 0
    for op, i in ops:
        k = keys[i]
        if op == "a":
            d[k] = k * 2
        elif op == "d":
            if k in d:
                del d[k]
        elif op == "g":
            n += d.get(k, -1)
        elif op == "m" and k in d:
            d[k] = d[k] + 0.5
    return n


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(NUMBERS, NUMBERS, max_size=8), OPS)
def test_dicts_of_ints_and_floats_against_cpython(d, ops):
    d.update({0.5: 1, 1: 0.5})          # keys and values of both kinds: a dict[num, num]
    check(num_ops, d, KEYS, ops)


# List arguments whose tuples hold ints and floats at one position (weighted edges, points):
# that position is a num, each item kept as it is and written back with its own type.

def relax(edges, n):
    """graphs/bellman_ford.py's relaxation over an edge list."""
    dist = [float("inf")] * n
    dist[0] = 0
    for _ in range(n - 1):
        for u, v, w in edges:
            if dist[u] + w < dist[v]:
                dist[v] = dist[u] + w
    return dist


def reverse_doubled(edges):
    for i in range(len(edges)):
        u, v, w = edges[i]
        edges[i] = (v, u, w * 2)
    edges.append((9, 9, 0.5))
    return len(edges)


def nested_points(ps):
    return [(x, y) for x, (y, z) in ps], sum(z for _, (_, z) in ps)


@pytest.mark.parametrize("fn, args", [
    (relax, ([(0, 1, 4), (1, 2, 0.5), (0, 2, 5)], 3)),
    (relax, ([(0, 1, 4.0), (1, 2, 1)], 3)),
    (reverse_doubled, ([(0, 1, 4), (1, 2, 0.5)],)),
    (nested_points, ([(1, (2.5, 3)), (2.0, (1, 0.5))],)),
    (nested_points, ([(1, (2, 3)), (2, (1, 0.5))],)),
])
def test_tuples_of_ints_and_floats_against_cpython(fn, args):
    check(fn, *args)


def test_tuples_of_other_kinds_are_still_refused():
    for edges in ([(0, 1, True), (1, 2, 0.5)], [(0, 1, None), (1, 2, 0.5), (1, 2, 3)],
                  [(0, 1, "a"), (1, 2, 0.5)]):
        with pytest.raises(TypeError, match="argument 'edges' of type list is not supported"):
            script.script(relax)(edges, 3)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), NUMBERS), max_size=8))
def test_edge_lists_against_cpython(edges):
    edges = edges + [(0, 1, 1), (1, 2, 0.5)]        # (both kinds at the weight: a num)
    check(relax, edges, 4)
    check(reverse_doubled, edges)


# Lists of named tuples (physics/center_of_mass.py's particles): typed position by position
# as lists of tuples are, each item given back as an instance of its class.

Particle = namedtuple("Particle", "x y z mass")
Coord3D = namedtuple("Coord3D", "x y z")
Edge = namedtuple("Edge", "u v")
Other = namedtuple("Other", "u v")


def center_of_mass(particles):
    if not particles:
        raise ValueError("No particles provided")
    if any(particle.mass <= 0 for particle in particles):
        raise ValueError("Mass of all particles must be greater than 0")
    total_mass = sum(particle.mass for particle in particles)
    x = round(sum(p.x * p.mass for p in particles) / total_mass, 2)
    y = round(sum(p.y * p.mass for p in particles) / total_mass, 2)
    z = round(sum(p.z * p.mass for p in particles) / total_mass, 2)
    return Coord3D(x, y, z)


def first_and_sum(edges):
    return edges[0], sum(e.u for e in edges)


def flip_first(edges):
    edges[0] = Edge(edges[0].v, edges[0].u)
    edges.append(Edge(7, 8))
    return edges


@pytest.mark.parametrize("fn, args", [
    (center_of_mass, ([Particle(1.5, 4, 3.4, 4), Particle(5, 6.8, 7, 8.1), Particle(9.4, 10.1, 11.6, 12)],)),
    (center_of_mass, ([Particle(1, 2, 3, 4), Particle(5, 6, 7, 8), Particle(9, 10, 11, 12)],)),
    (center_of_mass, ([Particle(1, 2, 3, 4), Particle(5, 6, 7, -8)],)),
    (first_and_sum, ([Edge(1, "a"), Edge(2, "b")],)),
    (first_and_sum, ([Edge(1, (2, 3.5)), Edge(2, (1, 0))],)),
    (flip_first, ([Edge(1, 2), Edge(3, 4)],)),
])
def test_lists_of_named_tuples_against_cpython(fn, args):
    check(fn, *args)


def test_lists_of_named_tuples_stay_the_callers():
    edges = [Edge(1, 2), Edge(3, 4)]
    out = script.script(flip_first)(edges)
    assert out is edges and edges == [(2, 1), (3, 4), (7, 8)] and all(type(e) is Edge for e in edges)


def test_lists_of_other_tuples_are_still_refused():
    for edges in ([Edge(1, 2), Other(3, 4)], [Edge(1, 2), (3, 4)], [(3, 4), Edge(1, 2)]):
        with pytest.raises(TypeError, match="argument 'edges' of type list is not supported"):
            script.script(first_and_sum)(edges)


# Instances whose fields hold lists of instances of one class (a tree node's children, `[]`
# in the leaves; a graph node's neighbours): copied in through the call's memo, the caller's
# lists and instances written back (test_instance_arguments.run_both compares the object
# graphs after the call, shared objects included).

class Kid:
    def __init__(self, v):
        self.v = v
        self.children = []


class Vertex:
    def __init__(self, name):
        self.name = name
        self.seen = False
        self.out = []


def subtree_total(n):
    s = n.v
    for c in n.children:
        s += subtree_total(c)
    return s


def adopt(n, v):
    n.children.append(Kid(v))
    n.children[0].v += 100
    n.children[-1].children.append(Kid(v + 1))
    return len(n.children)


def reach(start):
    todo, count = [start], 0
    while todo:
        u = todo.pop()
        if u.seen:
            continue
        u.seen = True
        count += 1
        for w in u.out:
            todo.append(w)
    return count


def kid_tree(shape):
    """A tree of Kids: `shape` lists each new node's parent among those made before it."""
    nodes = [Kid(0)]
    for i, p in enumerate(shape):
        k = Kid(i + 1)
        nodes[p % len(nodes)].children.append(k)
        nodes.append(k)
    return nodes[0]


def vertex_cycle(n):
    vs = [Vertex(str(i)) for i in range(n)]
    for i, v in enumerate(vs):
        v.out = [vs[(i + 1) % n], vs[(i * 2) % n]]
    return vs[0]


def test_fields_holding_lists_of_instances_against_cpython():
    from test_instance_arguments import run_both
    for fn, args in ((subtree_total, (kid_tree([0, 0, 1, 1, 2]),)), (subtree_total, (Kid(5),)),
                     (adopt, (kid_tree([0, 1, 2]), 7)), (adopt, (kid_tree([0, 0]), -1)),
                     (reach, (vertex_cycle(5),)), (reach, (vertex_cycle(1),))):
        want, got = run_both(fn, *args)
        assert want == got, (fn.__name__, want, got)


def test_the_callers_children_stay_themselves():
    root = kid_tree([0, 0, 1])
    kids, first = root.children, root.children[0]
    assert script.script(adopt)(root, 9) == 3
    assert root.children is kids and kids[0] is first and first.v == 101 and type(kids[2]) is Kid


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 20), max_size=10), st.integers(-5, 5))
def test_trees_of_children_against_cpython(shape, v):
    from test_instance_arguments import run_both
    for fn, args in ((subtree_total, (kid_tree(shape),)), (adopt, (kid_tree(shape + [0]), v))):
        want, got = run_both(fn, *args)
        assert want == got, (fn.__name__, shape, want, got)


def test_lists_of_several_classes_in_a_field_are_refused():
    root = Kid(1)
    root.children = [Kid(2), Vertex("x")]
    with pytest.raises(TypeError, match="field 'children' of Kid holds a list compiled code does not take.*"
                                        "a flat list of instances of one class"):
        script.script(subtree_total)(root)


def test_refused_fields_say_why():
    """Instances in lists inside lists stay refused; a dict or an array in the field is taken
    (tests/test_instance_fields.py) and gives CPython's answer, its error included."""
    import numpy as np
    from difftest import compiled, outcome
    root = Kid(1)
    root.children = [[Kid(1)]]
    with pytest.raises(TypeError, match="field 'children' of Kid holds a .* compiled code does not take "
                                        "from Python \\(.*not inside other containers"):
        script.script(subtree_total)(root)
    for value in ({"a": 1}, np.zeros(2)):
        roots = [Kid(1), Kid(1)]
        for r in roots:
            r.children = value.copy()
        want, got = outcome(subtree_total, (roots[0],)), outcome(compiled(subtree_total), (roots[1],))
        if isinstance(value, np.ndarray):   # (an array's item is a Python float: docs/differences.md)
            want = want[:2] + (want[2].replace("numpy.float64", "float"),) + want[3:]
        assert want[:3] == got[:3], (value, want, got)
