"""One table row per lint rule: a small manifest and the exact (line, col) of each finding.

buf style: every row asserts the complete list of findings *of that rule*, so a rule that
fires too often or in the wrong place fails, and so does one that stops firing.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from lint_helpers import lint, tuples

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
        "INPUT_SCHEMA_REQUIRED",
        """
        tools:
          - name: a
            inputSchema: null
          - name: b
            inputSchema: {type: object}
        """,
        [(3, 18)],
    ),
    (
        "INPUT_SCHEMA_ROOT_OBJECT",
        """
        tools:
          - name: a
            inputSchema: {type: array}
          - name: b
            inputSchema: {properties: {x: {type: string}}}
          - name: c
            inputSchema: {type: object}
        """,
        [(3, 25), (5, 18)],
    ),
    (
        "INPUT_SCHEMA_ROOT_COMBINATOR",
        """
        tools:
          - name: a
            inputSchema:
              type: object
              anyOf:
                - {required: [x]}
              properties:
                x: {type: string, anyOf: [{minLength: 1}]}
        """,
        [(5, 7)],
    ),
    (
        "INPUT_SCHEMA_NO_PARAMS_OPEN",
        """
        protocol: 2025-11-25
        tools:
          - name: a
            inputSchema: {type: object}
          - name: b
            inputSchema: {type: object, additionalProperties: false}
          - name: c
            inputSchema: {type: object, properties: {x: {type: string}}}
        """,
        [(4, 18)],
    ),
    (
        "OUTPUT_SCHEMA_ROOT_OBJECT",
        """
        protocol: [2025-11-25]
        tools:
          - name: a
            inputSchema: {type: object}
            outputSchema: {type: array, items: {type: string}}
          - name: b
            inputSchema: {type: object}
            outputSchema: {type: object}
        """,
        [(5, 26)],
    ),
    (
        "SCHEMA_DIALECT_UNKNOWN",
        """
        tools:
          - name: a
            inputSchema:
              $schema: https://example.com/my-dialect
              type: object
          - name: b
            inputSchema:
              $schema: http://json-schema.org/draft-07/schema#
              type: object
        """,
        [(4, 16)],
    ),
    (
        "SCHEMA_DIALECT_PORTABLE",
        """
        protocol: 2025-11-25
        tools:
          - name: a
            inputSchema:
              $schema: http://json-schema.org/draft-07/schema#
              type: object
          - name: b
            inputSchema:
              $schema: https://json-schema.org/draft/2020-12/schema
              type: object
        """,
        [(5, 16)],
    ),
    (
        "OUTPUT_SCHEMA_PATTERN_PYTHON",
        """
        tools:
          - name: a
            inputSchema:
              type: object
              properties:
                x: {type: string, pattern: '^\\p{L}+$'}
            outputSchema:
              type: object
              properties:
                x: {type: string, pattern: '^\\p{L}+$'}
                y: {type: string, pattern: '^[a-z]+$'}
                z:
                  type: object
                  patternProperties:
                    '^\\p{Lu}': {type: string}
                    '^[a-z]': {type: string}
        """,
        [(10, 36), (15, 13)],
    ),
    (
        "SCHEMA_VALID",
        """
        tools:
          - name: a
            inputSchema:
              type: object
              properties:
                x: {type: strin}
                y: {type: string, pattern: "("}
              required: x
          - name: b
            inputSchema:
              $schema: http://json-schema.org/draft-07/schema#
              type: object
              properties:
                t: {items: [{type: string}]}
            outputSchema: null
        """,
        [(6, 19), (7, 36), (8, 17), (15, 19)],
    ),
    (
        "SCHEMA_REF_UNRESOLVED",
        """
        tools:
          - name: a
            inputSchema:
              type: object
              properties:
                x: {$ref: "#/$defs/X"}
                y: {$ref: "other.json#/Y"}
                z: {$ref: "#/$defs/Missing"}
                w: {$ref: "#anchor"}
              $defs:
                X: {type: string, $anchor: anchor}
        """,
        [(7, 19), (8, 19)],
    ),
    (
        "SCHEMA_REQUIRED_UNDEFINED",
        """
        tools:
          - name: a
            inputSchema:
              type: object
              properties:
                x: {type: string}
                nested:
                  type: object
                  properties: {p: {type: string}}
                  required: [p, q]
              required: [x, y]
              anyOf:
                - required: [nested]
        """,
        [(10, 25)],
    ),
    (
        "SCHEMA_REQUIRED_UNDEFINED",
        """
        tools:
          - name: a
            inputSchema:
              type: object
              properties:
                x: {type: string}
                nested:
                  type: object
                  properties: {p: {type: string}}
                  required: [p, q]
              required: [x, y]
        """,
        [(10, 25), (11, 21)],
    ),
    (
        "X_MCP_HEADER_TOKEN",
        """
        protocol: 2026-07-28
        tools:
          - name: a
            inputSchema:
              type: object
              properties:
                x: {type: string, x-mcp-header: ""}
                y: {type: string, x-mcp-header: "Bad Name"}
                z: {type: string, x-mcp-header: "Good-Name_1"}
        """,
        [(7, 41), (8, 41)],
    ),
    (
        "X_MCP_HEADER_UNIQUE",
        """
        protocol: 2026-07-28
        tools:
          - name: a
            inputSchema:
              type: object
              properties:
                x: {type: string, x-mcp-header: Region}
                y: {type: string, x-mcp-header: region}
          - name: b
            inputSchema:
              type: object
              properties:
                x: {type: string, x-mcp-header: Region}
        """,
        [(8, 41)],
    ),
    (
        "X_MCP_HEADER_INTEGER_RANGE",
        """
        protocol: 2026-07-28
        tools:
          - name: a
            inputSchema:
              type: object
              properties:
                ok: {type: integer, minimum: -9007199254740991, maximum: 9007199254740991, \
x-mcp-header: Ok}
                big: {type: integer, maximum: 9007199254740992, x-mcp-header: Big}
                low:
                  type: integer
                  x-mcp-header: Low
                  exclusiveMinimum: -1e20
                  enum: [1, 99999999999999999999]
                  default: 1
                s: {type: string, maxLength: 99999999999999999999, x-mcp-header: S}
        """,
        [(8, 39), (12, 29), (13, 21)],
    ),
    (
        "X_MCP_HEADER_TYPE",
        """
        protocol: 2026-07-28
        tools:
          - name: a
            inputSchema:
              type: object
              properties:
                n: {type: number, x-mcp-header: N}
                i: {type: integer, x-mcp-header: I}
                b: {type: boolean, x-mcp-header: B}
                o: {type: object, x-mcp-header: O}
                u: {x-mcp-header: U}
        """,
        [(7, 41), (10, 41), (11, 27)],
    ),
    (
        "X_MCP_HEADER_REACHABLE",
        """
        protocol: 2026-07-28
        tools:
          - name: a
            inputSchema:
              type: object
              properties:
                ok:
                  type: object
                  properties:
                    deep: {type: string, x-mcp-header: Deep}
                list:
                  type: array
                  items: {type: string, x-mcp-header: Item}
                choice:
                  anyOf:
                    - {type: string, x-mcp-header: Choice}
                ref: {$ref: "#/$defs/R"}
              $defs:
                R: {type: string, x-mcp-header: Ref}
        """,
        [(13, 47), (16, 44), (19, 41)],
    ),
    (
        "X_MCP_HEADER_SECRET",
        """
        protocol: 2026-07-28
        tools:
          - name: a
            inputSchema:
              type: object
              properties:
                api_key: {type: string, x-mcp-header: ApiKey}
                password: {type: string, x-mcp-header: P}
                region: {type: string, x-mcp-header: Region}
        """,
        [(7, 47), (8, 48)],
    ),
    (
        "X_MCP_HEADER_IGNORED",
        """
        protocol: 2025-06-18
        tools:
          - name: a
            inputSchema:
              type: object
              properties:
                region: {type: number, x-mcp-header: Region}
        """,
        [(7, 46)],
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
        "PROPERTY_DESCRIPTION_MISSING",
        """
        tools:
          - name: a
            description: a
            inputSchema:
              type: object
              properties:
                x: {type: string}
                y: {type: string, description: why}
                o:
                  description: an object
                  properties:
                    inner: {type: integer}
                r: {$ref: "#/$defs/R"}
                l: {type: array, items: {properties: {deep: {type: string}}}}
              $defs:
                R: {type: string, description: described once}
        """,
        [(7, 9), (12, 13), (14, 9)],
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
        "SCHEMA_KEYWORD_AT_TOOL_LEVEL",
        """
        tools:
          - name: a
            title: A
            description: d
            inputSchema: {type: object, properties: {x: {type: string}}}
            additionalProperties: false
            required: [x]
        """,
        [(6, 5), (7, 5)],
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
    (
        "SERVER_NAME_BLANK",
        """
        server: {name: "  "}
        tools:
          - name: a
            inputSchema: {type: object}
        """,
        [(1, 16)],
    ),
    (
        "MANIFEST_NO_TOOLS",
        """
        server: {name: s}
        tools: []
        """,
        [(2, 8)],
    ),
    (
        "RESOURCE_URI_SCHEME",
        """
        tools: []
        resources:
          - {uri: notes/today, name: a, text: x}
          - {uri: "file:///notes/today", name: b, text: x}
          - {uri: "myapp://x", name: c, text: x}
        """,
        [(3, 11)],
    ),
    (
        "RESOURCE_URI_UNIQUE",
        """
        tools: []
        resources:
          - {uri: "a://1", name: a, text: x}
          - {uri: "a://1", name: b, text: x}
        resourceTemplates:
          - {uriTemplate: "a://t/{x}", name: t}
          - {uriTemplate: "a://t/{x}", name: u}
        """,
        [(4, 11), (7, 19)],
    ),
    (
        "TEMPLATE_SYNTAX",
        """
        tools: []
        resourceTemplates:
          - {uriTemplate: "a://{x", name: t}
          - {uriTemplate: "a://{x}{y}", name: u}
          - {uriTemplate: "a://{x}/{+rest}", name: v}
        """,
        [(3, 19), (4, 19)],
    ),
    (
        "TEMPLATE_VARIABLE_UNKNOWN",
        """
        tools: []
        resourceTemplates:
          - uriTemplate: "a://t/{id}"
            name: t
            variables:
              id: {type: integer}
              idd: {type: string}
        """,
        [(7, 7)],
    ),
    (
        "TEMPLATE_OVERLAP",
        """
        tools: []
        resources:
          - {uri: "a://t/1", name: one, text: x}
          - {uri: "b://1", name: two, text: x}
        resourceTemplates:
          - {uriTemplate: "a://t/{id}", name: t}
          - {uriTemplate: "a://t/{other}", name: u}
          - {uriTemplate: "a://u/{id}", name: v}
        """,
        [(6, 19), (7, 19), (7, 19)],
    ),
    (
        "PROMPT_NAME_UNIQUE",
        """
        tools: []
        prompts:
          - {name: p, messages: [{role: user, text: x}]}
          - {name: q, messages: [{role: user, text: x}]}
          - {name: p, messages: [{role: user, text: x}]}
        """,
        [(5, 12)],
    ),
    (
        "PROMPT_ARGUMENT_NAME",
        """
        tools: []
        prompts:
          - name: p
            arguments: [{name: a}, {name: a}, {name: "b c"}, {name: ok.x-1_Y}]
            handler: true
        """,
        [(4, 35), (4, 46)],
    ),
    (
        "PROMPT_PLACEHOLDER_UNKNOWN",
        """
        tools: []
        prompts:
          - name: p
            arguments: [{name: a, required: true}]
            messages:
              - {role: user, text: "{a} {{not}} {b}"}
              - {role: user, text: "{c.d}"}
        """,
        [(6, 28), (7, 28)],
    ),
    (
        "PROMPT_PLACEHOLDER_OPTIONAL",
        """
        tools: []
        prompts:
          - name: p
            arguments: [{name: a, required: true}, {name: b}]
            messages:
              - {role: user, text: "{a} {b}"}
        """,
        [(6, 28)],
    ),
    (
        "MIME_TYPE_SYNTAX",
        """
        tools: []
        resources:
          - {uri: "a://1", name: a, text: x, mimeType: text plain}
          - {uri: "a://2", name: b, text: x, mimeType: "text/plain; charset=utf-8"}
        resourceTemplates:
          - {uriTemplate: "a://t/{x}", name: t, mimeType: json}
        """,
        [(3, 48), (6, 51)],
    ),
    (
        "SURFACE_FIELD_REVISION",
        """
        protocol: ["2025-03-26", "2025-11-25"]
        tools: []
        resources:
          - {uri: "a://1", name: a, title: A, text: x}
        prompts:
          - {name: p, icons: [], messages: [{role: user, text: x}]}
        """,
        [(4, 29), (6, 15)],
    ),
    (
        "AUTH_SCOPE_UNKNOWN",
        """
        server:
          auth: {issuer: "https://login.example.com", scopes: [n:read, n:write]}
        tools:
          - name: t
            inputSchema: {type: object}
            x-mcpgen: {scopes: [n:read, n:raed]}
        prompts:
          - {name: p, messages: [{role: user, text: hi}], scopes: [n:write, x]}
        """,
        [(6, 33), (8, 69)],
    ),
    (
        "AUTH_SCOPE_UNUSED",
        """
        server:
          auth:
            issuer: "https://login.example.com"
            scopes: [n:read, n:write, n:admin]
            requiredScopes: [n:write]
        tools:
          - name: t
            inputSchema: {type: object}
            x-mcpgen: {scopes: [n:read]}
        """,
        [(4, 31)],
    ),
    (
        "AUTH_SCOPES_WITHOUT_AUTH",
        """
        tools:
          - name: t
            inputSchema: {type: object}
            x-mcpgen: {scopes: [n:read]}
        """,
        [(4, 24)],
    ),
    (
        "AUTH_INSECURE_URL",
        """
        server:
          auth:
            issuer: "http://login.example.com"
            jwksUri: "http://127.0.0.1:9000/jwks"
            resource: "http://mcp.example.com/mcp"
            introspection: {url: "https://login.example.com/introspect"}
        tools: []
        """,
        [(3, 13), (5, 15)],
    ),
    (
        "TOOLSET_UNDECLARED",
        """
        server:
          toolsets: {read: {}, write: {default: false}}
        tools:
          - name: t
            inputSchema: {type: object}
            x-mcpgen: {toolsets: [read, wrtie]}
          - name: u
            inputSchema: {type: object}
            x-mcpgen: {toolsets: [admin]}
        """,
        [(6, 33), (9, 27)],
    ),
    (
        "TOOLSET_EMPTY",
        """
        server:
          toolsets:
            read: {description: Reading.}
            write: {description: Writing.}
        tools:
          - name: t
            inputSchema: {type: object}
            x-mcpgen: {toolsets: [read]}
        """,
        [(4, 5)],
    ),
]


# The model-API profiles (`--target`): each rule at the keyword it is about.
CASES += [
    (
        "OPENAI_STRICT_ADDITIONAL_PROPERTIES",
        """
        tools:
          - name: a
            inputSchema:
              type: object
              properties:
                x:
                  {type: object, properties: {y: {type: string}}, additionalProperties: true}
              required: [x]
              additionalProperties: false
