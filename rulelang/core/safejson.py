"""Reading JSON that someone else wrote (compiled IR, save files, cache entries) within limits.

`json.loads` on deeply nested input dies with RecursionError, and a huge file can take all memory;
here both are refused up front with a message a person can read.
"""
from __future__ import annotations

import json

from .limits import JSON_DEPTH_LIMIT, JSON_SIZE_LIMIT


class JSONLimitError(ValueError):
    """The text is not JSON we are willing to read (too big, too deep, or not JSON at all)."""


def loads(text: str, what: str = "file"):
    """Parse `text` as JSON, refusing more than JSON_SIZE_LIMIT characters or JSON_DEPTH_LIMIT nesting."""
    if len(text) > JSON_SIZE_LIMIT:
        raise JSONLimitError(f"the {what} is larger than {JSON_SIZE_LIMIT} characters")
    depth, deepest, in_string, escaped = 0, 0, False, False
    for ch in text:                       # bracket depth outside strings, without recursion
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > JSON_DEPTH_LIMIT:
                    raise JSONLimitError(f"the {what} nests deeper than {JSON_DEPTH_LIMIT} levels")
        elif ch in "]}":
            depth -= 1
    try:
        return json.loads(text)
    except RecursionError:
        raise JSONLimitError(f"the {what} nests too deeply") from None
    except json.JSONDecodeError as err:
        raise JSONLimitError(f"the {what} is not valid JSON: {err.msg} (line {err.lineno}, column {err.colno})") from None
    except ValueError as err:              # e.g. a number of more than 4,300 digits
        raise JSONLimitError(f"the {what} holds a value JSON readers refuse: {err}") from None
