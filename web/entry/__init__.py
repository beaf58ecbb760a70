"""The event entry: 杠 / 胡 / 流局 / 逃跑, undo and redo, the end-of-hand card and 下一手, as one UI.

Every page that enters a hand (the stateless ``/round/``, the stored session page, the correction of a
past hand) uses these templates and this view code over its own ``HandStore`` (``store.py``): the store
keeps the hand; this package turns taps into settle events (``events.py``), explains what the engine
settled (``explain.py``) and answers each tap with the part of the page that changed (``page.py``).
"""
