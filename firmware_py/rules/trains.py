"""Trains: lines of laid tiles from the hub, with chicken-foot branches when a rule grows them."""

from __future__ import annotations

from firmware_py.rules.tiles import Laid, Tile, laid_against

# A path picks a node of a train: the branch index at each foot, outward from the hub.
Path = tuple[int, ...]
# An open end where a tile may go: (train index, branch number or None, number, path).
Target = tuple[int, int | None, int, Path]


class Train:
    """A seat's train (`owner` a seat) or the Mexican train (`owner` None).

    `tiles` run outward from the hub, each oriented as laid. Under chicken foot a double
    at the end grows three `branches` (trains of the same shape) that start from it.
    """

    __slots__ = ("_targets", "branches", "open", "open_end", "owner", "start", "tiles")
    owner: int | None
    tiles: tuple[Laid, ...]
    open: bool
    open_end: int
    start: int
    branches: tuple[Train, ...]
    # A train is laid on only by making a new one, so its open ends are worked out once.
    _targets: list[Target] | None

    def __init__(
        self,
        owner: int | None,
        start: int,
        tiles: tuple[Laid, ...] = (),
        open: bool = False,
        branches: tuple[Train, ...] = (),
    ) -> None:
        self.owner = owner
        self.start = start
        self.tiles = tiles
        self.open = open
        self.open_end = tiles[-1].second if tiles else start
        self.branches = branches
        self._targets = None

    def targets(self, index: int) -> list[Target]:
        """The open ends as targets of this train, which lies at `index` of the table."""
        targets = self._targets
        if targets is None:
            if not self.branches:
                targets = [(index, None, self.open_end, ())]
            else:
                targets = [(index, k, end, path) for k, (path, end) in enumerate(self.ends())]
            self._targets = targets
        return targets

    def ends(self) -> list[tuple[Path, int]]:
        """Every open end as (path, number), in branch order; one end without branches."""
        if not self.branches:
            return [((), self.open_end)]
        return [
            ((i, *path), end)
            for i, branch in enumerate(self.branches)
            for path, end in branch.ends()
        ]

    def node(self, path: Path) -> Train:
        train = self
        for i in path:
            train = train.branches[i]
        return train

    def lay(self, path: Path, tile: Tile, foot: bool) -> Train:
        """A new train with `tile` laid at the end `path`; a double grows a foot if `foot`."""
        if path:
            i = path[0]
            branch = self.branches[i].lay(path[1:], tile, foot)
            branches = (*self.branches[:i], branch, *self.branches[i + 1 :])
            return Train(self.owner, self.start, self.tiles, self.open, branches)
        laid = laid_against(tile, self.open_end)
        grown: tuple[Train, ...] = ()
        if foot and tile.is_double:
            grown = tuple(Train(self.owner, tile.high) for _ in range(3))
        return Train(self.owner, self.start, (*self.tiles, laid), self.open, grown)

    def with_open(self, open: bool) -> Train:
        train = Train(self.owner, self.start, self.tiles, open, self.branches)
        train._targets = self._targets
        return train

    def all_tiles(self) -> list[Tile]:
        """Every tile on the train, branches included."""
        out = [laid.tile for laid in self.tiles]
        for branch in self.branches:
            out += branch.all_tiles()
        return out

    def __repr__(self) -> str:
        shown = " ".join(map(str, self.tiles))
        return f"<Train owner={self.owner} open={self.open} [{shown}] branches={self.branches}>"
