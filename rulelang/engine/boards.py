"""Board geometries: the cells of a declared board, their neighbours, directions and drawing.

A board is declared in the rule file by shape and size (`board field: octagons(7, 7)`);
everything here is computed once per game from that declaration and then only looked up.
Cells are numbered 0..n-1 and named like chess squares: column letter, row number, with
row 1 at the bottom. Shapes:

- squares(w, h)  — square cells, 4 neighbours (8 with the `diagonal` modifier);
- hexes(w, h)    — pointy-top hexagons in offset rows, odd rows (2nd, 4th, …) shifted half a
                   cell right; 6 neighbours;
- rhombus(w, h)  — pointy-top hexagons in a rhombus (the board of Hex): each row half a cell
                   right of the one below; 6 neighbours;
- hexagon(n)     — pointy-top hexagons filling a hexagon of side n (2n-1 rows and columns,
                   named like the rhombus: columns run up and to the right);
- octagons(w, h) — octagons with a square socket at every interior point where four meet.
                   Octagons neighbour octagons orthogonally; a socket touches the 4 octagons
                   around it (and an octagon its up to 4 corner sockets). Socket `bc23` lies
                   between columns b–c and rows 2–3.
"""
from __future__ import annotations

import string
from collections import deque

from ..core.errors import RuleFault
from ..ir.spec import board_directions, board_layout

SHAPES = {"squares": ("square",), "hexes": ("hex",), "rhombus": ("hex",), "hexagon": ("hex",),
          "octagons": ("octagon", "socket")}
ORTHOGONAL = {"n": (0, 1), "s": (0, -1), "e": (1, 0), "w": (-1, 0)}
DIAGONAL = {"ne": (1, 1), "nw": (-1, 1), "se": (1, -1), "sw": (-1, -1)}
# axial hexagons (rhombus, hexagon): a cell's column runs up and to the right
AXIAL = {"e": (1, 0), "w": (-1, 0), "ne": (0, 1), "nw": (-1, 1), "se": (1, -1), "sw": (0, -1)}
OPPOSITE = {"n": "s", "s": "n", "e": "w", "w": "e", "ne": "sw", "sw": "ne", "nw": "se", "se": "nw"}
MAX_SIDE = 26
MAX_HEXAGON_SIDE = 13                                 # 25 columns: one letter each


def col_name(c: int) -> str:
    return string.ascii_lowercase[c - 1]


