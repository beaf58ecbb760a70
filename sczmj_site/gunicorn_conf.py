"""gunicorn's settings: `gunicorn -c python:sczmj_site.gunicorn_conf sczmj_site.wsgi` (as `make serve` does).

Every value can be changed from the environment without editing this file: ``SCZMJ_BIND`` (address and
port, 127.0.0.1:8000 by default: the TLS proxy in front is what faces the world), ``WEB_CONCURRENCY``
(worker processes) and ``SCZMJ_THREADS`` (threads per worker); gunicorn itself also reads
``GUNICORN_CMD_ARGS`` and ``FORWARDED_ALLOW_IPS``. docs/deployment.md explains the choice of numbers.
"""

import os

bind = os.environ.get("SCZMJ_BIND", "127.0.0.1:8000").split(",")

# Requests spend much of their time waiting for the database, so threads share a worker's memory and
# keep the CPU busy; two processes per core keep one slow request from holding a whole core.
workers = int(os.environ.get("WEB_CONCURRENCY", str(2 * (os.cpu_count() or 1))))
worker_class = "gthread"
threads = int(os.environ.get("SCZMJ_THREADS", "4"))

# Not preloaded: each worker imports the app itself, so `kill -HUP` (systemctl reload) brings up workers
# on new code after an upgrade while the old ones finish their requests. A settings error (no key, say)
# still stops the server at start: gunicorn exits when a worker fails to boot.

timeout = 30  # a request still running after 30 s is a bug; the worker is replaced
graceful_timeout = 30  # on SIGTERM (an upgrade), requests in flight get this long to finish
keepalive = 5  # the proxy keeps connections to us open between requests

# Several gunicorn servers on one machine would otherwise share one control socket in $HOME.
control_socket_disable = True

accesslog = "-"
errorlog = "-"
# The client as the proxy saw it (X-Forwarded-For) beside gunicorn's own peer, and the time in ms.
access_log_format = '%(h)s %({x-forwarded-for}i)s "%(r)s" %(s)s %(B)s %(M)sms'
