"""What the pages of several apps share (ARCHITECTURE.md layer 4): no app's pages import another's.

- ``htmx``: django-htmx's typed request and the page-or-fragment response every page gives.
- ``language``: an engine name in the page's language.
- ``tiles``: tile faces, the tile picker, the hand being built and the melds notation (``碰5p 暗杠3m``).
- ``rules_form``: the house-rules fields of a form (preset and options), read into the API's ``rules``.
- ``seats``: the four seats in the one order every grid and choice row uses.
- ``charts``: line charts drawn on the server as inline SVG (a session's running totals, a group's standings).
- ``entry``: the event entry (杠 / 胡 / 流局 / 逃跑) over a hand store, used by every page that enters a hand.

Templates live in ``templates/web/``. Nothing here imports ``calculator``'s, ``settlement``'s or
``ledger``'s own modules; the engines' public names only.
"""
