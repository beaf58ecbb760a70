"""The ledger's refusals, worded once in its catalogue (the engines' ``Message`` shape, their mechanism).

Three kinds, one catalogue:

- ``LedgerError``: bad input a service refuses (a 400 naming the field), an ``EngineError`` of the
  ledger's own codes, so pages and the API treat it as they treat the engines' errors;
- ``LedgerRefusal``: a write refused for the state things are in, not for its input (a closed session, a
  reused idempotency key, a hand in progress changed by someone else);
- ``Forbidden``: a role that does not allow the write (a 403).

Each carries the body of ``EngineError.to_dict()`` (field, detail, detail_zh, errors, code), so a client
parses every error of the API one way and may switch on ``code``; each code is in this catalogue or in the
engines', never in both (a test checks).
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied

from calculator.engine import Catalogue, EngineError, Message

MESSAGES: Catalogue = {
    # ---- accounts, members, invitations (``services``, ``tokens``, ``api``)
    "username_missing": Message("Choose a user name.", "请填写用户名。"),
    "username_taken": Message("This user name is taken.", "该用户名已被使用。"),
    # Django's password validators word their verdict themselves, in each language.
    "password_refused": Message("{reason}", "{reason_zh}"),
    "wrong_password": Message("Wrong user name or password.", "用户名或密码错误。"),
    "token_expired": Message(
        "The token has expired: log in again (POST /api/v1/auth/token/) for a new one.",
        "令牌已过期：请重新登录以获取新令牌。",
    ),
    "no_such_account": Message("No account is called {username!r}.", "没有名为 {username!r} 的账号。"),
    "already_invited": Message("{username} has already been invited.", "已经邀请过 {username}。"),
    "already_a_member_named": Message("{username} is already a member.", "{username} 已经是成员。"),
    "already_a_member": Message("Already a member.", "已经是成员。"),
    "role_unknown": Message("role must be one of {choices}.", "角色只能是 owner、scorekeeper 或 viewer。"),
    "last_owner": Message("A group needs at least one owner.", "每个组至少要有一位组长（owner）。"),
    "role_forbids": Message("Your role in this group does not allow this.", "你在本组的角色无权执行此操作。"),
    "only_the_invited_accepts": Message("Only the account invited can accept.", "只有被邀请的账号才能接受。"),
    "invitation_answered": Message("This invitation has already been answered.", "这个邀请已经答复过了。"),
    "invite_role": Message("role must be viewer or scorekeeper.", "角色只能是 viewer 或 scorekeeper。"),
    "invite_hours": Message(
        "expires_in_hours must be a whole number from 1 to {maximum}.",
        "有效时长须为 1 到 {maximum} 之间的整数（小时）。",
    ),
    "period_unknown": Message("period must be one of {choices}.", "时段只能是 {choices} 之一。"),
    "period_date": Message(
        "'{value}' is not a day: write it as 2026-12-01.", "“{value}”不是日期：请写成 2026-12-01。"
    ),
    "period_backwards": Message("The range ends before it starts.", "时段的结束早于开始。"),
    "period_out_of_range": Message(
        "'{value}' is outside the days a table can have played: from {first} to {last}.",
        "“{value}”不在能打过牌的日子里：须在 {first} 到 {last} 之间。",
    ),
    "viewer_link_does_not_join": Message(
        "A viewer link shows the table; it does not join the group.",
        "观众链接只能看分，不能加入本组。",
    ),
    "reset_link_self": Message(
        "Change your own password on the password page.", "你自己的密码请在“修改密码”页面修改。"
    ),
    "reset_link_staff": Message(
        "Only the server's operator can make a reset link for this account.",
        "只有服务器管理员能为这个账号生成重置链接。",
    ),
    "reset_link_other_groups": Message(
        "This member is also in a group you do not own: only the server's operator can make their reset "
        "link (sczmj reset_password).",
        "该成员还在你不是组长的组里：只有服务器管理员能为其生成重置链接（sczmj reset_password）。",
    ),
    "invite_revoked": Message("This invite link was revoked.", "这个邀请链接已被撤销。"),
    "invite_expired": Message("This invite link has expired.", "这个邀请链接已过期。"),
    # ---- groups, players, sessions
    "text_length": Message(
        "{name} must be 1 to {maximum} characters.", "{name} 须为 1 到 {maximum} 个字符。"
    ),
    "name_invisible": Message(
        "A name may not hold a character nobody sees ({character}): type it again.",
        "名字里有看不见的字符（{character}）：请重新输入。",
    ),
    "player_name_taken": Message(
        "There is already a player called {name} in this group.",
        "本组已有名为 {name} 的玩家。",
    ),
    "player_names": Message("Name the four players, in seat order.", "请按座位顺序填写四位玩家。"),
    "player_ids": Message("Give exactly four player ids, in seat order.", "请按座位顺序给出四位玩家。"),
    "players_not_different": Message("The four players must be different.", "四位玩家不能重复。"),
    "not_a_player_id": Message("{value!r} is not a player id.", "{value!r} 不是玩家编号。"),
    "no_such_player": Message("No player {value} in this group.", "本组没有玩家 {value}。"),
    "session_coins": Message("coins must be an object or null.", "coins 必须是对象或 null。"),
    "session_room_coefficient": Message(
        "The room coefficient must be a whole number from 1 to {maximum}.",
        "房间倍数必须是 1 到 {maximum} 的整数。",
    ),
    "starting_balances": Message(
        "Give four starting coin balances, whole numbers of 0 or more.",
        "请给出四个起始游戏币余额（不小于 0 的整数）。",
    ),
    "session_points_bound": Message(
        "This would bring the points moved in this session to {points:,}, more than one session holds "
        "({maximum:,}): check the fan and the base points, or start a new session.",
        "这样本场累计流转的分数将达到 {points:,}，超过一场可记录的上限（{maximum:,}）："
        "请检查番数和底分，或开始新的一场。",
    ),
    "session_coins_bound": Message(
        "This would bring the coins moved in this session to {coins:,}, more than one session holds "
        "({maximum:,}): start a new session.",
        "这样本场累计流转的游戏币将达到 {coins:,}，超过一场可记录的上限（{maximum:,}）：请开始新的一场。",
    ),
    "group_sessions_bound": Message(
        "This group already has {maximum:,} sessions, the most one group holds: start a new group.",
        "本组已有 {maximum:,} 场，达到一个组的上限：请新建一个组。",
    ),
    "session_closed": Message(
        "This session is closed: it takes no new rounds or corrections.",
        "本场已结束，不能再记录或更正。",
    ),
    # ---- rounds and the hand in progress
    "dealer_seat": Message("dealer must be a seat from 0 to 3.", "庄家必须是 0 到 3 的座位号。"),
    "unstorable_text": Message(
        "Text may not contain a NUL character or a lone surrogate.",
        "文本中不能含有 NUL 字符或孤立的代理码位。",
    ),
    "transfer_too_large": Message(
        "This event moves {points} points in one payment, more than the ledger stores ({maximum}): check the "
        "fan and the base points.",
        "这一事件单笔 {points} 分，超过账本可记录的上限（{maximum}），请检查番数和底分。",
    ),
    "too_many_notes": Message("There are more notes than events.", "备注比记录多。"),
    "note_too_long": Message(
        "note must be text of at most {maximum} characters.",
        "备注须为不超过 {maximum} 个字符的文本。",
    ),
    "revision_not_whole": Message(
        "revision must be the whole number the hand was read with.",
        "revision 必须是读取这一手时得到的整数。",
    ),
    "idempotency_key_length": Message(
        "The Idempotency-Key must be 1 to {maximum} characters.",
        "Idempotency-Key 须为 1 到 {maximum} 个字符。",
    ),
    "idempotency_key_reused": Message(
        "This Idempotency-Key was already used for a different round in this session: send a new key for a "
        "new round.",
        "这个 Idempotency-Key 已用于本场的另一局：新的一局请使用新的 key。",
    ),
    "round_voided": Message(
        "This round was voided: it can no longer be corrected.",
        "这一局已作废，不能再更正。",
    ),
    "round_changed": Message(
        "Someone else changed this hand while you were correcting it: here it is as it stands now.",
        "你更正期间这一手已被别人改过，下面是它现在的样子。",
    ),
    "hand_changed": Message(
        "Someone else changed this hand in the meantime: here it is as it stands now.",
        "这一手刚被别人改过，下面是最新的情况。",
    ),
    # ---- a group file (``group_file``)
    "not_a_group_file": Message('This is not a group file: "format" must be "{format}".', "这不是组文件。"),
    "group_file_version": Message(
        "This server reads group files of version {version}; got {value!r}.",
        "本服务器只能读取第 {version} 版的组文件，收到 {value!r}。",
    ),
    "file_sittings": Message(
        "The seating is not one a table can have had: each seat held by one player at a time from hand 1 "
        "on, its first as the session's seats say, nobody at two seats at once.",
        "座位记录不成立：每个座位从第 1 手起同一时间只能坐一人，起始的人须与 seats 一致，"
        "且一人不能同时坐两个座位。",
    ),
    "file_not_an_object": Message("{path} must be an object.", "{path} 必须是对象。"),
    "file_not_a_list": Message("{path} must be a list.", "{path} 必须是列表。"),
    "file_not_whole": Message("{path} must be a whole number.", "{path} 必须是整数。"),
    "file_not_a_moment": Message(
        "{path} must be a date and time with its offset.",
        "{path} 必须是带时区的日期时间。",
    ),
    "file_player_twice": Message("Player id {value} appears twice.", "玩家编号 {value} 重复。"),
    "file_no_such_player": Message("No such player in the file.", "文件中没有这位玩家。"),
    "file_round_positions": Message(
        "Rounds must be numbered 1, 2, 3 … in order.", "局号必须按 1、2、3 … 排列。"
    ),
    "file_version_numbers": Message(
        "A round's versions are numbered 1, 2, 3 …, and only the first is recorded.",
        "每局的版本须按 1、2、3 … 编号，且只有第一版是记录（recorded）。",
    ),
    "file_version_kind": Message("Unknown kind {value!r}.", "未知的版本类型 {value!r}。"),
    "file_round_without_versions": Message("A round has at least one version.", "每局至少有一个版本。"),
    "file_sequence_shared": Message("Two versions share one sequence number.", "两个版本的序号相同。"),
    "file_rounds_out_of_order": Message("Rounds are recorded in position order.", "各局须按局号顺序记录。"),
    "file_changed_before_recorded": Message(
        "A round is changed before it is recorded.",
        "某局在记录之前就被修改。",
    ),
    "file_idempotency_key": Message(
        "An idempotency key is 1 to {maximum} printable characters, or null.",
        "idempotency_key 须为 1 到 {maximum} 个可打印字符，或为 null。",
    ),
    "file_mark_twice": Message("Payment mark id {value} appears twice.", "付款标记编号 {value} 重复。"),
    "file_mark_pair": Message(
        "A payment is between two different players who sat in the session.",
        "付款须在本场入座的两位不同玩家之间。",
    ),
    "file_mark_amount": Message(
        "A payment is a whole number above 0; a reversal, minus the amount of the mark it cancels.",
        "付款金额须为大于 0 的整数；撤销的金额须为所撤销标记金额的相反数。",
    ),
    "file_mark_reverses": Message(
        "A reversal cancels one earlier mark between the same two players, once (null: not a reversal).",
        "撤销须指向同两位玩家之间较早的一条付款标记，且只能撤销一次（null 表示不是撤销）。",
    ),
    # ---- the table fee (``services.session_fee_set``)
    "fee_amount": Message(
        "The table fee must be a whole number from 0 (none) to {maximum:,}.",
        "台费须为 0（不收）到 {maximum:,} 之间的整数。",
    ),
    "fee_split": Message("split must be one of {choices}.", "分摊方式只能是 {choices} 之一。"),
    "fee_paid_by": Message(
        "paid_by must be a player of this session, or null while the room is still to be paid.",
        "垫付台费的人须是本场的玩家；还没付给场地时留空。",
    ),
    # ---- payments toward a settle-up (``services.payment_mark``, ``payment_undo``)
    "payment_nothing_due": Message(
        "Nothing is left to pay from this player to that one in this session.",
        "本场这两人之间，这个方向已经没有要付的钱了。",
    ),
    "payment_amount": Message(
        "amount must be a whole number from 1 to {left}, what is left to pay.",
        "金额须为 1 到 {left} 之间的整数（还剩这么多没付）。",
    ),
    "payment_not_yours": Message(
        "Only the payer or the payee marks a payment (or anyone who keeps score, for a player without an "
        "account).",
        "只有付钱的人或收钱的人能标记已付（没有账号的玩家，可由记分的人代为标记）。",
    ),
    "payment_not_your_mark": Message(
        "Only whoever marked this payment can undo it (an owner, when nobody here made the mark).",
        "只有标记这笔付款的人才能撤销它（不是本站账号标记的，由群主撤销）。",
    ),
    "payment_undo_a_reversal": Message(
        "This is the undoing of a mark; it cannot be undone itself.", "这是一次撤销，不能再撤销。"
    ),
    "payment_already_undone": Message("This mark is already undone.", "这笔标记已经撤销过了。"),
    # ---- changing seats between hands (``services.session_seats_change``)
    "seat_change_mid_hand": Message(
        "This hand has begun: seats change between hands. Finish or undo this hand's events first.",
        "这一手已经开始：换人、换座只能在两手之间。请先打完这一手，或撤销本手的记录。",
    ),
    "seat_change_coins": Message(
        "A session that plays for coins keeps its four players: each seat's coins are its player's. "
        "Close it and start another with the new player.",
        "玩游戏币的场次不能换人：每个座位的游戏币属于坐在那里的人。请结束本场，换人后再开一场。",
    ),
    "seat_change_seat": Message("A seat is 0, 1, 2 or 3.", "座位只能是 0、1、2 或 3。"),
    "seat_change_one": Message(
        "Give one of player, name or swap: who takes the seat, or the seat it swaps with.",
        "请给出 player、name 或 swap 其中之一：谁来坐这个座位，或与哪个座位互换。",
    ),
    "seat_change_swap_itself": Message("A seat cannot swap with itself.", "座位不能和自己互换。"),
    "seat_change_seated": Message(
        "This player already sits at seat {seat}: swap the two seats instead.",
        "这位玩家已经坐在第 {seat} 座：请用“换座”让两人互换。",
    ),
    "file_figures_differ": Message(
        "The file's figures differ from a replay of its hands, which gives {replayed}: nothing was imported.",
        "文件中的数字与重算各手牌的结果不一致（重算得到 {replayed_zh}）：未导入任何内容。",
    ),
    "file_chain_broken": Message(
        "The file's seal does not hold here: it was changed after it was exported, or comes from an older "
        "version of the app. Nothing was imported. Import it with re-seal only if you trust it: you are "
        "then recorded as its importer, and its writers and times stand as the file's claim.",
        "文件的校验链在这里对不上：导出后被改过，或来自旧版本。未导入任何内容。只有在你信得过这份文件时，"
        "才选“重新封存”导入：系统会记下是你导入的，文件里的记录人和时间只算文件的说法。",
    ),
}


class LedgerError(EngineError):
    """Input a service refuses (a 400 naming the field), worded by the ledger's catalogue."""

    catalogue = MESSAGES