""",
        [(7, 59)],
    ),
    (
        "OPENAI_STRICT_ALL_REQUIRED",
        """
        tools:
          - name: a
            inputSchema:
              type: object
              properties:
                x: {type: string}
                y: {type: string}
              required: [x]
              additionalProperties: false
""",
        [(7, 9)],
    ),
    (
        "OPENAI_STRICT_REF_SIBLINGS",
        """
        tools:
          - name: a
            inputSchema:
              type: object
              properties:
                x: {$ref: "#/$defs/X", description: an x}
              $defs:
                X: {type: string}
""",
        [(6, 13)],
    ),
    (
        "ANTHROPIC_ROOT_COMBINATOR",
        """
        tools:
          - name: a
            inputSchema:
              type: object
              oneOf: [{required: [x]}, {required: [y]}]
              properties: {x: {type: string}, y: {type: string}}
""",
        [(5, 7)],
    ),
    (
        "ANTHROPIC_STRICT_ADDITIONAL_PROPERTIES",
        """
        tools:
          - name: a
            inputSchema:
              type: object
              additionalProperties: {type: string}
""",
        [(5, 7)],
    ),
    (
        "ANTHROPIC_STRICT_KEYWORD",
        """
        tools:
          - name: a
            inputSchema:
              type: object
              properties:
                n: {type: integer, minimum: 1}
                l: {type: array, items: {type: string}, minItems: 2}
