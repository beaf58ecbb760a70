"""What the JSON APIs of every app share (ARCHITECTURE.md layer 4): the one shape of an error body (404s
and 500s under ``/api/`` included) and English as the language of every ``detail`` (``middleware``).

It sits among the adapters, not in ``sczmj_site``, because turning an engine's ``EngineError`` into a 400
needs the engine, and the site package is wiring only.
"""
