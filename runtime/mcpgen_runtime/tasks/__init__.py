"""The official tasks extension (``io.modelcontextprotocol/tasks``, SEP-2663) on a generated
server: a tool whose ``execution.taskSupport`` allows it answers a ``tools/call`` with a task
that the client follows with ``tasks/get``, ``tasks/update`` and ``tasks/cancel``.

* ``settings``: the identifier, ``server.tasks``, per-request negotiation, ``-32021``;
* ``store`` / ``redis_store``: where tasks live (memory, or Redis with ``--state``);
* ``changes``: the transitions of a task, applied atomically by the store;
* ``runner``: the decision per call, creation, the handler's detached run, replica death, and
  ``join``, which joins ``Tasks`` to a runtime (no SDK needed);
* ``request``: what a handler inside a task sees as its request (progress -> statusMessage);
* ``methods``: ``tasks/*`` on the SDK ``Server`` and ``install``; ``listen``: status
  notifications on ``subscriptions/listen``.

Generated code only declares (the manifest's fields reach ``ServerInfo.tasks`` and each tool's
definition); ``server.build`` joins this package when a tool has ``execution``, and
``server.sdk_server`` installs its methods when the SDK's server is made.
"""
