"""The ledger's phone pages, one module per area, each with its own ``urlpatterns``.

Views are thin: they read through ``ledger.selectors``, write through ``ledger.services`` and render a
template of ``templates/ledger/<area>/``. A refusal of a service (``EngineError``, ``PermissionDenied``)
becomes a message on the page in its language; nothing is stored by a refused form.
"""
