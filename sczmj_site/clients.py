"""Who is asking: the client's address, read one way for the API throttles and the login lockout.

Behind a reverse proxy every request comes from the proxy's address; the client's own is in
``X-Forwarded-For``, which the client can also write itself. ``REST_FRAMEWORK["NUM_PROXIES"]``
(``DJANGO_NUM_PROXIES``) says how many proxies of ours append to that header: with 0 the header is
ignored, with N the N-th address from the right is the one our outermost proxy saw. DRF's throttles
read it so; django-axes is pointed here (``AXES_CLIENT_IP_CALLABLE``) so both count the same client.
"""

from django.http import HttpRequest
from rest_framework.throttling import BaseThrottle


def client_address(request: HttpRequest) -> str | None:
    """The client's address as the throttles count it (DRF's ``get_ident`` under ``NUM_PROXIES``)."""
    # DRF's Request and Django's HttpRequest both carry META, all get_ident reads
    return BaseThrottle().get_ident(request) or None  # type: ignore[arg-type]