class LedgerRefusal(Exception):
    """A write the state of the ledger refuses; ``detail`` is the error's body. It carries no HTTP status:
    the API chooses one for each kind, in one place (``ledger/api/refusals.py``)."""

    def __init__(self, code: str, field: str) -> None:
        self.error: EngineError = LedgerError(code, field=field)
        super().__init__(self.error.message)
        self.detail = self.error.to_dict()

    def localized(self, language: str) -> str:
        """The message in ``language`` (a Django language code), as ``EngineError.localized`` gives it."""
        return self.error.localized(language)


class Forbidden(PermissionDenied):
    """The actor's role does not allow the write (403): the API answers its words English in ``detail``
    and Chinese in ``detail_zh`` (api/errors.py, ``worded_refusal``); a page shows the one of its language."""

    def __init__(self, code: str) -> None:
        self.error = LedgerError(code, field="permission")
        super().__init__(self.error.message)

    def localized(self, language: str) -> str:
        return self.error.localized(language)


class SessionClosedError(LedgerRefusal):
    """A closed session takes no new rounds, corrections or voids."""

    def __init__(self) -> None:
        super().__init__("session_closed", "session")


class RoundVoidedError(LedgerRefusal):
    def __init__(self) -> None:
        super().__init__("round_voided", "round")