""",
        [(6, 28), (7, 49)],
    ),
    (
        "ANTHROPIC_STRICT_STRING_FORMAT",
        """
        tools:
          - name: a
            inputSchema:
              type: object
              properties:
                w: {type: string, format: uri}
                r: {type: string, format: regex}
""",
        [(7, 35)],
    ),
    (
        "GEMINI_REF",
        """
        tools:
          - name: a
            inputSchema:
              type: object
              properties:
                x: {$ref: "#/$defs/X"}
              $defs:
                X: {type: string}
""",
        [(6, 13), (7, 7)],
    ),
    (
        "GEMINI_ANYOF_IN_ITEMS",
        """
        tools:
          - name: a
            inputSchema:
              type: object
              properties:
                x:
                  type: array
                  items:
                    oneOf: [{type: string}, {type: integer}]
""",
        [(9, 13)],
    ),
    (
        "GEMINI_PROPERTIES_ON_NON_OBJECT",
        """
        tools:
          - name: a
            inputSchema:
              type: object
              properties:
                x: {type: array, items: {type: string}, properties: {y: {type: string}}}
""",
        [(6, 49)],
    ),
    (
        "GEMINI_ADDITIONAL_PROPERTIES",
        """
        tools:
          - name: a
            inputSchema:
              type: object
              properties:
                x: {type: object, additionalProperties: true}
                y: {type: object, additionalProperties: {}}
