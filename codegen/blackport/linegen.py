"""``transform_line`` and the splits it tries (port of black's ``linegen``)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator

from codegen.blackport.lines import (
    BRACKETS,
    CLOSING_BRACKETS,
    COMMA,
    COMMA_PRIORITY,
    DOT_PRIORITY,
    EQUAL,
    LPAR,
    OPENING_BRACKETS,
    RBRACE,
    RPAR,
    RSQB,
    CannotSplit,
    CannotTransform,
    Leaf,
    Line,
    RHSResult,
    can_be_split,
    get_leaves_inside_matching_brackets,
    is_line_short_enough,
    is_one_sequence_between,
    line_to_string,
)
from codegen.format import LINE_LENGTH

FORCE_OPTIONAL_PARENTHESES = "force_optional_parentheses"


def transform_line(line: Line, features: Collection[str] = ()) -> list[Line]:
    line_str = line_to_string(line)
    if (
        not line.should_split_rhs
        and not line.magic_trailing_comma
        and is_line_short_enough(line, line_str=line_str)
    ):
        return [line]
    transformers: list[Transformer] = [delimiter_split, rhs] if line.inside_brackets else [rhs]
    for transform in transformers:
        try:
            return run_transformer(line, transform, features, line_str=line_str)
        except CannotTransform:
            continue
    return [line]


Transformer = Callable[[Line, Collection[str]], Iterator[Line]]


def run_transformer(
    line: Line, transform: Transformer, features: Collection[str], *, line_str: str
) -> list[Line]:
    optional_parens = [b for b in line.bracket_tracker.invisible if b.bracket_depth == 0]
    result: list[Line] = []
    for transformed_line in transform(line, features):
        if line_to_string(transformed_line) == line_str:
            raise CannotTransform("Line transformer returned an unchanged result")
        result.extend(transform_line(transformed_line, features))
    if (
        FORCE_OPTIONAL_PARENTHESES in features
        or transform is not rhs
        or not line.bracket_tracker.invisible
        or any(bracket.value for bracket in optional_parens)
        or is_line_short_enough(result[0])
        or any(leaf.detached for leaf in line.leaves)
    ):
        return result
    line_copy = line.clone()
    for old in line.leaves:  # black's append_leaves: fresh leaves (whitespace recomputed)
        new = Leaf(old.type, old.value, old.canonical, old.parent)
        new.optional = old.optional
        old.detached = True
        line_copy.append(new)
    second_opinion = run_transformer(
        line_copy, transform, {*features, FORCE_OPTIONAL_PARENTHESES}, line_str=line_str
    )
    if all(is_line_short_enough(ln) for ln in second_opinion):
        result = second_opinion
    return result


def rhs(line: Line, features: Collection[str]) -> Iterator[Line]:
    """black's ``right_hand_split_with_omits``."""
    first_lines: list[Line] | None = None
    prefix_lengths: dict[int, int] = {}
    curr_len = 4 * line.depth
    for leaf in line.leaves:
        prefix_lengths[id(leaf)] = curr_len
        curr_len += len(leaf.prefix) + len(leaf.value)
    for omit in generate_trailers_to_omit(line, LINE_LENGTH):
        if omit:
            target_opening: Leaf | None = None
            for leaf in reversed(line.leaves):
                if leaf.type in CLOSING_BRACKETS and id(leaf) not in omit:
                    target_opening = leaf.opening_bracket
                    break
            if (
                target_opening is not None
                and target_opening.value
                and prefix_lengths.get(id(target_opening), 0) > LINE_LENGTH
            ):
                continue
        lines = list(right_hand_split(line, features, omit=omit))
        if first_lines is None and not omit:
            first_lines = lines
        if is_line_short_enough(lines[0]):
            yield from lines
            return
    if first_lines is not None:
        yield from first_lines
    else:
        yield from right_hand_split(line, features)


def right_hand_split(line: Line, features: Collection[str], omit: Collection[int] = ()) -> Iterator[Line]:
    rhs_result = _first_right_hand_split(line, omit=omit)
    yield from _maybe_split_omitting_optional_parens(rhs_result, line, features, omit=omit)


