"""Graph algorithms the stages share: the call graph's recursion (the code generator) and the
steps' cycles (the linter) are the same question."""
from __future__ import annotations


def strongly_connected(graph: dict) -> list[list]:
    """The strongly connected components of a graph ({node: nodes it points to}; a node missing
    from it points nowhere), each a list, callees before their callers (Tarjan's algorithm,
    iterative: a chain of thousands of calls must not overflow Python's stack)."""
    index: dict = {}
    low: dict = {}
    on_stack: set = set()
    stack: list = []
    out: list = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(graph.get(root, ())))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(graph.get(nxt, ()))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        x = stack.pop()
                        on_stack.discard(x)
                        group.append(x)
                        if x == node:
                            break
                    out.append(group)
    return out