""",
        [(6, 27)],
    ),
    (
        "GEMINI_LITERAL_NOT_STRING",
        """
        tools:
          - name: a
            inputSchema:
              type: object
              properties:
                x: {enum: [a, 2]}
                y: {const: 3}
                z: {enum: [a, b]}
""",
        [(6, 19), (7, 20)],
    ),
    (
        "GEMINI_KEYWORD",
        """
        tools:
          - name: a
            inputSchema:
              type: object
              properties:
                x: {type: number, exclusiveMinimum: 0, $comment: fine, x-extra: 1}
""",
        [(6, 27)],
    ),
]


HTTP_BINDING = """
        server:
          name: s
          http:
            securitySchemes: {Key: {type: apiKey, in: query, name: key}}
        tools:
          - name: a
            inputSchema:
              type: object
              properties:
                id: {type: string}
                n: {type: integer}
                host: {type: string}
                key: {type: string}
            x-mcpgen:
              http:
                method: GET
                path: /a/{id}/{n}
                parameters:
                  id: {in: path, name: id, style: deepObject}
                  n: {in: path, name: n, style: label}
                  host: {in: header, name: Host}
                  key: {in: query, name: key}
                security: [[Key], [Other]]
"""
CASES += [
    ("HTTP_PATH_UNBOUNDED", HTTP_BINDING, [(10, 13)]),  # id; n is an integer
    ("HTTP_STYLE", HTTP_BINDING, [(19, 43)]),  # label is a path style
    ("HTTP_RESERVED_HEADER", HTTP_BINDING, [(21, 36)]),
    ("HTTP_CREDENTIAL_CLASH", HTTP_BINDING, [(22, 16)]),
    ("HTTP_SECURITY_UNDECLARED", HTTP_BINDING, [(23, 28)]),
]


APP_VIEWS = """
tools:
  - name: a
    inputSchema: {type: object}
    _meta: {ui: {resourceUri: "ui://m/card"}}
  - name: b
    inputSchema: {type: object}
    outputSchema: {type: object}
    _meta: {ui: {resourceUri: "ui://m/none", visibility: [app]}}
  - name: c
    inputSchema: {type: object}
    outputSchema: {type: object}
    _meta: {ui: {resourceUri: "https://m/plain"}}
