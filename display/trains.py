"""Laying one train inside its lane: the pure geometry of tiles, markers and branches.

A lane is a rectangle between the hub and a seat. Inside it, a train runs outward from
the hub in columns; when a column is full the train bends and comes back in the next
one (a serpentine), so long trains stay inside their own lane. After a chicken-foot
double the remaining columns are shared by its branches. Positions are computed in
lane coordinates (u along the flow, away from the hub; v across it) and mapped to the
screen by `LaneFrame.to_screen`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from roundhouse.view import Branch, TrainView
from roundhouse.vocabulary import tile_pips

Rect = tuple[int, int, int, int]


@dataclass(frozen=True)
class LaneFrame:
    """A lane rectangle and the way its train flows, with the lane-to-screen mapping."""

    rect: Rect
    direction: str
    # Columns are taken from high v to low v when True, so the first column is the
    # one nearest the hub.
    columns_descending: bool

    @property
    def length(self) -> int:
        _, _, w, h = self.rect
        return h if self.direction in ("down", "up") else w

    @property
    def width(self) -> int:
        _, _, w, h = self.rect
        return w if self.direction in ("down", "up") else h

    def to_screen(self, u: int, v: int, du: int, dv: int) -> Rect:
        x, y, w, h = self.rect
        if self.direction == "down":
            return (x + v, y + u, dv, du)
        if self.direction == "up":
            return (x + v, y + h - u - du, dv, du)
        if self.direction == "right":
            return (x + u, y + v, du, dv)
        return (x + w - u - du, y + v, du, dv)

    @property
    def flow_vertical(self) -> bool:
        return self.direction in ("down", "up")

    @property
    def low_u_first(self) -> bool:
        """Whether lower u is the top (vertical flow) or left (horizontal flow) on screen."""
        return self.direction in ("down", "right")


@dataclass(frozen=True)
class Item:
    """One thing laid in a lane: a tile, the marker token or the "+N" of hidden tiles."""

    kind: str  # "tile", "marker" or "chip"
    a: int = 0
    b: int = 0
    hidden: int = 0
    double: bool = False

    @staticmethod
    def tile(a: int, b: int) -> Item:
        return Item("tile", a, b, 0, a == b)


@dataclass(frozen=True)
class Placed:
    item: Item
    u: int
    v: int
    du: int
    dv: int
    outward: bool  # the column runs away from the hub
    path: tuple[int, ...]  # branch indices from the trunk, () for the trunk
    index: int  # position of the tile in its trunk or branch


@dataclass
class Flow:
    """The result of laying one train: what went where, in the order laid."""

    placed: list[Placed] = field(default_factory=list)

    def tracks(self) -> list[list[tuple[int, int]]]:
        """The line through the centres of each trunk or branch, in lane coordinates;
        a branch's line starts at the double it grows from."""
        lines: dict[tuple[int, ...], list[tuple[int, int]]] = {}
        last: dict[tuple[int, ...], Placed] = {}
        for p in self.placed:
            centre = (p.u + p.du // 2, p.v + p.dv // 2)
            if p.path not in lines:
                parent = lines.get(p.path[:-1]) if p.path else None
                lines[p.path] = [parent[-1]] if parent else []
            before = last.get(p.path)
            if before is not None and before.outward != p.outward:
                # A bend: the line runs to the end of the column, across, and back.
                if before.outward:
                    turn = max(before.u + before.du, p.u + p.du) + 1
                else:
                    turn = min(before.u, p.u) - 1
                lines[p.path] += [(turn, before.v + before.dv // 2), (turn, centre[1])]
            lines[p.path].append(centre)
            last[p.path] = p
        return list(lines.values())


@dataclass(frozen=True)
class Node:
    """A line of tiles and the branches that grow from its last tile (chicken foot)."""

    tiles: tuple[tuple[int, int], ...]
    branches: tuple[Node, ...]
    first_index: int = 0  # how many tiles of this line are hidden before `tiles`

    @staticmethod
    def from_view(train: TrainView | Branch) -> Node:
        return Node(tuple(tile_pips(t) for t in train.tiles),
                    tuple(Node.from_view(b) for b in train.branches))

    def count(self) -> int:
        return len(self.tiles) + sum(b.count() for b in self.branches)


class _Full(Exception):
    """The train does not fit its lane at this tile size."""


@dataclass(frozen=True)
class Sizes:
    """Tile size for one layout: a tile is `long` x `short`, items are `gap` apart,
    columns `pitch` apart."""

    short: int
    long: int
    gap: int
    pitch: int

    @staticmethod
    def of(short: int) -> Sizes:
        gap = max(2, short // 6)
        return Sizes(short, 2 * short, gap, 2 * short + gap)

    # The marker token is as big as a double stood crosswise: an open train must be
    # seen from the far side of the table.
    def along(self, item: Item) -> int:
        if item.kind == "tile":
            return self.short if item.double else self.long
        return self.long

    def across(self, item: Item) -> int:
        if item.kind == "tile":
            return self.long if item.double else self.short
        return self.long


def _columns(frame: LaneFrame, sizes: Sizes) -> int:
    return max(0, (frame.width - 2 * sizes.gap + sizes.gap) // sizes.pitch)


def _run(
    items: list[tuple[Item, int]],
    path: tuple[int, ...],
    columns: list[int],
    u_range: tuple[int, int],
    outward: bool,
    sizes: Sizes,
    flow: Flow,
    start: int | None = None,
) -> tuple[int, int, bool]:
    """Lay `items` serpentine-wise in `columns` within `u_range`, from `start` (else
    the start of the first column); return (column slot used last, the next free u,
    direction)."""
    u_lo, u_hi = u_range
    slot = 0
    u = start if start is not None else (u_lo if outward else u_hi)
    for item, index in items:
        du = sizes.along(item)
        if du > u_hi - u_lo:
            raise _Full
        room = u_hi - u if outward else u - u_lo
        if du > room:
            slot += 1
            if slot >= len(columns):
                raise _Full
            outward = not outward
            u = u_lo if outward else u_hi
        pos = u if outward else u - du
        dv = sizes.across(item)
        v = columns[slot] + (sizes.long - dv) // 2
        flow.placed.append(Placed(item, pos, v, du, dv, outward, path, index))
        u = pos + du + sizes.gap if outward else pos - sizes.gap
    return slot, u, outward


def _lay_node(
    node: Node,
    lead: list[Item],
    path: tuple[int, ...],
    columns: list[int],
    u_range: tuple[int, int],
    outward: bool,
    sizes: Sizes,
    flow: Flow,
) -> None:
    items = [(item, -1) for item in lead] + _tile_items(node)
    slot, u, outward = _run(items, path, columns, u_range, outward, sizes, flow)
    if not node.branches:
        return
    rest = columns[slot + 1 :]
    u_lo, u_hi = u_range
    # The branches grow side by side from the double: on from it when the column has
    # room left, else back along the next columns.
    room = u_hi - u if outward else u - u_lo
    if room >= 2 * sizes.long + sizes.gap:
        sub_range = (u, u_hi) if outward else (u_lo, u)
        sub_outward = outward
    else:
        sub_range, sub_outward = u_range, not outward
    needs = [_need(branch, [], sub_range[1] - sub_range[0], sizes) for branch in node.branches]
    if len(rest) < sum(needs):
        # No room for the branches side by side: lay them one after another.
        remaining = columns[slot:]
        for i, branch in enumerate(node.branches):
            for sub_path, line in _lines(branch, (*path, i)):
                used, u, outward = _run(line, sub_path, remaining, u_range, outward, sizes,
                                        flow, u)
                remaining = remaining[used:]
        return
    first = 0
    for i, (branch, need) in enumerate(zip(node.branches, needs, strict=True)):
        # The last branch also gets the columns nobody needed.
        cols = rest[first:] if i == len(needs) - 1 else rest[first : first + need]
        _lay_node(branch, [], (*path, i), cols, sub_range, sub_outward, sizes, flow)
        first += need


def _tile_items(node: Node) -> list[tuple[Item, int]]:
    """The tiles of a node's own line, each with its index in that line."""
    return [(Item.tile(a, b), node.first_index + i) for i, (a, b) in enumerate(node.tiles)]


Line = tuple[tuple[int, ...], list[tuple[Item, int]]]


def _lines(node: Node, path: tuple[int, ...]) -> list[Line]:
    """A node's line of tiles, then its branches' lines, depth first."""
    out = [(path, _tile_items(node))]
    for i, branch in enumerate(node.branches):
        out += _lines(branch, (*path, i))
    return out


def lay_train(frame: LaneFrame, node: Node, lead: list[Item], sizes: Sizes) -> Flow | None:
    """Lay a whole train in its lane after the `lead` items (marker, "+N"), or None
    when it does not fit at this size."""
    available = _columns(frame, sizes)
    length = frame.length - 2 * sizes.gap
    # A short train runs straight down the middle of its lane; a long one fills a
    # block of columns centred in the lane, starting with the column nearest the hub.
    # Branches laid after a bend may need a column more than the estimate.
    for used in range(min(available, _need(node, lead, length, sizes)), available + 1):
        start = (frame.width - (used * sizes.pitch - sizes.gap)) // 2
        columns = [start + i * sizes.pitch for i in range(used)]
        if frame.columns_descending:
            columns = [frame.width - c - sizes.long for c in columns]
        flow = Flow()
        try:
            _lay_node(node, lead, (), columns, (sizes.gap, frame.length - sizes.gap), True,
                      sizes, flow)
        except _Full:
            if not node.branches:
                return None
            continue
        return flow
    return None


def _need(node: Node, lead: list[Item], length: int, sizes: Sizes) -> int:
    """How many columns a train takes: its own line, then each branch beside it."""
    cols, u = 1, 0
    for item in [*lead, *(item for item, _ in _tile_items(node))]:
        du = sizes.along(item)
        if du > length:
            return 10**6
        if u + du > length:
            cols, u = cols + 1, 0
        u += du + sizes.gap
    return cols + sum(_need(b, [], length, sizes) for b in node.branches)


def fits(frame: LaneFrame, node: Node, lead: list[Item], sizes: Sizes) -> bool:
    """Whether the train fits its lane at this size (cheaply, without laying it when it
    has no branches)."""
    if node.branches:
        return lay_train(frame, node, lead, sizes) is not None
    return _need(node, lead, frame.length - 2 * sizes.gap, sizes) <= _columns(frame, sizes)


def elide(node: Node, hidden: int) -> Node:
    """The train with its `hidden` tiles nearest the hub left out (shown as "+N")."""
    keep = node.tiles[hidden:]
    return Node(keep, node.branches, node.first_index + hidden)
