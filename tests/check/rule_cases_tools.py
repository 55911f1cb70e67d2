"""Lint rule cases (``test_check_rules.CASES``): tool names and titles, annotations, icons,
execution and tasks. One row per case: the rule, a small manifest, the exact (line, col) of each
of that rule's findings."""

from __future__ import annotations

CASES: list[tuple[str, str, list[tuple[int, int]]]] = [
    (
        "TOOL_NAME_LENGTH",
        f"""
        tools:
          - name: ""
            inputSchema: {{type: object}}
          - name: {"a" * 129}
            inputSchema: {{type: object}}
          - name: {"b" * 128}
            inputSchema: {{type: object}}
        """,
        [(2, 11), (4, 11)],
    ),
    (
        "TOOL_NAME_CHARSET",
        """
        tools:
          - name: get weather
            inputSchema: {type: object}
          - name: a/b,c
            inputSchema: {type: object}
          - name: ok.name-1_X
            inputSchema: {type: object}
        """,
        [(2, 11), (4, 11)],
    ),
    (
        "TOOL_NAME_UNIQUE",
        """
        tools:
          - name: a
            inputSchema: {type: object}
          - name: b
            inputSchema: {type: object}
          - name: a
            inputSchema: {type: object}
        """,
        [(6, 11)],
    ),
    (
        "TOOL_NAME_CASE_COLLISION",
        """
        tools:
          - name: Search
            inputSchema: {type: object}
          - name: search
            inputSchema: {type: object}
        """,
        [(4, 11)],
    ),
    (
        "TOOL_NAME_PORTABLE",
        """
        tools:
          - name: files.read
            inputSchema: {type: object}
          - name: files_read
            inputSchema: {type: object}
        """,
        [(2, 11)],
    ),
    (
        "TOOL_FIELD_REVISION",
        """
        protocol: [2025-03-26, 2025-11-25, 2026-07-28]
        tools:
          - name: a
            title: A
            inputSchema: {type: object}
            outputSchema: {type: object}
            annotations: {readOnlyHint: true}
            icons: [{src: "https://x.test/i.png"}]
            execution: {taskSupport: optional}
        """,
        [(4, 5), (6, 5), (8, 5), (9, 5)],
    ),
    (
        "TOOL_TASK_REQUIRED_REVISION",
        """
        tools:
          - name: a
            inputSchema: {type: object}
            execution: {taskSupport: required}
          - name: b
            inputSchema: {type: object}
            execution: {taskSupport: optional}
        """,
        [(4, 30)],
    ),
    (
        "TOOL_TASK_REQUIRED_REVISION",
        """
        protocol: [2026-07-28]
        tools:
          - name: a
            inputSchema: {type: object}
            execution: {taskSupport: required}
        """,
        [],
    ),
    (
        "TOOL_TASK_REQUIRED_REVISION",
        """
        protocol: [2025-11-25, 2026-07-28]
        tools:
          - name: a
            inputSchema: {type: object}
            execution: {taskSupport: required}
        """,
        [(5, 30)],
    ),
    (
        "TOOL_TASK_NO_EXTENSION_REVISION",
        """
        protocol: [2025-06-18, 2025-11-25]
        tools:
          - name: a
            inputSchema: {type: object}
            execution: {taskSupport: optional}
          - name: b
            inputSchema: {type: object}
            execution: {taskSupport: forbidden}
        """,
        [(5, 30)],
    ),
    (
        "TOOL_TASK_NO_EXTENSION_REVISION",
        """
        protocol: [2025-11-25, 2026-07-28]
        tools:
          - name: a
            inputSchema: {type: object}
            execution: {taskSupport: optional}
        """,
        [],
    ),
    (
        "TASKS_SETTING_RANGE",
        """
        server:
          tasks: {keepSeconds: 0, pollIntervalMs: 1.5, maxLivePerCaller: true, maxLive: 10}
        tools:
          - name: a
            inputSchema: {type: object}
            execution: {taskSupport: optional}
        """,
        [(2, 24), (2, 43), (2, 66)],
    ),
    (
        "TASKS_SETTING_RANGE",
        """
        server:
          tasks: [keepSeconds]
        tools:
          - name: a
            inputSchema: {type: object}
            execution: {taskSupport: optional}
        """,
        [(2, 10)],
    ),
    (
        "TASKS_SETTING_UNKNOWN",
        """
        server:
          tasks:
            keepSecond: 60
            maxLive: 5
        tools:
          - name: a
            inputSchema: {type: object}
            execution: {taskSupport: optional}
        """,
        [(3, 5)],
    ),
    (
        "TASKS_CAPS_ORDER",
        """
        server:
          tasks:
            maxLivePerCaller: 20
            maxLive: 10
        tools:
          - name: a
            inputSchema: {type: object}
            execution: {taskSupport: required}
        """,
        [(3, 23)],
    ),
    (
        "TASKS_CAPS_ORDER",
        """
        server:
          tasks: {maxLivePerCaller: 10, maxLive: 10}
        tools:
          - name: a
            inputSchema: {type: object}
            execution: {taskSupport: required}
        """,
        [],
    ),
    (
        "TASKS_POLL_AFTER_EXPIRY",
        """
        server:
          tasks:
            keepSeconds: 5
            pollIntervalMs: 5000
        tools:
          - name: a
            inputSchema: {type: object}
            execution: {taskSupport: optional}
        """,
        [(4, 21)],
    ),
    (
        "TASKS_UNUSED",
        """
        server:
          tasks: {keepSeconds: 600}
        tools:
          - name: a
            inputSchema: {type: object}
            execution: {taskSupport: forbidden}
        """,
        [(2, 3)],
    ),
    (
        "TOOL_DESCRIPTION_MISSING",
        """
        tools:
          - name: a
            inputSchema: {type: object}
          - name: b
            description: "  "
            inputSchema: {type: object}
          - name: c
            description: does c
            inputSchema: {type: object}
        """,
        [(2, 11), (4, 11)],
    ),
    (
        "ANNOTATION_UNKNOWN_FIELD",
        """
        tools:
          - name: a
            inputSchema: {type: object}
            annotations: {readonlyHint: true, title: T, x-vendor: 1, category: io}
        """,
        [(4, 49), (4, 62)],
    ),
    (
        "ANNOTATION_FIELD_TYPO",
        """
        tools:
          - name: a
            inputSchema: {type: object}
            annotations: {readonlyHint: true, title: T, destructive_hint: false, idempotent: true}
        """,
        [(4, 19), (4, 49), (4, 74)],
    ),
    (
        "ANNOTATION_TYPE",
        """
        tools:
          - name: a
            inputSchema: {type: object}
            annotations: {readOnlyHint: "yes", title: 3, openWorldHint: false}
        """,
        [(4, 33), (4, 47)],
    ),
    (
        "ANNOTATION_CONTRADICTION",
        """
        tools:
          - name: a
            inputSchema: {type: object}
            annotations: {readOnlyHint: true, destructiveHint: true}
          - name: b
            inputSchema: {type: object}
            annotations: {readOnlyHint: false, destructiveHint: true}
        """,
        [(4, 56)],
    ),
    (
        "ANNOTATION_REDUNDANT",
        """
        tools:
          - name: a
            inputSchema: {type: object}
            annotations: {readOnlyHint: true, destructiveHint: false, idempotentHint: true}
          - name: b
            inputSchema: {type: object}
            annotations: {readOnlyHint: true, destructiveHint: true}
        """,
        [(4, 39), (4, 63)],
    ),
    (
        "ICON_SRC",
        """
        protocol: 2025-11-25
        server:
          name: s
          icons: [{src: "icon.png"}]
        tools:
          - name: a
            inputSchema: {type: object}
            icons:
              - {src: "https://x.test/a.png"}
              - {src: "data:image/png;base64,AAAA"}
              - {src: "javascript:alert(1)"}
        """,
        [(4, 17), (11, 15)],
    ),
    (
        "ICON_SRC_HTTPS",
        """
        protocol: 2025-11-25
        tools:
          - name: a
            inputSchema: {type: object}
            icons: [{src: "http://x.test/a.png"}]
        """,
        [(5, 19)],
    ),
    (
        "ICON_SIZES",
        """
        protocol: 2025-11-25
        tools:
          - name: a
            inputSchema: {type: object}
            icons:
              - src: https://x.test/a.png
                sizes: [48x48, any, "48", 0x0, 48X48]
        """,
        [(7, 29), (7, 35), (7, 40)],
    ),
    (
        "ICON_THEME",
        """
        protocol: 2025-11-25
        tools:
          - name: a
            inputSchema: {type: object}
            icons:
              - {src: "https://x.test/a.png", theme: dark}
              - {src: "https://x.test/b.png", theme: Dark}
        """,
        [(7, 46)],
    ),
    (
        "EXECUTION_TASK_SUPPORT",
        """
        protocol: 2025-11-25
        tools:
          - name: a
            inputSchema: {type: object}
            execution: {taskSupport: sometimes}
          - name: b
            inputSchema: {type: object}
            execution: {taskSupport: required}
        """,
        [(5, 30)],
    ),
]