def _first_right_hand_split(line: Line, omit: Collection[int] = ()) -> RHSResult:
    tail_leaves: list[Leaf] = []
    body_leaves: list[Leaf] = []
    head_leaves: list[Leaf] = []
    current_leaves = tail_leaves
    opening_bracket: Leaf | None = None
    closing_bracket: Leaf | None = None
    for leaf in reversed(line.leaves):
        if current_leaves is body_leaves:
            if leaf is opening_bracket:
                current_leaves = head_leaves if body_leaves else tail_leaves
        current_leaves.append(leaf)
        if current_leaves is tail_leaves:
            if leaf.type in CLOSING_BRACKETS and id(leaf) not in omit:
                opening_bracket = leaf.opening_bracket
                closing_bracket = leaf
                current_leaves = body_leaves
    if not (opening_bracket and closing_bracket and head_leaves):
        raise CannotSplit("No brackets found")
    tail_leaves.reverse()
    body_leaves.reverse()
    head_leaves.reverse()
    head = bracket_split_build_line(head_leaves, line, opening_bracket, component="head")
    body = bracket_split_build_line(body_leaves, line, opening_bracket, component="body")
    tail = bracket_split_build_line(tail_leaves, line, opening_bracket, component="tail")
    tail_len = len(str(tail).strip())
    if not body:
        if tail_len == 0:
            raise CannotSplit("Splitting brackets produced the same line")
        if tail_len < 3:
            raise CannotSplit("Splitting brackets on an empty body is not worth it")
    return RHSResult(head, body, tail, opening_bracket, closing_bracket)


def _maybe_split_omitting_optional_parens(
    rhs_result: RHSResult, line: Line, features: Collection[str], omit: Collection[int] = ()
) -> Iterator[Line]:
    if (
        FORCE_OPTIONAL_PARENTHESES not in features
        and rhs_result.opening_bracket.type == LPAR
        and not rhs_result.opening_bracket.value
        and rhs_result.closing_bracket.type == RPAR
        and not rhs_result.closing_bracket.value
        and can_omit_invisible_parens(rhs_result, LINE_LENGTH)
    ):
        omit = {id(rhs_result.closing_bracket), *omit}
        try:
            rhs_oop = _first_right_hand_split(line, omit=omit)
            if _prefer_split_rhs_oop_over_rhs(rhs_oop, rhs_result):
                yield from _maybe_split_omitting_optional_parens(rhs_oop, line, features, omit=omit)
                return
        except CannotSplit as e:
            if line.is_chained_assignment:
                pass
            elif not can_be_split(rhs_result.body) and not is_line_short_enough(rhs_result.body):
                raise CannotSplit("Splitting failed, body is still too long and can't be split.") from e
    rhs_result.opening_bracket.value = "(" if rhs_result.opening_bracket.type == LPAR else rhs_result.opening_bracket.value
    rhs_result.closing_bracket.value = ")" if rhs_result.closing_bracket.type == RPAR else rhs_result.closing_bracket.value
    for result in (rhs_result.head, rhs_result.body, rhs_result.tail):
        if result:
            yield result


def _prefer_split_rhs_oop_over_rhs(rhs_oop: RHSResult, rhs_result: RHSResult) -> bool:
    if not (len(rhs_result.head.leaves) >= 2 and rhs_result.head.leaves[-2].type == EQUAL):
        return True
    if not any(leaf.type in BRACKETS for leaf in rhs_result.head.leaves[:-1]):
        return True
    if not is_line_short_enough(rhs_result.head, line_length=LINE_LENGTH - 1):
        return True
    if rhs_result.head.magic_trailing_comma is not None:
        return True
    rhs_head_equal_count = [leaf.type for leaf in rhs_result.head.leaves].count(EQUAL)
    rhs_oop_head_equal_count = [leaf.type for leaf in rhs_oop.head.leaves].count(EQUAL)
    if rhs_head_equal_count > 1 and rhs_head_equal_count > rhs_oop_head_equal_count:
        return False
    has_closing_bracket_after_assign = False
    for leaf in reversed(rhs_oop.head.leaves):
        if leaf.type == EQUAL:
            break
        if leaf.type in CLOSING_BRACKETS:
            has_closing_bracket_after_assign = True
            break
    return has_closing_bracket_after_assign or (
        any(leaf.type == EQUAL for leaf in rhs_oop.head.leaves)
        and is_line_short_enough(rhs_oop.head)
    )


def can_omit_invisible_parens(rhs_result: RHSResult, line_length: int) -> bool:
    line = rhs_result.body
    bt = line.bracket_tracker
    if not bt.delimiters:
        return True
    max_priority = bt.max_delimiter_priority()
    delimiter_count = bt.delimiter_count_with_priority(max_priority)
    if delimiter_count > 1:
        return False
    if max_priority == DOT_PRIORITY:
        return True
    first = line.leaves[0]
    second = line.leaves[1]
    if first.type in OPENING_BRACKETS and second.type not in CLOSING_BRACKETS:
        if _can_omit_opening_paren(line, first=first, line_length=line_length):
            return True
    penultimate = line.leaves[-2]
    last = line.leaves[-1]
    if (
        last.type == RPAR
        or last.type == RBRACE
        or (last.type == RSQB and last.parent != "trailer")
    ):
        if penultimate.type in OPENING_BRACKETS:
            return False
        if _can_omit_closing_paren(line, last=last, line_length=line_length):
            return True
    return False