class PaymentUndoneError(LedgerRefusal):
    """A payment mark is undone once; a second undo finds its reversal already written."""

    def __init__(self) -> None:
        super().__init__("payment_already_undone", "mark")


class StaleRoundError(LedgerRefusal):
    """A correction made on a version of the round that is no longer its current one."""

    def __init__(self) -> None:
        super().__init__("round_changed", "version")


class IdempotencyKeyReusedError(LedgerRefusal):
    """The same Idempotency-Key sent again with a different round."""

    def __init__(self) -> None:
        super().__init__("idempotency_key_reused", "Idempotency-Key")


class InvitationAnsweredError(LedgerRefusal):
    """An invitation to a group is answered once: accepted or declined, it cannot be answered again."""

    def __init__(self) -> None:
        super().__init__("invitation_answered", "invitation")


# Why an invite link no longer works (``SessionInvite.state``), as a code.
INVITE_REFUSALS = {"revoked": "invite_revoked", "expired": "invite_expired"}


class InviteUnusableError(LedgerRefusal):
    """A revoked or expired invite link: it existed, it will not work again."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(INVITE_REFUSALS[reason], "invite")


class HandConflict(LedgerRefusal):
    """A write the hand in progress cannot take as it stands now; the API answers it with the current
    hand beside the error, a page shows it with the message."""


class StaleHandError(HandConflict):
    """The writer saw an older revision: someone else changed the hand (or the session's ledger) since."""

    def __init__(self) -> None:
        super().__init__("hand_changed", "revision")


class SeatChangeRefusedError(HandConflict):
    """A change of seats the hand in progress cannot take now (it has begun; the session plays for
    coins): answered, as every conflict with the hand, with the hand as it stands."""

    def __init__(self, code: str) -> None:
        super().__init__(code, "seat")


class HandRefusedError(HandConflict):
    """A transition the hand in progress cannot take as it stands (nothing to undo or redo, a setup after
    the first event, an event that is not there): the engine's refusal, answered as a conflict."""

    def __init__(self, refusal: EngineError) -> None:
        Exception.__init__(self, refusal.message)
        self.error = refusal
        self.detail = refusal.to_dict()
