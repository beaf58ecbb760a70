"""The one exception type of the engines.

Every error names the input field it is about (``concealed``, ``melds[1].kind``, ``rules.cap_multiplier``,
``events[3].winners[0].hand``) and says what is wrong in English and in Chinese, so the API and the pages
give the same message in the reader's language.
"""

from __future__ import annotations


class EngineError(ValueError):
    """Invalid input to an engine: the field it concerns and a player-readable message (en and zh)."""

    def __init__(self, field: str, message: str, message_zh: str | None = None, *, event: int | None = None):
        message = _encodable(message)
        super().__init__(message)
        self.field = _encodable(field)
        self.message = message
        self.message_zh = _encodable(message_zh) if message_zh else message
        self.event = event

    def localized(self, language: str) -> str:
        """The message in ``language`` (a Django language code): Chinese for ``zh*``, English otherwise."""
        return self.message_zh if language.lower().startswith("zh") else self.message

    def within(self, prefix: str, *, event: int | None = None) -> EngineError:
        """The same error seen from an enclosing field: ``hand`` inside ``events[2].winners[0]``."""
        field = f"{prefix}.{self.field}" if self.field else prefix
        return EngineError(field, self.message, self.message_zh, event=self.event if event is None else event)

    def to_dict(self) -> dict[str, object]:
        body: dict[str, object] = {
            "field": self.field,
            "detail": self.message,
            "detail_zh": self.message_zh,
            "errors": {self.field: [self.message]},
        }
        if self.event is not None:
            body["event"] = self.event
        return body


def _encodable(text: str) -> str:
    """``text`` as UTF-8 can carry it: a lone surrogate echoed from the input becomes its ``\\udXXX``
    escape, so no page, response or log line fails to encode the message."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")
