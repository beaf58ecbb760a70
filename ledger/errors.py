"""The ledger's refusals that are not bad input: a closed session, a reused idempotency key, a hand in
progress changed by someone else.

They carry the same body shape as ``EngineError.to_dict()`` (field, detail, detail_zh, errors), so a
client parses every error of the API one way.
"""

from rest_framework import status
from rest_framework.exceptions import APIException


class LedgerRefusal(APIException):
    status_code = status.HTTP_409_CONFLICT

    def __init__(self, field: str, message: str, message_zh: str):
        super().__init__()
        self.field = field
        self.message = message
        self.message_zh = message_zh
        self.detail = {
            "field": field,
            "detail": message,
            "detail_zh": message_zh,
            "errors": {field: [message]},
        }

    def __str__(self) -> str:
        return self.message

    def localized(self, language: str) -> str:
        """The message in ``language`` (a Django language code), as ``EngineError.localized`` gives it."""
        return self.message_zh if language.lower().startswith("zh") else self.message


class SessionClosedError(LedgerRefusal):
    """A closed session takes no new rounds, corrections or voids."""

    def __init__(self) -> None:
        super().__init__(
            "session",
            "This session is closed: it takes no new rounds or corrections.",
            "本场已结束，不能再记录或更正。",
        )


class RoundVoidedError(LedgerRefusal):
    def __init__(self) -> None:
        super().__init__(
            "round", "This round was voided: it can no longer be corrected.", "这一局已作废，不能再更正。"
        )


class StaleRoundError(LedgerRefusal):
    """A correction made on a version of the round that is no longer its current one."""

    def __init__(self) -> None:
        super().__init__(
            "version",
            "Someone else changed this hand while you were correcting it: here it is as it stands now.",
            "你更正期间这一手已被别人改过，下面是它现在的样子。",
        )


class IdempotencyKeyReusedError(LedgerRefusal):
    """The same Idempotency-Key sent again with a different round (RFC draft: 422)."""

    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY

    def __init__(self) -> None:
        super().__init__(
            "Idempotency-Key",
            "This Idempotency-Key was already used for a different round in this session: "
            "send a new key for a new round.",
            "这个 Idempotency-Key 已用于本场的另一局：新的一局请使用新的 key。",
        )


class InvitationAnsweredError(LedgerRefusal):
    """An invitation to a group is answered once: accepted or declined, it cannot be answered again."""

    def __init__(self) -> None:
        super().__init__("invitation", "This invitation has already been answered.", "这个邀请已经答复过了。")


INVITE_REFUSALS = {
    "revoked": ("This invite link was revoked.", "这个邀请链接已被撤销。"),
    "expired": ("This invite link has expired.", "这个邀请链接已过期。"),
}


class InviteUnusableError(LedgerRefusal):
    """A revoked or expired invite link (410 Gone: it existed, it will not work again)."""

    status_code = status.HTTP_410_GONE

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__("invite", *INVITE_REFUSALS[reason])


class HandConflict(LedgerRefusal):
    """A write the hand in progress cannot take as it stands now; the API answers 409 with the current
    hand beside the error, a page shows it with the message."""


class StaleHandError(HandConflict):
    """The writer saw an older revision: someone else changed the hand (or the session's ledger) since."""

    def __init__(self) -> None:
        super().__init__(
            "revision",
            "Someone else changed this hand in the meantime: here it is as it stands now.",
            "这一手刚被别人改过，下面是最新的情况。",
        )


class NothingToUndoError(HandConflict):
    def __init__(self) -> None:
        super().__init__(
            "events",
            "This hand has no event to undo; a finished hand is corrected from the history.",
            "这一手还没有可撤销的记录；已结束的一手请在历史里更正。",
        )


class NothingToRedoError(HandConflict):
    def __init__(self) -> None:
        super().__init__("undone", "There is no undone event to redo.", "没有可重做的记录。")


class HandStartedError(HandConflict):
    def __init__(self) -> None:
        super().__init__(
            "events",
            "The dealer and void suits are set before the hand's first event: undo its events first.",
            "庄家和定缺要在这一手的第一条记录之前设定：请先撤销已记录的内容。",
        )