def _can_omit_opening_paren(line: Line, *, first: Leaf, line_length: int) -> bool:
    remainder = False
    length = 4 * line.depth
    index = -1
    for index, leaf, leaf_length in line.enumerate_with_length():
        if leaf.type in CLOSING_BRACKETS and leaf.opening_bracket is first:
            remainder = True
        if remainder:
            length += leaf_length
            if length > line_length:
                break
            if leaf.type in OPENING_BRACKETS:
                remainder = False
    else:
        if len(line.leaves) == index + 1:
            return True
    return False


def _can_omit_closing_paren(line: Line, *, last: Leaf, line_length: int) -> bool:
    length = 4 * line.depth
    seen_other_brackets = False
    for _index, leaf, leaf_length in line.enumerate_with_length():
        length += leaf_length
        if leaf is last.opening_bracket:
            if seen_other_brackets or length <= line_length:
                return True
        elif leaf.type in OPENING_BRACKETS:
            seen_other_brackets = True
    return False


def bracket_split_build_line(
    leaves: list[Leaf], original: Line, opening_bracket: Leaf, *, component: str
) -> Line:
    result = Line(depth=original.depth)
    if component == "body":
        result.inside_brackets = True
        result.depth += 1
    leaves_to_track = get_leaves_inside_matching_brackets(leaves) if component == "head" else set()
    for leaf in leaves:
        result.append(leaf, preformatted=True, track_bracket=id(leaf) in leaves_to_track)
    if component == "body" and should_split_line(result, opening_bracket):
        result.should_split_rhs = True
    return result


def should_split_line(line: Line, opening_bracket: Leaf) -> bool:
    if not (opening_bracket.parent and opening_bracket.value in "[{("):
        return False
    exclude = set()
    trailing_comma = False
    try:
        last_leaf = line.leaves[-1]
        if last_leaf.type == COMMA:
            trailing_comma = True
            exclude.add(id(last_leaf))
        max_priority = line.bracket_tracker.max_delimiter_priority(exclude=exclude)
    except (IndexError, ValueError):
        return False
    return max_priority == COMMA_PRIORITY and (trailing_comma or opening_bracket.parent == "atom")


def generate_trailers_to_omit(line: Line, line_length: int) -> Iterator[set[int]]:
    omit: set[int] = set()
    if not line.magic_trailing_comma:
        yield omit
    length = 4 * line.depth
    opening_bracket: Leaf | None = None
    closing_bracket: Leaf | None = None
    inner_brackets: set[int] = set()
    for index, leaf, leaf_length in line.enumerate_with_length(is_reversed=True):
        length += leaf_length
        if length > line_length:
            break
        if opening_bracket:
            if leaf is opening_bracket:
                opening_bracket = None
            elif leaf.type in CLOSING_BRACKETS:
                prev = line.leaves[index - 1] if index > 0 else None
                if (
                    prev
                    and prev.type == COMMA
                    and leaf.opening_bracket is not None
                    and not is_one_sequence_between(leaf.opening_bracket, leaf, line.leaves)
                ):
                    break
                inner_brackets.add(id(leaf))
        elif leaf.type in CLOSING_BRACKETS:
            prev = line.leaves[index - 1] if index > 0 else None
            if prev and prev.type in OPENING_BRACKETS:
                inner_brackets.add(id(leaf))
                continue
            if closing_bracket:
                omit.add(id(closing_bracket))
                omit.update(inner_brackets)
                inner_brackets.clear()
                yield omit
            if (
                prev
                and prev.type == COMMA
                and leaf.opening_bracket is not None
                and not is_one_sequence_between(leaf.opening_bracket, leaf, line.leaves)
            ):
                break
            if leaf.value:
                opening_bracket = leaf.opening_bracket
                closing_bracket = leaf


def delimiter_split(line: Line, features: Collection[str]) -> Iterator[Line]:
    for split_line in _delimiter_split(line):
        split_line.leaves[0].prefix = ""  # black's @dont_increase_indentation
        yield split_line


def _delimiter_split(line: Line) -> Iterator[Line]:
    if not line.leaves:
        raise CannotSplit("Line empty")
    last_leaf = line.leaves[-1]
    bt = line.bracket_tracker
    try:
        delimiter_priority = bt.max_delimiter_priority(exclude={id(last_leaf)})
    except ValueError:
        raise CannotSplit("No delimiters found") from None
    if delimiter_priority == DOT_PRIORITY and bt.delimiter_count_with_priority(delimiter_priority) == 1:
        raise CannotSplit("Splitting a single attribute from its owner looks wrong")
    current_line = Line(depth=line.depth, inside_brackets=line.inside_brackets)
    for leaf in line.leaves:
        current_line.append(leaf, preformatted=True)
        if bt.delimiters.get(id(leaf)) == delimiter_priority:
            yield current_line
            current_line = Line(depth=line.depth, inside_brackets=line.inside_brackets)
    if current_line:
        if delimiter_priority == COMMA_PRIORITY and current_line.leaves[-1].type != COMMA:
            comma = Leaf(COMMA, ",")
            comma.detached = True
            current_line.append(comma)
        yield current_line
