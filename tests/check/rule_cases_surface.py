"""Lint rule cases (``test_check_rules.CASES``): the server, resources, templates, prompts, auth,
toolsets, HTTP bindings and MCP Apps views (manifests and ``tools/list`` dumps). One row per
case: the rule, a small manifest, the exact (line, col) of each of that rule's findings."""

from __future__ import annotations

CASES: list[tuple[str, str, list[tuple[int, int]]]] = [
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
        "DISCOVERY_LISTED_UNKNOWN",
        """
        server:
          toolsets: {read: {}}
          discovery: {mode: search, listed: {tools: [t, tt], toolsets: [read, reed]}}
        tools:
          - name: t
            inputSchema: {type: object}
            x-mcpgen: {toolsets: [read]}
        """,
        [(3, 49), (3, 71)],
    ),
    (
        "DISCOVERY_NAME_CLASH",
        """
        server:
          discovery: {mode: code}
        tools:
          - name: execute
            inputSchema: {type: object}
          - name: call_tool
            inputSchema: {type: object}
        """,
        [(4, 11)],
    ),
    (
        "DISCOVERY_LISTED_IGNORED",
        """
        server:
          discovery: {listed: {tools: [t]}}
        tools:
          - name: t
            inputSchema: {type: object}
        """,
        [(2, 15)],
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
