"""Lint rule cases (``test_check_rules.CASES``): input and output schemas, their properties, and the
``x-`` extension rules. One row per case: the rule, a small manifest, the exact (line, col) of
each of that rule's findings."""

from __future__ import annotations

CASES: list[tuple[str, str, list[tuple[int, int]]]] = [
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
]
