"""Leaves, the bracket tracker and ``Line`` (port of black's ``lines`` and ``brackets``)."""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass, field

from codegen.format import LINE_LENGTH
from codegen.pystyle import width

# Token types (names as in blib2to3).
NAME, NUMBER, STRING = "NAME", "NUMBER", "STRING"
COMMA, COLON, EQUAL, VBAR, MINUS, DOT = ",", ":", "=", "|", "-", "."
LPAR, RPAR, LSQB, RSQB, LBRACE, RBRACE = "(", ")", "[", "]", "{", "}"
OPENING_BRACKETS = frozenset({LPAR, LSQB, LBRACE})
CLOSING_BRACKETS = frozenset({RPAR, RSQB, RBRACE})
BRACKETS = OPENING_BRACKETS | CLOSING_BRACKETS
BRACKET = {LPAR: RPAR, LSQB: RSQB, LBRACE: RBRACE}

COMMA_PRIORITY = 18
VBAR_PRIORITY = 9
DOT_PRIORITY = 1


class CannotTransform(Exception):
    pass


class CannotSplit(CannotTransform):
    pass


class Leaf:
    """A token. ``parent`` names the blib2to3 node type of its parent where black looks at it:
    ``trailer``/``atom`` for brackets, ``arglist``/``subscriptlist``/``listmaker``/
    ``dictsetmaker`` for commas, ``factor`` for a unary minus."""

    __slots__ = (
        "type", "value", "prefix", "parent", "bracket_depth", "opening_bracket", "canonical",
        "detached", "optional",
    )

    def __init__(self, type_: str, value: str, prefix: str = "", parent: str | None = None):
        self.type = type_
        self.value = value
        self.prefix = prefix
        self.parent = parent
        self.bracket_depth = 0
        self.opening_bracket: Leaf | None = None
        self.canonical = prefix
        """The whitespace black's ``whitespace()`` gives this leaf in its statement."""
        self.optional = type_ in (LPAR, RPAR) and not value
        """Created invisible (an optional pair of parentheses black may make visible)."""
        self.detached = False
        """Black's ``leaf.parent is None``: a comma black added, or a leaf replaced by a copy."""

    def __str__(self) -> str:
        return self.prefix + self.value


@dataclass
class BracketTracker:
    depth: int = 0
    bracket_match: dict[tuple[int, str], Leaf] = field(default_factory=dict)
    delimiters: dict[int, int] = field(default_factory=dict)
    previous: Leaf | None = None
    invisible: list[Leaf] = field(default_factory=list)

    def mark(self, leaf: Leaf) -> None:
        if (
            self.depth == 0
            and leaf.type in CLOSING_BRACKETS
            and (self.depth, leaf.type) not in self.bracket_match
        ):
            return
        if leaf.type in CLOSING_BRACKETS:
            self.depth -= 1
            opening_bracket = self.bracket_match.pop((self.depth, leaf.type))
            leaf.opening_bracket = opening_bracket
            if not leaf.value:
                self.invisible.append(leaf)
        leaf.bracket_depth = self.depth
        if self.depth == 0:
            delim = _split_before_priority(leaf, self.previous)
            if delim and self.previous is not None:
                self.delimiters[id(self.previous)] = delim
            elif leaf.type == COMMA:
                self.delimiters[id(leaf)] = COMMA_PRIORITY
        if leaf.type in OPENING_BRACKETS:
            self.bracket_match[self.depth, BRACKET[leaf.type]] = leaf
            self.depth += 1
            if not leaf.value:
                self.invisible.append(leaf)
        self.previous = leaf

    def max_delimiter_priority(self, exclude: Collection[int] = ()) -> int:
        return max(v for k, v in self.delimiters.items() if k not in exclude)

    def delimiter_count_with_priority(self, priority: int = 0) -> int:
        if not self.delimiters:
            return 0
        priority = priority or self.max_delimiter_priority()
        return sum(1 for p in self.delimiters.values() if p == priority)


def _split_before_priority(leaf: Leaf, previous: Leaf | None) -> int:
    if leaf.detached:
        return 0
    if leaf.type == DOT and (previous is None or previous.type in CLOSING_BRACKETS):
        return DOT_PRIORITY
    if leaf.type == VBAR:
        return VBAR_PRIORITY
    return 0


