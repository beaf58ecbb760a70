"""How the OpenAPI schema describes the API's token (drf-spectacular extension, registered on import).

As knox's own description, ``Authorization: Token <key>`` (an API key in the header, its prefix named),
so a generated client sends ``Token``, not ``Bearer``; under DRF's name for it, ``tokenAuth``, which the
schema gave the token before the tokens moved to knox.
"""

from drf_spectacular.contrib.knox_auth_token import KnoxTokenScheme


class DeviceTokenScheme(KnoxTokenScheme):  # type: ignore[no-untyped-call]  # the contrib is untyped
    target_class = "ledger.tokens.DeviceTokenAuthentication"
    name = "tokenAuth"
