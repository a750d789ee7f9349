"""Instances of a user's class as dict keys and set elements, by identity (frontend/dicts.py
`check_instance_key`), and dicts displayed with None values (`parent = {start: None}`):
each function runs in CPython and compiled, at every optimization level, with the same
answer; what compiled code cannot give as CPython does is a CompileError.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import script
from difftest import check_all_levels
from script.errors import CompileError


class Node:
    def __init__(self, name, cost):
        self.name = name
        self.cost = cost


class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    def __eq__(self, other):
        return self.x == other.x and self.y == other.y

    def __hash__(self):
        return hash((self.x, self.y))


def costs(n):
    nodes = [Node(str(i), i) for i in range(n)]
    dist = {nd: nd.cost * 2 for nd in nodes}
    return sum(dist[nd] for nd in nodes), len(dist), nodes[0] in dist, Node("x", 0) in dist


def visited_names(n, k):
    nodes = [Node(str(i), i) for i in range(n)]
    seen = set()
    for nd in nodes[:k]:
        seen.add(nd)
    seen.discard(nodes[0])
    return [nd.name for nd in nodes if nd in seen], len(seen)


def path_back(n):
    # breadth-first search's parents: the start's is None
    nodes = [Node(str(i), i) for i in range(n)]
    parent = {nodes[0]: None}
    for a, b in zip(nodes, nodes[1:]):
        parent[b] = a
    out = []
    cur = nodes[-1]
    while cur is not None:
        out.append(cur.name)
        cur = parent[cur]
    return out


def keys_in_order(n):
    nodes = [Node(str(i), i) for i in range(n)]
    d = {nd: [nd.cost] for nd in reversed(nodes)}
    del d[nodes[0]]
    return [k.name for k in d], [v for v in d.values()], d.get(nodes[0]) is None


def missing_key(n):
    nodes = [Node(str(i), i) for i in range(n)]
    d = {nodes[0]: 1}
    return d[nodes[-1]]


def int_parents(n):
    parent = {0: None}
    for i in range(1, n):
        parent[i] = i - 1
    return parent


def none_values():
    return {1: None, 2: None}


def set_of_nodes(n):
    return [nd.name for nd in {Node(str(i), i) for i in range(n)}]


def pop_node(n):
    s = {Node(str(i), i) for i in range(n)}
    return s.pop().name


def points(n):
    return {Point(i, i): i for i in range(n)}


@settings(max_examples=10, deadline=None)
@given(st.integers(1, 8), st.integers(0, 8))
def test_instances_as_keys_against_cpython(n, k):
    check_all_levels(costs, n)
    check_all_levels(visited_names, n, k)
    check_all_levels(path_back, n)
    check_all_levels(keys_in_order, n)
    check_all_levels(int_parents, n)


def test_a_missing_instance_key_is_a_key_error():
    with pytest.raises(KeyError) as e:
        script.script(missing_key)(3)
    # CPython's argument is the instance, whose repr holds its address: here, that text without it
    assert e.value.args == ("<test_instance_keys.Node object>",)
    check_all_levels(none_values)


def test_a_returned_dict_keeps_its_instances():
    d = script.script(lambda n: {nd: nd.cost for nd in [Node(str(i), i) for i in range(n)]})(3)
    assert [type(k) for k in d] == [Node] * 3 and [k.name for k in d] == ["0", "1", "2"]
    assert list(d.values()) == [0, 1, 2]


@pytest.mark.parametrize("fn, text", [
    (set_of_nodes, "iterating a set of instances"),
    (pop_node, "set.pop() of a set of instances"),
    (points, "'Point', which defines __eq__ or __hash__"),
])
def test_what_depends_on_addresses_or_user_equality_is_a_compile_error(fn, text):
    with pytest.raises(CompileError, match=text.replace("(", r"\(").replace(")", r"\)")):
        script.script(fn)(3)
