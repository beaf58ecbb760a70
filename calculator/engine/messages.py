"""Every message the engines give, written once: a stable code, its English and its Chinese template.

A code names one kind of refusal (or of hand that does not win) for good: the API sends it as ``code``
beside the words (``reason_code`` for a hand that does not win), so a client may switch on it, and a
rewording changes only the templates here. The templates are ``str.format`` templates over the values the
error carries (``EngineError.params``): ``{value!r}`` is the value as Python wrote it before the
catalogue existed, ``{points:,}`` a number with thousands separators. Where the two languages need
different words for one value, the error carries both: ``got`` and ``got_zh``.

Pages take the Chinese from here too (``EngineError.localized``): no gettext catalogue translates an
engine's message. Layers above the engines that refuse input the same way keep their own catalogues of
the same shape (``ledger.errors``, ``api.errors``), each code in one of them only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Message:
    """One message in English and Chinese: templates over the values of the error that carries it."""

    en: str
    zh: str


Catalogue = Mapping[str, Message]

MESSAGES: Catalogue = {
    # ---- the shapes of a request (``fields``, ``requests``)
    "body_not_an_object": Message(
        "The body must be a JSON object of named fields; got {got}.",
        "请求体必须是一个带字段名的 JSON 对象，收到的是{got_zh}。",
    ),
    "unknown_field": Message(
        "Unknown field '{key}': the fields are {names}.",
        "未知字段“{key}”，可用字段：{names}。",
    ),
    "unknown_field_here": Message(
        "Unknown field '{key}': the fields here are {names}.",
        "未知字段“{key}”，这里可用的字段：{names}。",
    ),
    "field_required": Message("The field '{key}' is required.", "缺少必填字段“{key}”。"),
    "not_an_object": Message("{path} must be an object.", "{path} 必须是一个对象。"),
    "not_a_list": Message("{path} must be a list.", "{path} 必须是一个列表。"),
    "not_a_boolean": Message(
        "{name} must be true or false; got {value!r}.",
        "{name} 必须是 true 或 false，收到 {value!r}。",
    ),
    # ---- tiles (``tiles``, ``fields.one_tile``)
    "tiles_not_text_or_list": Message(
        "{path} must be tiles written as a string such as '123m456p' or a list such as ['1m', '2m']; "
        "got {got}.",
        "{path} 必须是牌的字符串（如 '123m456p'）或牌的列表（如 ['1m', '2m']），收到的是{got_zh}。",
    ),
    "tile_entry_not_a_tile": Message(
        "Entry {position} of {path} ({value!r}) is not a single tile such as '5p'.",
        "{path} 的第 {position} 项（{value!r}）不是一张牌，应写成 '5p' 这样。",
    ),
    "zero_rank": Message(
        "0 is not a rank (at position {position}): ranks are 1 to 9.",
        "第 {position} 个字符 0 不是点数：点数为 1 到 9。",
    ),
    "suit_without_digits": Message(
        "'{char}' at position {position} has no digits before it.",
        "第 {position} 个字符“{char}”前面没有点数。",
    ),
    "not_a_tile": Message(
        "'{char}' at position {position} is not a tile.",
        "第 {position} 个字符“{char}”不是牌。",
    ),
    "digits_without_suit": Message(
        "The digits '{digits}' have no suit: write m, p or s (or 万, 筒, 条) after them.",
        "数字“{digits}”后面缺少花色：请在后面写 m、p、s（或 万、筒、条）。",
    ),
    "not_one_tile": Message(
        "{path} must be exactly one tile such as '5p'; got {value!r}.",
        "{path} 必须是一张牌，如 '5p'，收到 {value!r}。",
    ),
    "void_suit_unknown": Message(
        "{path} must be m, p, s or null; got {value!r}.",
        "定缺只能是 m、p、s 或 null，收到 {value!r}。",
    ),
    # ---- a hand (``hand``)
    "tiles_required": Message("{path} is required.", "缺少 {path}。"),
    "win_tile_not_one": Message(
        "win_tile must be exactly one tile, such as '5p'; got {count}.",
        "胡的牌必须正好一张，如 '5p'，收到 {count} 张。",
    ),
    "melds_not_a_list": Message(
        'melds must be a list of objects such as {{"kind": "pung", "tile": "5p"}}.',
        'melds 必须是列表，每项如 {{"kind": "pung", "tile": "5p"}}。',
    ),
    "too_many_melds": Message(
        "A hand has at most 4 melds; got {count}.",
        "一手牌最多 4 组碰杠，收到 {count} 组。",
    ),
    "meld_not_an_object": Message(
        'A meld must be an object such as {{"kind": "pung", "tile": "5p"}}.',
        '每组碰杠必须是对象，如 {{"kind": "pung", "tile": "5p"}}。',
    ),
    "meld_kind_unknown": Message(
        "A meld's kind must be one of {choices}; got {value!r}.",
        "碰杠的种类只能是 {choices} 之一，收到 {value!r}。",
    ),
    "meld_tile_not_one_kind": Message(
        "A {kind} names one tile kind, such as '5p' (or all {size} of its tiles); got {value!r}.",
        "{kind} 只写一种牌，如 '5p'（或写全 {size} 张），收到 {value!r}。",
    ),
    "concealed_count": Message(
        "The concealed tiles must be {expected}; got {count}.",
        "手牌应为 {expected_zh} 张，收到 {count} 张。",
    ),
    "concealed_count_with_melds": Message(
        "The concealed tiles must be {expected} with {melds} meld(s); got {count}.",
        "有 {melds} 组碰杠时手牌应为 {expected_zh} 张，收到 {count} 张。",
    ),
    "fifth_copy": Message(
        "The hand holds a fifth {tile}: there are only 4 of each tile.",
        "这手牌有第五张 {tile}：每种牌只有 4 张。",
    ),
    "hand_rules_not_an_object": Message(
        'rules must be an object such as {{"preset": "chengdu"}}.',
        '规则必须是一个对象，例如 {{"preset": "chengdu"}}。',
    ),
    # ---- how a hand was won (``hand``, ``fan``)
    "win_by_unknown": Message(
        "win_by must be one of {choices}; got {value!r}.",
        "win_by 只能是 {choices} 之一，收到 {value!r}。",
    ),
    "robbed_kong_after_kong": Message(
        "A robbed kong is not a win after a kong: after_kong cannot be combined with robbing_kong.",
        "抢杠胡不能同时是杠上花或杠上炮。",
    ),
    "after_kong_without_kong": Message(
        "杠上花 is a self-draw after one's own kong, but the melds hold no kong: add the kong or untick "
        "after_kong.",
        "杠上花是自己开杠后摸牌自摸，但副露中没有杠：请补上那个杠，或取消“杠上开花”。",
    ),
    "tian_and_di_hu": Message("A win is 天胡 or 地胡, not both.", "天胡和地胡不能同时成立。"),
    "tian_hu_not_self_draw": Message(
        "天胡 is the dealer's first fourteen tiles: win_by must be self_draw.",
        "天胡是庄家起手十四张胡牌，win_by 必须是 self_draw。",
    ),
    # ---- a hand that does not win: ``ScoreResult.reason_code``, not an error (``fan.legality``)
    "three_suits": Message(
        "The hand holds all three suits: a winning hand has at most two (缺一门).",
        "这手牌三门都有：胡牌最多只能有两门（缺一门）。",
    ),
    "void_suit": Message(
        "The hand holds tiles of its void suit ({suit}, 定缺).",
        "这手牌有定缺的{suit_zh}。",
    ),
    "no_shape": Message(
        "These tiles are neither four sets and a pair nor seven pairs.",
        "这手牌既组不成四组加一对，也不是七对。",
    ),
    "below_min_fan": Message(
        "The hand is worth {fan} fan (平胡 = 1): this table needs {minimum} to win (起胡).",
        "这手牌只有 {fan} 番（平胡算1番），本桌 {minimum} 番起胡，不能胡。",
    ),
    "pattern_left_out": Message(
        "{key} is not played at this table (幺九将对 is off).",
        "本桌不算这个牌型（{key}）：幺九将对已关闭。",
    ),
    # ---- house rules (``rules``, ``options``)
    "rules_not_an_object": Message(
        'Rules must be an object such as {{"preset": "chengdu"}}.',
        '规则必须是一个对象，例如 {{"preset": "chengdu"}}。',
    ),
    "rule_option_unknown": Message("Unknown rule option '{key}'.", "未知的规则选项“{key}”。"),
    "preset_unknown": Message(
        "Unknown preset {value!r}: use one of {choices}.",
        "未知的预设 {value!r}，可选：{choices}。",
    ),
    "option_choice": Message(
        "{key} must be one of {choices}; got {value!r}.",
        "{key} 只能是 {choices} 之一，收到 {value!r}。",
    ),
    "option_whole_number": Message(
        "{key} must be a whole number from {minimum} to {maximum}; got {value!r}.",
        "{key} 必须是 {minimum} 到 {maximum} 的整数，收到 {value!r}。",
    ),
    "option_zero_or_one": Message(
        "{key} must be 0 or 1; got {value!r}.",
        "{key} 只能是 0 或 1，收到 {value!r}。",
    ),
    "cap_multiplier": Message(
        "cap_multiplier must be null or a power of two such as 8, 16 or 32; got {value!r}.",
        "封顶倍数必须为 null 或 2 的幂（如 8、16、32），收到 {value!r}。",
    ),
    "option_penalty": Message(
        '{key} must be a whole number of b (0 to {maximum}) or "cap"; got {value!r}.',
        '{key} 必须是 0 到 {maximum} 的整数或 "cap"，收到 {value!r}。',
    ),
    "option_rate": Message(
        "{key} must be a number from 0 up to (not including) 1, such as 0.1; got {value!r}.",
        "{key} 必须是 0 到 1（不含 1）之间的数，如 0.1，收到 {value!r}。",
    ),
    "pattern_fan_not_an_object": Message(
        'pattern_fan must be an object of pattern keys and fan, e.g. {{"long_qi_dui": 4}}.',
        'pattern_fan 必须是牌型与番数的对象，如 {{"long_qi_dui": 4}}。',
    ),
    "pattern_unknown": Message("Unknown pattern '{key}'.", "未知的牌型“{key}”。"),
    "pattern_fan_value": Message(
        "The fan of {key} must be a whole number from 1 to {maximum}; got {value!r}.",
        "{key} 的番数必须是 1 到 {maximum} 的整数，收到 {value!r}。",
    ),
    "cap_penalty_too_large": Message(
        "A penalty of the cap amount would be {points:,} points, more than one payment may be "
        "({maximum:,}): lower the cap or the base points.",
        "按封顶数赔付将是 {points:,} 分，超过单笔上限（{maximum:,}）：请降低封顶倍数或底分。",
    ),
    # ---- a round's events, each read by itself (``settlement.engine.events``)
    "seat_number": Message(
        "{path} must be a seat number 0 to 3; got {value!r}.",
        "{path} 必须是 0 到 3 的座位号，收到 {value!r}。",
    ),
    "fan_value": Message(
        "The fan must be a whole number from 1 to {maximum} (平胡 is 1); got {value!r}.",
        "番数必须是 1 到 {maximum} 的整数（平胡为 1 番），收到 {value!r}。",
    ),
    "winning_hand_without_win_tile": Message(
        "A winning hand needs its win_tile, the tile it won on.",
        "胡牌的手牌必须给出 win_tile（胡的那张牌）。",
    ),
    "draw_hand_with_win_tile": Message(
        "A hand at a draw has no winning tile: leave win_tile out.",
        "流局时的手牌没有胡的那张牌，请去掉 win_tile。",
    ),
    "event_meld_kind_unknown": Message(
        "A meld's kind must be one of {choices}; got {value!r}.",
        "副露的种类只能是 {choices} 之一，收到 {value!r}。",
    ),
    "winner_hand_or_fan": Message(
        "Give each winner either his hand (tiles) or his fan, not both and not neither.",
        "每位赢家要么给出手牌，要么给出番数，二者选一。",
    ),
    "winner_tian_and_di_hu": Message("A win is 天胡 or 地胡, not both.", "一次胡牌不能既是天胡又是地胡。"),
    "report_hand_and_status": Message(
        "Give a player's hand or his status, not both.",
        "手牌和状态只能给一个。",
    ),
    "status_unknown": Message(
        "status must be huazhu, not_ready or ready; got {value!r}.",
        "status 只能是 huazhu（花猪）、not_ready（没叫）或 ready（有叫），收到 {value!r}。",
    ),
    "fan_without_ready": Message("Only a ready player has a best fan.", "只有有叫的玩家才有番数。"),
    "listed_twice": Message("Player {player} is listed twice.", "玩家 {player} 被列了两次。"),
    "kong_kind_unknown": Message(
        "A kong's kind must be direct, added or concealed; got {value!r}.",
        "杠的种类只能是 direct（直杠）、added（弯杠）或 concealed（暗杠），收到 {value!r}。",
    ),
    "direct_kong_without_feeder": Message(
        "A direct kong (直杠) needs 'from': the player whose discard it took.",
        "直杠必须给出 from：点杠的玩家。",
    ),
    "feeder_of_an_own_kong": Message(
        "Only a direct kong has a feeder; a {kind} kong has from null.",
        "只有直杠才有点杠者，弯杠和暗杠的 from 应为空。",
    ),
    "own_direct_kong": Message("A player cannot feed his own direct kong.", "不能自己给自己点杠。"),
    "win_without_winner": Message("A win needs at least one winner.", "胡牌至少要有一位赢家。"),
    "robbing_without_robbed": Message(
        "Robbing a kong (抢杠) needs 'from': the player whose added kong was robbed.",
        "抢杠胡必须给出 from：被抢杠的玩家。",
    ),
    "robbed_kong_not_added": Message(
        "Only an added kong (弯杠) can be robbed.", "只有弯杠（面下杠）可以被抢。"
    ),
    "robbing_after_kong": Message(
        "A robbed kong is not 杠上花 or 杠上炮: after_kong cannot go with robbing.",
        "抢杠胡不能同时是杠上花或杠上炮。",
    ),
    "self_draw_winners": Message(
        "A self-draw has one winner; several winners need a discard ('from').",
        "自摸只有一位赢家；多人胡同一张牌时必须给出 from（点炮者）。",
    ),
    "win_on_own_discard": Message("A player cannot win on his own discard.", "不能胡自己打出的牌。"),
    "heavenly_by_robbing": Message(
        "天胡 and 地胡 cannot be won by robbing a kong.", "抢杠胡不能是天胡或地胡。"
    ),
    "win_tiles_differ": Message(
        "Winners of one discard win on the same tile: their win_tile differs.",
        "多人胡同一张牌时，各人的 win_tile 必须相同。",
    ),
    "tiles_left": Message(
        "tiles_left must be a whole number from 0 to 108; got {value!r}.",
        "tiles_left（剩余牌数）必须是 0 到 108 的整数，收到 {value!r}。",
    ),
    "escaper_among_players": Message(
        "The escaping player is not one of the players he pays.",
        "逃跑者本人不应列在 players 中。",
    ),
    "event_type_unknown": Message(
        "Unknown event type {value!r}: use kong, win, draw or escape.",
        "未知的事件类型 {value!r}，可选：kong（杠）、win（胡）、draw（流局）、escape（逃跑）。",
    ),
    "void_suits_count": Message(
        "void_suits must list 4 entries, one per seat; got {count}.",
        "void_suits（定缺）必须有 4 项，每个座位一项，收到 {count} 项。",
    ),
    # ---- a round's events in order (``checks``, ``census``, ``kongs``, ``wins``, ``draw``, ``escape``)
    "round_over": Message("The round is already over: no event can follow.", "本局已经结束，不能再有事件。"),
    "after_last_tile_win": Message(
        "After a win on the last tile only a draw (流局) or an escape can follow.",
        "海底胡牌之后只能是流局或逃跑。",
    ),
    "player_has_won": Message(
        "Player {player} has already won and is out of play (血战到底).",
        "玩家 {player} 已经胡牌离场，不能再行动。",
    ),
    "player_has_escaped": Message(
        "Player {player} has escaped and is out of play.",
        "玩家 {player} 已经逃跑，不能再行动。",
    ),
    "robbed_kong_recorded": Message(
        "A robbed kong is not recorded as a kong. If this win robs the 弯杠 (added kong) entered just before "
        "it, undo that kong and record only the robbing win. If it robs the player's next 弯杠, so that the "
        "one entered before it stands, give that kong its tile and this win its robbed_tile (or the "
        "winners' hands): two different tiles tell the two kongs apart.",
        "被抢的杠不算杠，不记杠钱。如果抢的就是上一步记的弯杠，请撤销那个弯杠，只记录抢杠胡；如果抢的是他后来"
        "又补的另一个弯杠（前面那个弯杠照算），请给前面那个弯杠填上牌，并给这次抢杠胡填上被抢的牌（或胡牌的"
        "手牌）：两张牌不同，就能分清是两个杠。",
    ),
    "robbed_tile_without_robbing": Message(
        "robbed_tile names the tile of a robbed kong: it needs robbing_kong true.",
        "robbed_tile 是被抢的杠的牌，只能和 robbing_kong（抢杠胡）一起用。",
    ),
    "robbed_tile_not_won": Message(
        "robbed_tile must be the tile the robbers won on (their hands' win_tile).",
        "robbed_tile 必须是抢杠胡胡的那张牌（手牌的 win_tile）。",
    ),
    "win_below_min_fan": Message(
        "Player {player}'s win is worth {fan} fan (平胡 = 1): this table needs {minimum} to win (起胡).",
        "玩家 {player} 这手牌只有 {fan} 番（平胡算1番），本桌 {minimum} 番起胡，不能胡。",
    ),
    "ready_below_min_fan": Message(
        "Player {player} is entered as ready for {fan} fan (平胡 = 1): below this table's {minimum} to "
        "win (起胡) that is not ready.",
        "玩家 {player} 记为有叫 {fan} 番（平胡算1番），本桌 {minimum} 番起胡，不够起胡的叫不算有叫。",
    ),
    "adjust_to": Message(
        'An adjustment goes to a seat 0 to 3, "each" or "house"; got {value!r}.',
        '罚分的 to 只能是座位 0 到 3、"each"（各家）或 "house"（房间）；收到 {value!r}。',
    ),
    "adjust_to_self": Message(
        "Player {player} cannot pay an adjustment to himself.",
        "玩家 {player} 不能罚分给自己。",
    ),
    "adjust_amount": Message(
        "An adjustment's amount is a whole number of base points from 1 to {maximum}; got {value!r}.",
        "罚分的数目必须是 1 到 {maximum} 的整数（底数）；收到 {value!r}。",
    ),
    "adjust_reason": Message(
        "An adjustment needs its reason, 1 to {most} characters (诈胡, 罚分, ...); got {value!r}.",
        "罚分必须写明原因（诈胡、罚分等），1 到 {most} 个字；收到 {value!r}。",
    ),
    "adjust_nobody_in_play": Message(
        "Nobody else is in play to receive this adjustment from each (各家).",
        "没有其他仍在牌局中的玩家可以收这笔“各家”罚分。",
    ),
    # ---- the hand in progress (``settlement.engine.draft``)
    "nothing_to_undo": Message("This hand has no event to undo.", "这一手还没有可撤销的记录。"),
    "nothing_to_redo": Message("There is no undone event to redo.", "没有可重做的记录。"),
    "hand_started": Message(
        "The dealer and void suits are set before the hand's first event: undo its events first.",
        "庄家和定缺要在这一手的第一条记录之前设定：请先撤销已记录的内容。",
    ),
    "no_such_event": Message(
        "There is no event {index!r} in this hand: it has {count} (numbered from 0).",
        "这一手没有第 {index!r} 条记录：共有 {count} 条（从 0 开始编号）。",
    ),
    "kongs_per_hand": Message(
        "Player {player} already has {most} kongs: a hand holds no more.",
        "玩家 {player} 已经有 {most} 个杠了，一手牌最多只有 4 个杠。",
    ),
    "round_fifth_copy": Message(
        "The round names {count} copies of {tile} by this event; there are only 4.",
        "到这一事件为止，本局出现了 {count} 张 {tile}，但每种牌只有 4 张。",
    ),
    "kong_of_void_suit": Message(
        "Player {player} declared {suit} void (定缺): he cannot kong it.",
        "玩家 {player} 定缺 {suit}，不能杠这门牌。",
    ),
    "after_kong_without_kong_before": Message(
        "after_kong needs a kong by player {player} as the event just before this win.",
        "杠上花/杠上炮要求上一个事件是玩家 {player} 的杠。",
    ),
    "tian_hu_out_of_place": Message(
        "天胡 is the dealer's self-drawn win on his first 14 tiles, as the round's first event.",
        "天胡只能是庄家起手自摸，且是本局第一个事件。",
    ),
    "di_hu_out_of_place": Message(
        "地胡 is a non-dealer's win in the first go-around, before any kong.",
        "地胡只能是闲家在第一轮、任何人杠牌之前胡牌。",
    ),
    "hand_does_not_win": Message(
        "Player {player}'s hand does not win: {reason}",
        "玩家 {player} 的手牌不能胡：{reason_zh}",
    ),
    "listed_player_won": Message(
        "Player {player} has already won: list only the players still in play.",
        "玩家 {player} 已经胡牌，只列出仍在牌局中的玩家。",
    ),
    "listed_player_escaped": Message(
        "Player {player} has escaped: list only the players still in play.",
        "玩家 {player} 已经逃跑，只列出仍在牌局中的玩家。",
    ),
    "listed_player_escaping": Message(
        "Player {player} is the one escaping: list only the players still in play.",
        "玩家 {player} 是逃跑者本人，只列出仍在牌局中的玩家。",
    ),
    "player_not_listed": Message(
        "Player {player} is still in play and must be listed.",
        "玩家 {player} 仍在牌局中，必须列出。",
    ),
    "escaped_twice": Message("Player {player} has already escaped.", "玩家 {player} 已经逃跑过了。"),
    "escape_without_tiles_left": Message(
        "An escape needs tiles_left: how many wall tiles were left.",
        "逃跑必须给出 tiles_left（牌墙剩余张数）。",
    ),
    "escape_near_the_end_without_players": Message(
        "With {tiles_left} tiles left the other players' readiness is needed: list them in players as in a "
        "draw.",
        "剩余 {tiles_left} 张时需要其他玩家是否有叫：请像流局一样列在 players 中。",
    ),
    # ---- bounds on money (``hands``, ``settle``)
    "payment_too_large": Message(
        "One payment would be {points:,} points, more than a payment may be ({maximum:,}): check the fan, "
        "the base points and the cap.",
        "单笔支付将是 {points:,} 分，超过单笔上限（{maximum:,}）：请检查番数、底分和封顶。",
    ),
    "round_too_large": Message(
        "By this event the round would move {points:,} points, more than a round may move ({maximum:,}): "
        "check the fans and the base points.",
        "到这一事件为止本局流转的分数将达到 {points:,}，超过一局的上限（{maximum:,}）：请检查番数和底分。",
    ),
    # ---- coins (``coins``)
    "coin_balances_count": Message(
        "coins.balances must list 4 balances, one per seat; got {count}.",
        "coins.balances（游戏币余额）必须有 4 项，每个座位一项，收到 {count} 项。",
    ),
    "coin_balance": Message(
        "A coin balance is a whole number, 0 or more; got {value!r}.",
        "游戏币余额必须是不小于 0 的整数，收到 {value!r}。",
    ),
    "room_coefficient": Message(
        "room_coefficient is a whole number, 1 or more; got {value!r}.",
        "room_coefficient（房间倍数）必须是不小于 1 的整数，收到 {value!r}。",
    ),
    # ---- settle-up (``settle_up``)
    "balance_not_whole": Message(
        "A balance is a whole number of points; got {value!r}.",
        "余额必须是整数，收到 {value!r}。",
    ),
    "balances_do_not_sum_to_zero": Message(
        "Balances must sum to 0 to be settled; they sum to {total}.",
        "余额总和必须为 0 才能结算，现在是 {total}。",
    ),
}
