"""Random VALID rounds for property tests, dealt from a real 108-tile set.

Every tile a round names is taken from one wall of 4 copies per kind, so the tile census always passes;
winning hands are built as 4 sets + a pair (or seven pairs) in at most two suits, never the player's void
suit; draw positions are 13 tiles from the wall. The builder follows the round's state (who is active,
who has won, the kong just made) so every event it writes is possible.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

SUITS = "mps"
SEATS = (0, 1, 2, 3)

RULE_CHOICES: dict[str, tuple[Any, ...]] = {
    "base_points": (1, 2, 6),
    "mode": ("xuezhan", "xuezhan", "normal"),
    "zimo_bonus": ("jia_di", "jia_fan", "none"),
    "direct_kong": ("chengbao", "jia_jia_you", "feeder_1"),
    "added_kong_points": (0, 1, 2),
    "concealed_kong_points": (1, 2, 3),
    "dingque": (True, False),
    "huazhu_refunds_kongs": (True, False),
    "cap_multiplier": (None, 8, 16),
    "tax_rate": (0, 0.1, 0.3),
    "dealer_rule": ("first_winner", "discarder", "first_winner_multi_discarder", "dice"),
    "huazhu_points": (16, 8, "cap"),
    "escape_points": (16, 5, "cap"),
    "multi_win": ("all", "first"),
    "qiang_gang_payment": ("discard", "bao"),
    "dian_gang_hua": ("zimo", "dianpao", "bao"),
    "gang_shang_pao_transfer": ("last_kong", "all_kongs", "none"),
    "multi_winner_transfer": ("each", "first", "split"),
    "huazhu_recipients": ("non_huazhu", "active", "active_ready"),
    "huazhu_pays_chajiao": (False, True),
    "refund_to_won_payers": (True, False),
    "refund_when_nobody_ready": (True, False),
    "escape_penalty_to": ("distribute", "burn"),
    "escaped_winner": ("keep", "forfeit"),
}


def tile_name(kind: int) -> str:
    return f"{kind % 9 + 1}{SUITS[kind // 9]}"


@dataclass
class Wall:
    rng: random.Random
    left: list[int] = field(default_factory=lambda: [4] * 27)

    def take(self, kinds: list[int]) -> bool:
        """Take these tiles if the wall still holds them all."""
        need: dict[int, int] = {}
        for kind in kinds:
            need[kind] = need.get(kind, 0) + 1
        if any(self.left[kind] < count for kind, count in need.items()):
            return False
        for kind, count in need.items():
            self.left[kind] -= count
        return True

    def kinds_in(self, suits: str) -> list[int]:
        return [kind for kind in range(27) if SUITS[kind // 9] in suits]


def _standard_shape(rng: random.Random, kinds: list[int]) -> list[int]:
    tiles: list[int] = []
    for _ in range(4):
        kind = rng.choice(kinds)
        if rng.random() < 0.6 and kind % 9 <= 6:
            tiles += [kind, kind + 1, kind + 2]
        else:
            tiles += [kind] * 3
    tiles += [rng.choice(kinds)] * 2
    return tiles


def _seven_pairs(rng: random.Random, kinds: list[int]) -> list[int]:
    return [kind for kind in rng.sample(kinds, 7) for _ in range(2)]


def winning_hand(rng: random.Random, wall: Wall, void: str | None) -> dict[str, Any] | None:
    """A legal 14-tile winning hand in one or two suits without ``void``, taken from the wall."""
    allowed = [suit for suit in SUITS if suit != void]
    for _ in range(30):
        suits = "".join(rng.sample(allowed, rng.choice((1, 2))))
        kinds = wall.kinds_in(suits)
        tiles = _seven_pairs(rng, kinds) if rng.random() < 0.15 else _standard_shape(rng, kinds)
        if wall.take(tiles):
            rng.shuffle(tiles)
            win_tile = tiles.pop()
            return {"concealed": "".join(tile_name(kind) for kind in tiles), "win_tile": tile_name(win_tile)}
    return None


def draw_position(rng: random.Random, wall: Wall) -> dict[str, Any] | None:
    """Thirteen tiles from the wall, in any suits (so sometimes a flower pig)."""
    for _ in range(30):
        suits = "".join(rng.sample(SUITS, rng.choice((1, 2, 2, 3))))
        tiles = [rng.choice(wall.kinds_in(suits)) for _ in range(13)]
        if wall.take(tiles):
            return {"concealed": "".join(tile_name(kind) for kind in tiles)}
    return None


@dataclass
class Builder:
    rng: random.Random
    rules: dict[str, Any]
    void_suits: list[str | None]
    wall: Wall
    events: list[dict[str, Any]] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    escaped: list[int] = field(default_factory=list)
    last_kong: tuple[int, str] | None = None  # (maker, kind) of the event just before
    kongs: list[int] = field(default_factory=lambda: [0] * len(SEATS))  # a hand holds at most 4
    last_tile: bool = False
    finished: bool = False

    @property
    def active(self) -> list[int]:
        return [seat for seat in SEATS if seat not in self.winners and seat not in self.escaped]

    def void(self, seat: int) -> str | None:
        return self.void_suits[seat] if self.rules["dingque"] else None

    def add(self, event: dict[str, Any]) -> None:
        self.events.append(event)
        self.last_kong = None

    def kong(self) -> None:
        makers = [seat for seat in self.active if self.kongs[seat] < 4]
        if not makers:
            return
        maker = self.rng.choice(makers)
        self.kongs[maker] += 1
        kind = self.rng.choice(("direct", "added", "concealed"))
        event: dict[str, Any] = {"type": "kong", "player": maker, "kind": kind}
        if kind == "direct":
            event["from"] = self.rng.choice([seat for seat in self.active if seat != maker])
        allowed = [suit for suit in SUITS if suit != self.void(maker)]
        candidates = [kind for kind in self.wall.kinds_in("".join(allowed)) if self.wall.left[kind] == 4]
        if candidates and self.rng.random() < 0.7:
            tile = self.rng.choice(candidates)
            self.wall.take([tile] * 4)
            event["tile"] = tile_name(tile)
        self.add(event)
        self.last_kong = (maker, kind)

    def winner_entry(self, seat: int, by_tiles: bool) -> dict[str, Any]:
        if by_tiles:
            hand = winning_hand(self.rng, self.wall, self.void(seat))
            if hand is not None:
                return {"player": seat, "hand": hand}
        return {"player": seat, "fan": self.rng.randint(1, 7)}

    def win(self) -> None:
        kong_before = self.last_kong
        how = self.rng.choice(("discard", "self_draw", "robbing"))
        if how == "self_draw":
            winner = self.rng.choice(self.active)
            after_kong = kong_before is not None and kong_before[0] == winner and self.rng.random() < 0.7
            event = {
                "type": "win",
                "from": None,
                "after_kong": after_kong,
                # a 杠上花 hand as tiles would need the kong among its melds: such a winner gives his fan
                "winners": [self.winner_entry(winner, not after_kong and self.rng.random() < 0.5)],
            }
            won = [winner]
        else:
            # a robbed kong is not itself a kong event: nobody robs the added kong just entered
            just_added = self.last_kong[0] if self.last_kong and self.last_kong[1] == "added" else None
            discarders = [seat for seat in self.active if how != "robbing" or seat != just_added]
            if not discarders:
                return
            discarder = self.rng.choice(discarders)
            others = [seat for seat in self.active if seat != discarder]
            claimants = self.rng.sample(others, self.rng.choice((1, 1, 1, 2)) if len(others) > 1 else 1)
            after_kong = (
                how == "discard"
                and kong_before is not None
                and kong_before[0] == discarder
                and self.rng.random() < 0.7
            )
            event = {
                "type": "win",
                "from": discarder,
                "robbing_kong": how == "robbing",
                "after_kong": after_kong,
                "winners": [
                    self.winner_entry(seat, position == 0 and self.rng.random() < 0.5)
                    for position, seat in enumerate(claimants)
                ],
            }
            in_order = sorted(claimants, key=lambda seat: (seat - discarder) % 4)
            won = in_order[:1] if self.rules["multi_win"] == "first" else in_order
        event["last_tile"] = self.rng.random() < 0.1
        self.add(event)
        self.winners += won
        self.last_tile = event["last_tile"]
        self.finished = self.rules["mode"] == "normal" or len(self.winners) >= 3

    def report(self, seat: int) -> dict[str, Any]:
        if self.rng.random() < 0.5:
            hand = draw_position(self.rng, self.wall)
            if hand is not None:
                return {"player": seat, "hand": hand}
        status = self.rng.choice(("huazhu", "not_ready", "ready"))
        return {
            "player": seat,
            "status": status,
            **({"fan": self.rng.randint(1, 6)} if status == "ready" else {}),
        }

    def draw(self) -> None:
        self.add({"type": "draw", "players": [self.report(seat) for seat in self.active]})
        self.finished = True

    def escape(self) -> None:
        leaving = self.rng.choice(self.active + self.winners)
        if leaving in self.escaped:
            return
        if leaving in self.winners:
            self.add({"type": "escape", "player": leaving})
            self.escaped.append(leaving)
            return
        tiles_left = self.rng.choice((0, 2, 4, 5, 30))
        event: dict[str, Any] = {"type": "escape", "player": leaving, "tiles_left": tiles_left}
        if tiles_left <= 4:
            event["players"] = [self.report(seat) for seat in self.active if seat != leaving]
        self.add(event)
        self.escaped.append(leaving)
        self.finished = True


def random_round(rng: random.Random) -> dict[str, Any]:
    """The body of a settle request for a random, valid round (finished or not)."""
    rules = {key: rng.choice(values) for key, values in RULE_CHOICES.items()}
    void_suits = [rng.choice((None, "m", "p", "s")) for _ in SEATS]
    builder = Builder(rng, rules, void_suits, Wall(rng))
    for _ in range(rng.randint(0, 9)):
        if builder.finished:
            break
        actions = (
            [builder.draw, builder.escape]
            if builder.last_tile
            else [
                builder.kong,
                builder.kong,
                builder.kong,
                builder.win,
                builder.win,
                builder.win,
                builder.draw,
                builder.escape,
            ]
        )
        rng.choice(actions)()
    coins = None
    if rng.random() < 0.5:
        coins = {
            "balances": [rng.choice((0, 50, 1000, 10**6)) for _ in SEATS],
            "room_coefficient": rng.randint(1, 100),
        }
    return {
        "dealer": rng.choice(SEATS),
        "events": builder.events,
        "rules": rules,
        "void_suits": void_suits,
        "coins": coins,
    }


def rotate_round(body: dict[str, Any], by: int) -> dict[str, Any]:
    """The same round with every seat moved ``by`` places: seat s becomes (s + by) % 4."""

    def seat(value: Any) -> Any:
        return None if value is None else (value + by) % 4

    def entry(item: dict[str, Any]) -> dict[str, Any]:
        return {**item, "player": seat(item["player"])}

    events = []
    for event in body["events"]:
        moved = dict(event)
        for key in ("player", "from"):
            if key in moved:
                moved[key] = seat(moved[key])
        for key in ("winners", "players"):
            if moved.get(key) is not None:
                moved[key] = [entry(item) for item in moved[key]]
        events.append(moved)
    void_suits = [body["void_suits"][(position - by) % 4] for position in SEATS]
    coins = body["coins"] and {
        **body["coins"],
        "balances": [body["coins"]["balances"][(position - by) % 4] for position in SEATS],
    }
    return {
        **body,
        "dealer": seat(body["dealer"]),
        "events": events,
        "void_suits": void_suits,
        "coins": coins,
    }