resources:
  - uri: ui://m/card
    name: card
    mimeType: text/html;profile=mcp-app
    text: "<!doctype html><p>card</p>"
    _meta: {ui: {csp: {connectDomains: ["*://x.com", "http://api.example.com", "https://ok.example.com:8443"]}}}
  - {uri: ui://m/spare, name: spare, mimeType: text/html;profile=mcp-app, text: "just text"}
  - {uri: ui://m/odd, name: odd, mimeType: text/plain, text: x}
  - {uri: "https://m/plain", name: plain, mimeType: text/html, text: x}
"""
"""MCP Apps (mcpgen.check.rules_apps): a view, a spare one, a tool opening a missing one."""
CASES += [
    ("APP_VIEW_MISSING", APP_VIEWS, [(8, 31)]),  # tool b's resourceUri
    ("APP_VIEW_UNUSED", APP_VIEWS, [(19, 11)]),  # ui://m/spare
    ("APP_VIEW_MIME", APP_VIEWS, [(20, 44), (21, 53)]),  # a ui:// text/plain; a linked text/html
    ("APP_VIEW_URI", APP_VIEWS, [(12, 31)]),  # tool c opens an https: URI
    ("APP_VIEW_HTML", APP_VIEWS, [(19, 81)]),  # "just text"
    ("APP_CSP_DOMAIN", APP_VIEWS, [(18, 41)]),  # *://x.com; the :8443 origin is fine
    ("APP_CSP_INSECURE", APP_VIEWS, [(18, 54)]),  # http://api.example.com
    ("APP_TEXT_FALLBACK", APP_VIEWS, [(4, 17)]),  # tool a: no outputSchema (b is app-only)
]

# A tools/list dump (no `resources:`) whose tool opens a view; schemas wider than their types.
DUMP_VIEWS = """
tools:
  - name: a
    inputSchema:
      type: object
      properties:
        filter: {properties: {q: {type: string}}}
        rows: {items: {type: integer}}
        tagged: {unevaluatedProperties: false, allOf: [{properties: {k: {}}}]}
        either: {type: object, anyOf: [{required: [x]}, {required: [y]}]}
    outputSchema: {type: object}
    _meta: {ui: {resourceUri: "ui://m/card"}}
nextCursor: null
"""
CASES += [
    ("APP_VIEW_UNDECLARED", DUMP_VIEWS, [(11, 31)]),
    ("SCHEMA_TYPE_IMPLIED", DUMP_VIEWS, [(6, 18), (7, 16)]),
    ("SCHEMA_TYPED_AS_ANY", DUMP_VIEWS, [(8, 18)]),
]


@pytest.mark.parametrize(("rule_id", "text", "expected"), CASES, ids=[c[0] for c in CASES])
def test_rule_positions(rule_id: str, text: str, expected: list[tuple[int, int]]) -> None:
    got = tuples(lint(text), rule_id)
    assert got == [("m.yaml", line, col, rule_id) for line, col in expected]


REGISTRY = """\
server:
  name: weather
  version: 1.0.0
  registry: io.github.user/weather
tools: []
"""


def test_registry_version_agreement_positions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A rule that reads files beside the manifest (more in tests/publish/test_server_json.py):
    the manifest's version and each file that disagrees, each at its place."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "w"\nversion = "1.0.1"\n')
    (tmp_path / "server.json").write_text('{"version": "1.0.0"}')  # agrees: not reported
    got = tuples(lint(REGISTRY), "REGISTRY_VERSION_AGREEMENT")
    assert got == [
        ("m.yaml", 3, 12, "REGISTRY_VERSION_AGREEMENT"),
        ("pyproject.toml", 3, 1, "REGISTRY_VERSION_AGREEMENT"),
    ]
    # an inline ignore silences the manifest's line, never a line of another file that
    # happens to have the same number
    ignored = REGISTRY.replace("1.0.0\n", "1.0.0  # mcpgen: ignore REGISTRY_VERSION_AGREEMENT\n")
    assert tuples(lint(ignored), "REGISTRY_VERSION_AGREEMENT") == [
        ("pyproject.toml", 3, 1, "REGISTRY_VERSION_AGREEMENT"),
    ]
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "w"\nversion = "1.0.0"\n')
    assert tuples(lint(REGISTRY), "REGISTRY_VERSION_AGREEMENT") == []


FILE_CASES = {"REGISTRY_VERSION_AGREEMENT"}
"""Rules whose case needs files beside the manifest: tested above, not in CASES."""


def test_every_lint_rule_has_a_case() -> None:
    from mcpgen.check import catalog
    from mcpgen.check.registry import LINT

    lint_ids = {r.id for r in catalog.load_all().values() if r.category == LINT}
    covered = {c[0] for c in CASES if c[2]} | FILE_CASES
    assert lint_ids - covered == set()


def test_toolset_names_follow_the_schema() -> None:
    """Toolset names go into comma-separated command-line lists: lower-case, no spaces, and
    not the reserved ``all``/``default``; the loader reports each at its place."""
    from mcpgen.manifest.load import load_manifest_text

    text = (
        "server:\n"
        "  toolsets: {all: {}, Read Only: {}, ok: {default: maybe}}\n"
        "tools:\n"
        "  - name: t\n"
        "    inputSchema: {type: object}\n"
        "    x-mcpgen: {toolsets: [ok, 'a,b']}\n"
    )
    res = load_manifest_text(text, "m.yaml")
    got = [(d.line, d.col, d.rule_id, d.message) for d in res.diagnostics]
    assert [(2, 14), (2, 23)] == [g[:2] for g in got][:2], got  # at the keys
    messages = " | ".join(g[3] for g in got)
    assert "the string 'all' is a reserved word here" in messages
    assert "'Read Only' does not match" in messages
    assert "`server.toolsets.ok.default` must be true or false" in messages
    assert (6, 31) in [g[:2] for g in got]  # 'a,b'


def test_template_variable_schemas_are_checked_like_tool_schemas() -> None:
    """A variable's schema types a handler argument: an invalid one is SCHEMA_VALID at its
    place (``completions``, mcpgen's own key, is not part of the schema). Found by fuzzing:
    check passed such a manifest and ``mcpgen server`` then failed inside the model generator."""
    text = """
        tools: []
        resourceTemplates:
          - uriTemplate: "a://t/{id}/{n}"
            name: t
            variables:
              id: {type: 1e+308, completions: [a]}
              n: {type: integer, minimum: low, completions: [1]}
        """
    got = [(d.line, d.col, d.message) for d in lint(text) if d.rule_id == "SCHEMA_VALID"]
    assert [g[:2] for g in got] == [(6, 18), (7, 35)], got
    assert "variable schema is not valid 2020-12: 1e+308 is not one of" in got[0][2]
    assert "'low' is not of type 'number'" in got[1][2]
    fine = text.replace("1e+308", "string").replace("minimum: low", "minimum: 1")
    assert [d for d in lint(fine) if d.rule_id == "SCHEMA_VALID"] == []


def test_template_variable_patterns_must_also_compile_with_pythons_re() -> None:
    """Tool schemas are checked by jsonschema-rs, so ``check`` accepts the patterns it compiles
    (``\\p{L}``); a template variable is checked by its pydantic model alone, which
    datamodel-code-generator switches to Python's ``re`` for a lookaround: such a pattern made
    a server whose models did not import ("bad escape \\p"), so check refuses it there."""
    text = """
        tools: []
        resourceTemplates:
          - uriTemplate: "a://t/{id}/{n}"
            name: t
            variables:
              id: {type: string, pattern: '^(?=\\p{Lu})\\p{L}+$'}
              n: {type: object, patternProperties: {'\\p{L}': {}}}
        """
    got = [(d.line, d.col, d.message) for d in lint(text) if d.rule_id == "SCHEMA_VALID"]
    assert [g[:2] for g in got] == [(6, 35), (7, 45)], got
    assert "Python's re cannot compile" in got[0][2]
    fine = text.replace("\\p{Lu}", "[A-Z]").replace("\\p{L}", "[A-Za-z]")
    assert [d for d in lint(fine) if d.rule_id == "SCHEMA_VALID"] == []
