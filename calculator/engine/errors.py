"""The one exception type of the engines.

Every error has a stable ``code`` (``fifth_copy``, ``not_a_boolean``: a client may switch on it), names
the input field it is about (``concealed``, ``melds[1].kind``, ``rules.cap_multiplier``,
``events[3].winners[0].hand``) and carries the values its message names. The English and the Chinese
message are rendered from one catalogue (``messages.MESSAGES``), so the API and the pages give the same
words in the reader's language; ``str(error)`` is the English one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from .messages import MESSAGES, Catalogue, Message

# The value that names a seat in the templates (0 to 3, as the API numbers seats), and the words around it
# there, which a page drops when it says the player's name instead.
SEAT_PARAM = "player"
SEAT_WORDS = ("Player {player}", "player {player}", "玩家 {player} ", "玩家 {player}")


class EngineError(ValueError):
    """Invalid input to an engine: a code of ``catalogue``, the field it concerns, the message's values.

    A layer above the engines that refuses input in the same shape subclasses it with a catalogue of its
    own (``catalogue``), so every refusal is rendered one way and caught as one type.
    """

    catalogue: ClassVar[Catalogue] = MESSAGES

    def __init__(self, code: str, *, field: str, event: int | None = None, **params: object) -> None:
        super().__init__(code, field)
        self.entry: Message = self.catalogue[code]  # an unknown code fails here, not when shown
        self.code = code
        self.field = _encodable(field)
        self.event = event
        self.params = params

    def __str__(self) -> str:
        return self.message

    @property
    def message(self) -> str:
        """The English message (the API's ``detail``)."""
        return _encodable(self.entry.en.format_map(self.params))

    @property
    def message_zh(self) -> str:
        """The Chinese message (the API's ``detail_zh``)."""
        return _encodable(self.entry.zh.format_map(self.params))

    def localized(self, language: str, names: Sequence[str] | None = None) -> str:
        """The message in ``language`` (a Django language code): Chinese for ``zh*``, English otherwise.
        With the seats' ``names`` (a page), a seat is its player's name, not the API's 0-based number:
        "杠上花/杠上炮要求上一个事件是阿美的杠", not "…玩家 2 的杠" (SEAT_WORDS)."""
        template = self.entry.zh if language.lower().startswith("zh") else self.entry.en
        seat = self.params.get(SEAT_PARAM)
        if names is None or not isinstance(seat, int) or not 0 <= seat < len(names):
            return _encodable(template.format_map(self.params))
        for words in SEAT_WORDS:
            template = template.replace(words, f"{{{SEAT_PARAM}}}")
        return _encodable(template.format_map({**self.params, SEAT_PARAM: names[seat]}))

    def within(self, prefix: str, *, event: int | None = None) -> EngineError:
        """The same error seen from an enclosing field: ``hand`` inside ``events[2].winners[0]``."""
        field = f"{prefix}.{self.field}" if self.field else prefix
        return self.at(field, self.event if event is None else event)

    def at(self, field: str, event: int | None) -> EngineError:
        """The same error (same code and values) about ``field`` of the round's event ``event``."""
        return type(self)(self.code, field=field, event=event, **self.params)

    def to_dict(self) -> dict[str, object]:
        """The API's error body; ``code`` comes last, after the fields API.md had first."""
        message = self.message
        body: dict[str, object] = {
            "field": self.field,
            "detail": message,
            "detail_zh": self.message_zh,
            "errors": {self.field: [message]},
        }
        if self.event is not None:
            body["event"] = self.event
        body["code"] = self.code
        return body


def _encodable(text: str) -> str:
    """``text`` as UTF-8 can carry it: a lone surrogate echoed from the input becomes its ``\\udXXX``
    escape, so no page, response or log line fails to encode the message."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")