class Geometry:
    def __init__(self, shape: str, width: int, height: int, diagonal: bool = False, cell_width: int = 3):
        if shape not in SHAPES:
            raise ValueError(f"unknown board shape `{shape}` (shapes: {', '.join(SHAPES)})")
        if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
            raise ValueError(f"a board side must be 1..{MAX_SIDE}, not {width} x {height}")
        given = (width, height)
        if shape == "hexagon":                         # hexagon(n): the side; 2n-1 rows and columns
            if width > MAX_HEXAGON_SIDE:
                raise ValueError(f"a hexagon's side must be 1..{MAX_HEXAGON_SIDE}, not {width}")
            width = height = 2 * width - 1
        self.shape, self.width, self.height = shape, width, height
        self.cell_width = cell_width                   # characters a cell's drawing may take
        self.axial = shape in ("rhombus", "hexagon")
        self.names: list[str] = []
        self.kinds: list[str] = []
        self.rows: list[int] = []
        self.cols: list[int] = []
        self.by_name: dict[str, int] = {}
        self.at: dict[tuple, int] = {}                 # (kind, col, row) -> cell
        main = SHAPES[shape][0]
        for name, kind, col, row in board_layout(shape, *given):
            self._add(name, kind, col, row)
        self.directions = board_directions(shape, diagonal)
        self._link(main)
        self._edges(main)
        self._distances: dict[int, list[int]] = {}
        self._lines: dict[tuple, list[int]] = {}
        self._between: dict[tuple, list[int]] = {}
        # each cell's touching cells (those of its own kind: neighbours_of), for walks
        self.touching: list[list[int]] = [self.neighbours_of(c) for c in range(len(self.names))]

    def _link(self, main: str) -> None:
        """steps[d][cell]: the next cell in direction d; neighbours[kind][cell]: the touching cells."""
        shape, n = self.shape, len(self.names)
        self.steps: dict[str, list] = {d: [None] * n for d in self.directions}
        for cell in range(n):
            if self.kinds[cell] != main:
                continue
            for d in self.directions:
                dc, dr = self._delta(d, self.rows[cell])
                self.steps[d][cell] = self.at.get((main, self.cols[cell] + dc, self.rows[cell] + dr))
        # neighbours[kind][cell]: the cells of that kind next to `cell`
        self.neighbours: dict[str, list[list[int]]] = {k: [[] for _ in range(n)] for k in SHAPES[shape]}
        for cell in range(n):
            if self.kinds[cell] == main:
                self.neighbours[main][cell] = [t for d in self.directions if (t := self.steps[d][cell]) is not None]
        if shape == "octagons":
            for s in range(n):
                if self.kinds[s] != "socket":
                    continue
                c, r = self.cols[s], self.rows[s]
                corners = [self.at[("octagon", c + dc, r + dr)] for dc, dr in ((0, 0), (1, 0), (0, 1), (1, 1))]
                self.neighbours["octagon"][s] = corners
                for o in corners:
                    self.neighbours["socket"][o].append(s)

    def _edges(self, main: str) -> None:
        shape, width, height, n = self.shape, self.width, self.height, len(self.names)
        # edges[d]: the cells along the board's d side. A board of rows and columns has four:
        # n (the top row), s, e (the last column), w; a hexagon six: n, s and its slanted sides
        # ne, nw, se, sw (the cells with no neighbour that way, nor straight east or west)
        mains = [c for c in range(n) if self.kinds[c] == main]
        if shape == "hexagon":
            self.edges = {"n": [c for c in mains if self.rows[c] == height],
                          "s": [c for c in mains if self.rows[c] == 1]}
            for d in ("ne", "nw", "se", "sw"):
                side = "e" if d[1] == "e" else "w"
                self.edges[d] = [c for c in mains if self.steps[d][c] is None and self.steps[side][c] is None]
        else:
            self.edges = {"n": [c for c in mains if self.rows[c] == height],
                          "s": [c for c in mains if self.rows[c] == 1],
                          "e": [c for c in mains if self.cols[c] == width],
                          "w": [c for c in mains if self.cols[c] == 1]}

    def _add(self, name: str, kind: str, col: int, row: int) -> None:
        cell = len(self.names)
        self.names.append(name)
        self.kinds.append(kind)
        self.cols.append(col)
        self.rows.append(row)
        self.by_name[name] = cell
        self.at[(kind, col, row)] = cell

    def _delta(self, d: str, row: int) -> tuple[int, int]:
        if self.axial:
            return AXIAL[d]
        if self.shape != "hexes":
            return ORTHOGONAL.get(d) or DIAGONAL[d]
        shifted = (row - 1) % 2 == 1                  # odd rows (0-based) sit half a cell right
        if d == "e":
            return (1, 0)
        if d == "w":
            return (-1, 0)
        dr = 1 if d[0] == "n" else -1
        if d[1] == "e":
            return (1 if shifted else 0, dr)
        return (0 if shifted else -1, dr)

    @property
    def size(self) -> int:
        return len(self.names)

    def neighbours_of(self, cell: int, kind: str | None = None) -> list[int]:
        kind = kind or self.kinds[cell]
        table = self.neighbours.get(kind)
        return table[cell] if table is not None else []

    def step(self, cell: int, d: str):
        table = self.steps.get(d)
        return table[cell] if table is not None else None

    def line(self, cell: int, d: str, n: int) -> list[int]:
        out: list[int]
        out, table = [], self.steps.get(d)
        if table is None:
            return out
        while len(out) < n:
            cell = table[cell]
            if cell is None:
                break
            out.append(cell)
        return out

    def at_col_row(self, col, row):
        """The cell at column `col` and row `row` (both from 1), or None."""
        if type(col) is not int or type(row) is not int:
            raise RuleFault(f"a column and a row are numbers, not {col!r} and {row!r}")
        return self.at.get((SHAPES[self.shape][0], col, row))

    def edge(self, d) -> list[int]:
        cells = self.edges.get(d) if isinstance(d, str) else None
        if cells is None:
            raise RuleFault(f"the board has no {d!r} edge (edges: {', '.join(sorted(self.edges))})")
        return cells

    def line_in(self, cell, d, within) -> list[int]:
        """The cells in a straight line from `cell` (not it) towards d, as long as they are in `within`."""
        table = self.steps.get(d)
        if table is None or cell is None:
            return []
        inside = set(within)
        out = []
        cell = table[cell]
        while cell is not None and cell in inside:
            out.append(cell)
            cell = table[cell]
        return out

    def named(self, name) -> int:
        """The cell with this name; a rule error if there is none."""
        cell = self.by_name.get(name) if isinstance(name, str) else None
        if cell is None:
            raise RuleFault(f"the board has no cell named {name!r}")
        return cell

    def line_of(self, cell: int, d: str, n: int) -> list[int]:
        """`line`, memoised: the same (shared, never modified) list for the same arguments."""
        key = (cell, d, n)
        out = self._lines.get(key)
        if out is None:
            out = self.line(cell, d, n)
            if len(self._lines) < 100_000:
                self._lines[key] = out
        return out

    def between_of(self, a: int, b: int) -> list[int]:
        """`between`, memoised like `line_of`."""
        key = (a, b)
        out = self._between.get(key)
        if out is None:
            out = self.between(a, b)
            self._between[key] = out
        return out

    def between(self, a: int, b: int) -> list[int]:
        """The cells strictly between a and b when they lie on one straight line, else []."""
        path: list[int]
        for d in self.directions:
            path, cell = [], self.steps[d][a]
            while cell is not None:
                if cell == b:
                    return path
                path.append(cell)
                cell = self.steps[d][cell]
        return []

    def direction(self, a: int, b: int):
        for d in self.directions:
            cell = self.steps[d][a]
            while cell is not None:
                if cell == b:
                    return d
                cell = self.steps[d][cell]
        return None

    def distance(self, a: int, b: int) -> int:
        """Steps between two cells of the same kind over its neighbours; -1 if unreachable."""
        dist = self._distances.get(a)
        if dist is None:
            dist = [-1] * self.size
            dist[a] = 0
            queue = deque([a])
            while queue:
                x = queue.popleft()
                for y in self.neighbours_of(x):
                    if dist[y] < 0:
                        dist[y] = dist[x] + 1
                        queue.append(y)
            self._distances[a] = dist
        return dist[b]

    def draw(self, glyph) -> str:
        """Text drawing, top row first, labelled; `glyph(cell)` gives up to 3 characters."""
        w = self.cell_width + 1
        if self.axial:
            return _axial_drawing(self, glyph, w)
        out = ["    " + "".join(col_name(c).center(w) for c in range(1, self.width + 1)).rstrip()]
        for row in range(self.height, 0, -1):
            indent = " " * (w // 2) if self.shape == "hexes" and (row - 1) % 2 == 1 else ""
            cells = "".join(glyph(self.at[(SHAPES[self.shape][0], col, row)]).center(w)
                            for col in range(1, self.width + 1))
            out.append(f"{row:>3} {indent}{cells}".rstrip())
            if self.shape == "octagons" and row > 1:
                sockets = "".join(glyph(self.at[("socket", col, row - 1)]).center(w)
                                  for col in range(1, self.width))
                out.append("    " + " " * (w // 2) + sockets.rstrip())
        return "\n".join(out)


def _axial_drawing(g: "Geometry", glyph, w: int) -> str:
    """Each row half a cell right of the one below; the column letters along the top and the
    bottom rows (a column runs up and to the right)."""
    offset = {c: (g.cols[c] - 1) * w + (g.rows[c] - 1) * w // 2 for c in range(g.size)}
    left = min(offset.values())

    def letters(row: int) -> str:
        cells = sorted((c for c in range(g.size) if g.rows[c] == row), key=lambda c: g.cols[c])
        line = ""
        for c in cells:
            line = line.ljust(offset[c] - left) + col_name(g.cols[c]).center(w)
        return "    " + line.rstrip()
    out = [letters(g.height)]
    for row in range(g.height, 0, -1):
        line = ""
        for c in sorted((c for c in range(g.size) if g.rows[c] == row), key=lambda c: g.cols[c]):
            line = line.ljust(offset[c] - left) + glyph(c).center(w)
        out.append(f"{row:>3} {line}".rstrip())
    out.append(letters(1))
    return "\n".join(out)


def reachable(geometry: Geometry, start: int, steps: int, passable) -> list[int]:
    """Cells reachable from `start` in 1..steps moves over neighbours, every cell entered
    on the way satisfying `passable(cell)` (the last one too); breadth-first, nearest first."""
    seen = {start}
    frontier = [start]
    out = []
    touching = geometry.touching
    for _ in range(steps):
        if not frontier:                   # (nothing new last round: more steps find nothing; a
            break                          # huge count must not spin on an empty frontier)
        nxt = []
        for x in frontier:
            for y in touching[x]:
                if y not in seen:
                    seen.add(y)            # (asked once: a cell that may not be entered now never may)
                    if passable(y):
                        nxt.append(y)
                        out.append(y)
        frontier = nxt
    return out