@dataclass
class Line:
    depth: int = 0
    leaves: list[Leaf] = field(default_factory=list)
    bracket_tracker: BracketTracker = field(default_factory=BracketTracker)
    inside_brackets: bool = False
    should_split_rhs: bool = False
    magic_trailing_comma: Leaf | None = None

    def append(self, leaf: Leaf, preformatted: bool = False, track_bracket: bool = False) -> None:
        if self.inside_brackets or not preformatted or track_bracket:
            self.bracket_tracker.mark(leaf)
            if (
                leaf.type in CLOSING_BRACKETS
                and self.leaves
                and self.leaves[-1].type == COMMA
                and self.has_magic_trailing_comma(leaf)
            ):
                self.magic_trailing_comma = leaf
        self.leaves.append(leaf)

    @property
    def is_chained_assignment(self) -> bool:
        return [leaf.type for leaf in self.leaves].count(EQUAL) > 1

    def has_magic_trailing_comma(self, closing: Leaf) -> bool:
        if not (closing.type in CLOSING_BRACKETS and self.leaves and self.leaves[-1].type == COMMA):
            return False
        if closing.type == RBRACE:
            return True
        if closing.type == RSQB:
            if (
                closing.parent == "trailer"
                and closing.opening_bracket is not None
                and is_one_sequence_between(
                    closing.opening_bracket, closing, self.leaves, brackets=(LSQB, RSQB)
                )
            ):
                return False
            return True
        if closing.opening_bracket is not None and not is_one_sequence_between(
            closing.opening_bracket, closing, self.leaves
        ):
            return True
        return False

    def enumerate_with_length(self, is_reversed: bool = False) -> Iterator[tuple[int, Leaf, int]]:
        indexes = range(len(self.leaves) - 1, -1, -1) if is_reversed else range(len(self.leaves))
        for index in indexes:
            leaf = self.leaves[index]
            yield index, leaf, len(leaf.prefix) + len(leaf.value)

    def clone(self) -> Line:
        return Line(
            depth=self.depth,
            inside_brackets=self.inside_brackets,
            should_split_rhs=self.should_split_rhs,
            magic_trailing_comma=self.magic_trailing_comma,
        )

    def __str__(self) -> str:
        if not self.leaves:
            return "\n"
        first = self.leaves[0]
        rest = "".join([leaf.prefix + leaf.value for leaf in self.leaves[1:]])
        return f"{first.prefix}{'    ' * self.depth}{first.value}{rest}\n"

    def __bool__(self) -> bool:
        return bool(self.leaves)


@dataclass
class RHSResult:
    head: Line
    body: Line
    tail: Line
    opening_bracket: Leaf
    closing_bracket: Leaf


def is_one_sequence_between(
    opening: Leaf, closing: Leaf, leaves: Sequence[Leaf], brackets: tuple[str, str] = (LPAR, RPAR)
) -> bool:
    if (opening.type, closing.type) != brackets:
        return False
    depth = closing.bracket_depth + 1
    try:
        start = next(i for i, leaf in enumerate(leaves) if leaf is opening)
    except StopIteration:
        return False
    commas = 0
    for leaf in leaves[start + 1 :]:
        if leaf is closing:
            break
        if leaf.bracket_depth == depth and leaf.type == COMMA:
            commas += 1
            if leaf.parent in ("arglist", "typedargslist"):
                commas += 1
                break
    return commas < 2


def line_to_string(line: Line) -> str:
    return str(line).strip("\n")


def is_line_short_enough(line: Line, *, line_length: int = LINE_LENGTH, line_str: str = "") -> bool:
    return width(line_str or line_to_string(line)) <= line_length


def can_be_split(line: Line) -> bool:
    leaves = line.leaves
    if len(leaves) < 2:
        return False
    if leaves[0].type == STRING and leaves[1].type == DOT:
        call_count = 0
        dot_count = 0
        nxt = leaves[-1]
        for leaf in leaves[-2::-1]:
            if leaf.type in OPENING_BRACKETS:
                if nxt.type not in CLOSING_BRACKETS:
                    return False
                call_count += 1
            elif leaf.type == DOT:
                dot_count += 1
            elif leaf.type == NAME:
                if not (nxt.type == DOT or nxt.type in OPENING_BRACKETS):
                    return False
            elif leaf.type not in CLOSING_BRACKETS:
                return False
            if dot_count > 1 and call_count > 1:
                return False
            nxt = leaf
    return True


def get_leaves_inside_matching_brackets(leaves: Sequence[Leaf]) -> set[int]:
    try:
        start_index = next(i for i, leaf in enumerate(leaves) if leaf.type in OPENING_BRACKETS)
    except StopIteration:
        return set()
    ids: set[int] = set()
    stack: list[tuple[str, list[int]]] = []
    for leaf in leaves[start_index:]:
        if leaf.type in OPENING_BRACKETS:
            stack.append((BRACKET[leaf.type], [id(leaf)]))
        elif leaf.type in CLOSING_BRACKETS:
            if stack and leaf.type == stack[-1][0]:
                _, level_ids = stack.pop()
                level_ids.append(id(leaf))
                ids.update(level_ids)
            else:
                break
        elif stack:
            stack[-1][1].append(id(leaf))
    return ids
