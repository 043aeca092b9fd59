"""Writes the sample public views (docs/view.md) of this folder.

    python tests/views/make_views.py

Each view is a situation the screens must draw: every table size, empty and full
boards, long trains, pending doubles, chicken-foot branches, open and tracked hands,
the lobby, a round and a game that are over, a reader offline. Trains are real chains
of tiles from the round's engine, each tile used once, so the files also serve as
examples for the service that builds the views. `tests/display` checks that the files
are what this script writes.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent

NAMES = (
    "Bo", "Cyrus", "Dalia", "Eleni", "Farid", "Gintarė", "Hana", "Ioannis",
    "Jurgis", "Kalyani", "Layla", "Matas", "Nikos", "Venkata Lakshmi",
)
# Set by player count, as the classic preset deals (docs/rules.md, "Deals").
SETS = {2: 9, 3: 9, 4: 12, 5: 12, 6: 12, 7: 12, 8: 12, 9: 15, 10: 15, 11: 15, 12: 15,
        13: 18, 14: 18}

View = dict[str, Any]


def msg(message_id: str, **args: Any) -> dict[str, Any]:
    """A message of the view (docs/view.md, "Messages")."""
    return {"id": message_id, "args": args}


NO_MATCH = msg("rules.no_match", end=6, train="0")


class Box:
    """The tiles of one set not yet on the table."""

    def __init__(self, top: int, rng: random.Random) -> None:
        self.free = {frozenset((a, b)) for a in range(top + 1) for b in range(a + 1)}
        self.rng = rng

    def take(self, a: int, b: int) -> str:
        self.free.discard(frozenset((a, b)))
        return f"{a}-{b}"

    def degree(self, n: int) -> int:
        return sum(1 for t in self.free if n in t)

    def chain(
        self, start: int, length: int, doubles: tuple[int, ...] = ()
    ) -> tuple[list[str], int]:
        """`length` tiles laid from the open end `start`; a double at each index of
        `doubles` when it is still free. Returns the tiles and the new open end."""
        tiles, end = [], start
        for i in range(length):
            if i in doubles and frozenset((end,)) in self.free:
                tiles.append(self.take(end, end))
                continue
            options = [o for o in range(19) if frozenset((end, o)) in self.free and o != end]
            if not options:
                break
            # Head for the numbers with the most tiles left, so long trains do not
            # strand themselves on an exhausted number.
            nxt = max(options, key=lambda o: (self.degree(o), self.rng.random()))
            tiles.append(self.take(end, nxt))
            end = nxt
        return tiles, end


def base(seats: int, *, phase: str = "play", rnd: int = 3, seed: int = 1,
         top: int = 0) -> tuple[View, Box]:
    """A view of `seats` seats in round `rnd` of a double-`top` game (the classic deal's
    set unless given), with scores for the rounds before."""
    top = top or SETS[seats]
    rng = random.Random(seed * 100 + seats)
    box = Box(top, rng)
    engine_value = min(top, max(0, top + 1 - rnd))
    engine = f"{engine_value}-{engine_value}"
    box.take(engine_value, engine_value)
    played = max(0, rnd - 1)
    # Each round one seat went out (0); the others kept a few tiles.
    scores = [[rng.randint(2, 70) for _ in range(seats)] for _ in range(played)]
    for row in scores:
        row[rng.randrange(seats)] = 0
    totals = [sum(col) for col in zip(*scores, strict=True)] if scores else [0] * seats
    view: View = {
        "version": 1,
        "language": "en",
        "wall_language": "en",
        "seq": 40 + seats,
        "phase": phase,
        "preset": "classic",
        "options": {"engine": "holder", "first_turn": "train", "double_follow": "anywhere",
                    "chicken_foot": False, "double_blank": 50},
        "hand_mode": "open",
        "set": top,
        "round": rnd,
        "rounds": top + 1,
        "engine": engine if phase != "lobby" else None,
        "engine_laid": phase not in ("lobby", "deal"),
        "turn": None,
        "seats": [
            {"seat": i, "name": NAMES[i], "joined": True, "hand": 8, "one_tile": False,
             "marker_expected": False, "marker_sensed": False, "total": totals[i],
             "language": "en"}
            for i in range(seats)
        ],
        "trains": [],
        "pending_doubles": [],
        "boneyard": 0,
        "prompt": None,
        "rejection": None,
        "alerts": [],
        "scores": scores,
        "round_engines": [f"{top + 1 - r}-{top + 1 - r}" for r in range(1, played + 1)],
        "totals": totals,
        "ranking": None,
        "readers": [{"pad": str(i), "online": True, "reason": None} for i in range(seats)]
        + [{"pad": "mexican", "online": True, "reason": None}],
        "last_play": None,
        "revealed": None,
        "went_out": None,
    }
    return view, box


def lay(view: View, box: Box, lengths: list[int], *, open_seats: tuple[int, ...] = (),
        doubles: dict[int | str, tuple[int, ...]] | None = None, mexican: int = 0) -> None:
    """Give every seat a train of the given length, and the Mexican train `mexican` tiles."""
    engine = int(view["engine"].split("-")[0])
    doubles = doubles or {}
    trains = []
    for seat, length in enumerate(lengths):
        tiles, _ = box.chain(engine, length, doubles.get(seat, ()))
        is_open = seat in open_seats
        trains.append({"id": str(seat), "owner": seat, "name": view["seats"][seat]["name"],
                       "tiles": tiles, "open": is_open, "branches": []})
        view["seats"][seat]["marker_expected"] = is_open
        view["seats"][seat]["marker_sensed"] = is_open
    tiles, _ = box.chain(engine, mexican, doubles.get("mexican", ()))
    trains.append({"id": "mexican", "owner": None, "name": "Mexican train", "tiles": tiles,
                   "open": True, "branches": []})
    view["trains"] = trains
    view["boneyard"] = len(box.free) // 2
    for seat in view["seats"]:
        seat["hand"] = max(1, min(seat["hand"], 12))


def pend(view: View, *train_ids: str) -> None:
    """Mark the last tile of each train (a double) pending, in the order given."""
    trains = {t["id"]: t for t in view["trains"]}
    view["pending_doubles"] = [
        {"train": tid, "tile": trains[tid]["tiles"][-1], "order": i + 1}
        for i, tid in enumerate(train_ids)
    ]


def ends_with_double(view: View, box: Box, train_id: str) -> None:
    """Make the train end with a double (for a pending double)."""
    train = next(t for t in view["trains"] if t["id"] == train_id)
    last = train["tiles"][-1] if train["tiles"] else view["engine"]
    end = int(last.split("-")[1])
    if frozenset((end,)) not in box.free:
        tiles, end = box.chain(end, 1)
        train["tiles"] += tiles
    train["tiles"].append(box.take(end, end))


def mid_game(seats: int, seed: int = 1) -> View:
    view, box = base(seats, seed=seed)
    rng = box.rng
    lengths = [rng.randint(2, 8) for _ in range(seats)]
    lay(view, box, lengths, open_seats=(1, seats - 1), mexican=rng.randint(2, 6))
    ends_with_double(view, box, "0")
    pend(view, "0")
    turn = 1 % seats
    view["turn"] = turn
    view["prompt"] = msg("prompt.satisfy", seat=turn, tile=view["pending_doubles"][0]["tile"],
                         train="0")
    view["seats"][seats - 1]["hand"] = 1
    view["seats"][seats - 1]["one_tile"] = True
    view["alerts"] = [{"seat": seats - 1, "message": msg("alert.one_tile", seat=seats - 1)}]
    train = view["trains"][1]
    if train["tiles"]:
        view["last_play"] = {"seat": 1, "train": "1", "tile": train["tiles"][-1]}
    return view


def views() -> dict[str, View]:
    out: dict[str, View] = {}

    lobby, _ = base(6, phase="lobby", rnd=0)
    for seat in lobby["seats"][4:]:
        seat["joined"] = False
        seat["name"] = f"Seat {seat['seat'] + 1}"
    for seat in lobby["seats"]:
        seat["hand"] = 0
    lobby["prompt"] = msg("prompt.lobby_start", n=4)
    lobby["readers"] = []
    out["lobby_6"] = lobby

    deal, box = base(4, phase="deal", rnd=1)
    deal["turn"] = 2
    deal["prompt"] = msg("prompt.hunt", round=1, n=15, tile="12-12", seat=2)
    deal["boneyard"] = 91 - 4 * 15
    for seat in deal["seats"]:
        seat["hand"] = 15
    out["deal_4"] = deal

    for seats in range(2, 15):
        out[f"play_{seats}"] = mid_game(seats)

    empty, box = base(4, rnd=1)
    lay(empty, box, [0, 0, 0, 0])
    empty["turn"] = 0
    empty["prompt"] = msg("prompt.lay_train_or_pass", seat=0)
    for seat in empty["seats"]:
        seat["hand"] = 15
    out["empty_4"] = empty

    # Eight trains of fifteen need more tiles than a double-12 set holds.
    busy, box = base(8, rnd=2, top=18)
    lay(busy, box, [15] * 8, open_seats=(0, 2, 5), mexican=15, doubles={3: (9,), 6: (4,)})
    ends_with_double(busy, box, "4")
    ends_with_double(busy, box, "mexican")
    pend(busy, "4", "mexican")
    busy["turn"] = 5
    busy["prompt"] = msg("prompt.satisfy", seat=5, tile=busy["pending_doubles"][0]["tile"],
                         train="4")
    busy["rejection"] = {"seat": 5, "message": NO_MATCH}
    busy["last_play"] = {"seat": 4, "train": "mexican", "tile": busy["trains"][-1]["tiles"][-1]}
    out["busy_8"] = busy

    full, box = base(14, rnd=4)
    lay(full, box, [11] * 14, open_seats=(3, 7, 11), mexican=11)
    full["turn"] = 7
    full["prompt"] = msg("prompt.play_or_draw", seat=7)
    out["full_14"] = full

    long, box = base(4, rnd=1, seed=3, top=15)
    lay(long, box, [20, 20, 20, 20], open_seats=(2,), mexican=8, doubles={1: (5,)})
    long["turn"] = 3
    long["prompt"] = msg("prompt.play_or_draw", seat=3)
    out["long_trains_4"] = long

    two, box = base(5, rnd=2, seed=4)
    lay(two, box, [5, 3, 6, 4, 2], open_seats=(4,), mexican=3)
    ends_with_double(two, box, "2")
    ends_with_double(two, box, "3")
    pend(two, "2", "3")
    two["turn"] = 3
    two["prompt"] = msg("prompt.satisfy", seat=3, tile=two["pending_doubles"][0]["tile"],
                        train="2")
    two["last_play"] = {"seat": 2, "train": "3", "tile": two["trains"][3]["tiles"][-1]}
    out["two_pending_5"] = two

    foot, box = base(4, rnd=2, seed=5)
    foot["preset"] = "tournament"
    foot["options"]["chicken_foot"] = True
    lay(foot, box, [4, 2, 3, 1], mexican=2)
    train = foot["trains"][0]
    end = int(train["tiles"][-1].split("-")[1])
    train["tiles"].append(box.take(end, end))
    train["branches"] = [{"tiles": box.chain(end, n)[0], "branches": []} for n in (3, 2, 1)]
    # A second foot, still waiting for two of its three branches.
    train = foot["trains"][2]
    ends_with_double(foot, box, "2")
    end = int(train["tiles"][-1].split("-")[1])
    train["branches"] = [{"tiles": box.chain(end, 1)[0], "branches": []}]
    foot["pending_doubles"] = [{"train": "2", "tile": train["tiles"][-1], "order": 1}]
    foot["turn"] = 1
    foot["prompt"] = msg("prompt.satisfy", seat=1, tile=train["tiles"][-1], train="2")
    out["chicken_foot_4"] = foot

    # Players write their names in the scripts of the rule books.
    names = mid_game(5, seed=12)
    for seat, name in zip(names["seats"], ("Bo", "فرید", "Ελένη", "Gintarė", "مريم"),
                          strict=True):
        seat["name"] = name
    for train in names["trains"][:-1]:
        train["name"] = names["seats"][train["owner"]]["name"]
    names["prompt"] = msg("prompt.satisfy", seat=1, tile=names["pending_doubles"][0]["tile"],
                          train="0")
    names["alerts"] = [{"seat": 4, "message": msg("alert.one_tile", seat=4)}]
    out["names_5"] = names

    tracked = mid_game(6, seed=7)
    tracked["hand_mode"] = "tracked"
    tracked["prompt"] = msg("prompt.tap_drawn", seat=1)
    out["tracked_hands_6"] = tracked
    opened = mid_game(6, seed=8)
    opened["rejection"] = {"seat": 1, "message": NO_MATCH}
    out["open_hands_6"] = opened

    offline = mid_game(6, seed=9)
    offline["readers"][2] = {"pad": "2", "online": False, "reason": "no answer from /dev/ttyUSB2"}
    offline["alerts"].append({"seat": 2, "message": msg(
        "alert.reader_offline_why", pad=msg("pad.seat", seat=2),
        text="no answer from /dev/ttyUSB2")})
    offline["seats"][3]["marker_expected"] = True
    offline["seats"][3]["marker_sensed"] = False
    offline["alerts"].append({"seat": 3, "message": msg("alert.marker_out", seat=3)})
    out["reader_offline_6"] = offline

    over, box = base(5, phase="round_over", rnd=4, seed=10)
    lay(over, box, [6, 4, 9, 3, 5], open_seats=(1,), mexican=4)
    over["seats"][2]["hand"] = 0
    over["went_out"] = 2
    over["revealed"] = [None, 23, 0, None, None]
    over["prompt"] = msg("prompt.reveal", waiting=[
        msg("progress.seat", seat=seat, done=0, of=over["seats"][seat]["hand"])
        for seat in (0, 3, 4)])
    out["round_over_5"] = over

    # The reveal under way, its summary and the final ranking, at 2, 8 and 14 seats.
    for seats in (2, 8, 14):
        played = {2: 4, 8: 6, 14: 9}[seats]
        reveal, box = base(seats, phase="round_over", rnd=played, seed=13)
        lay(reveal, box, [3] * seats, open_seats=(0,), mexican=3)
        reveal["went_out"] = seats - 1
        reveal["seats"][seats - 1]["hand"] = 0
        rng = random.Random(seats)
        shown = [rng.randint(3, 60) if s % 2 else None for s in range(seats)]
        shown[seats - 1] = 0
        reveal["revealed"] = shown
        reveal["prompt"] = msg("prompt.reveal", waiting=[
            msg("progress.seat", seat=s, done=0, of=reveal["seats"][s]["hand"])
            for s, r in enumerate(shown) if r is None])
        out[f"reveal_{seats}"] = reveal

        summary, box = base(seats, phase="round_over", rnd=played + 1, seed=13)
        summary["round"] = played
        lay(summary, box, [3] * seats, open_seats=(0,), mexican=3)
        last = summary["scores"][-1]
        summary["went_out"] = last.index(0) if 0 in last else None
        for seat, points in zip(summary["seats"], last, strict=True):
            seat["hand"] = 0 if points == 0 else max(1, points // 8)
        summary["prompt"] = (
            msg("prompt.summary_out", round=played, seat=summary["went_out"], next=played + 1)
            if summary["went_out"] is not None
            else msg("prompt.summary_blocked", round=played, next=played + 1))
        out[f"summary_{seats}"] = summary

    for seats, top_round in ((2, 10), (8, 13), (14, 19)):
        game, box = base(seats, phase="game_over", rnd=top_round + 1, seed=11)
        game["round"] = top_round
        totals = game["totals"]
        game["ranking"] = sorted(range(seats), key=lambda s: (totals[s], s))
        last = game["scores"][-1]
        game["went_out"] = last.index(0) if 0 in last else None
        game["prompt"] = msg("prompt.over", winner_seat=game["ranking"][0])
        for seat in game["seats"]:
            seat["hand"] = 0
        game["readers"] = []
        out[f"game_over_{seats}"] = game

    # An empty lobby of four: the set is the one four players are dealt.
    empty_lobby, _ = base(4, phase="lobby", rnd=0)
    for seat in empty_lobby["seats"]:
        seat.update(joined=False, hand=0, total=0)
    empty_lobby["prompt"] = msg("prompt.lobby_join")
    empty_lobby["readers"] = []
    out["lobby_4_empty"] = empty_lobby

    # The engine set aside: the players are asked to put it in the hub, not to look for it.
    aside, _ = base(4, phase="deal", rnd=1)
    aside["options"]["engine"] = "set_aside"
    aside["prompt"] = msg("prompt.deal_aside", round=1, tile="12-12", dealt=[
        msg("progress.seat", seat=s, done=d, of=15) for s, d in enumerate((3, 0, 0, 0))])
    for seat, dealt in zip(aside["seats"], (3, 0, 0, 0), strict=True):
        seat["hand"] = dealt
    aside["boneyard"] = 91 - 3 - 1
    out["deal_set_aside_4"] = aside
    return out


def write(folder: Path) -> list[Path]:
    written = []
    for name, view in views().items():
        path = folder / f"{name}.json"
        path.write_text(json.dumps(view, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    for path in write(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE):
        print(path)
