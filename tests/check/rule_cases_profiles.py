"""Lint rule cases (``test_check_rules.CASES``): the model-API profiles (``--target``): OpenAI
strict mode, Anthropic, Gemini."""

from __future__ import annotations

CASES: list[tuple[str, str, list[tuple[int, int]]]] = [
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
        "OPENAI_STRICT_DISCOVERY_FREE_FORM",
        """
        server:
          name: s
          discovery:
            mode: search
        tools:
          - name: a
            inputSchema: {type: object, properties: {}, additionalProperties: false}
""",
        [(4, 11)],
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
