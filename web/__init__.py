"""What the pages of several apps share (ARCHITECTURE.md layer 4): no app's pages import another's.

- ``htmx``: django-htmx's typed request and the page-or-fragment response every page gives.
- ``notation``: a form's strings read as the API's body: tiles, the melds notation (``碰5p 暗杠3m``) and the
  house-rules fields. Like ``names``, free of Django: the offline engine runs it in the browser.
- ``names``: an engine name in the page's language; ``language``: the page's language.
- ``tiles``: tile faces, the tile picker and the hand being built, drawn.
- ``rules_form``: the house-rules fields of a form (preset and options), shown.
- ``seats``: the four seats in the one order every grid and choice row uses.
- ``charts``: line charts drawn on the server as inline SVG (a session's running totals, a group's standings).
- ``entry``: the event entry (杠 / 胡 / 流局 / 逃跑) over a hand store, used by every page that enters a hand.

Templates live in ``templates/web/``. Nothing here imports ``calculator``'s, ``settlement``'s or
``ledger``'s own modules; the engines' public names only.
"""
