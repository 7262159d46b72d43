"""The errors a rule, a die, a data file or a store raises for the umpire to read (a store's
message names the file or database and the reason)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pydantic is not imported on the start-up path (issue 47)
    from pydantic import ValidationError
    from pydantic_core import ErrorDetails


class RuleViolation(Exception):
    """An action the rules refuse: the message says why, for the umpire; nothing is appended."""


class Raced(Exception):
    """Another window or station acted on the game first; nothing of this action was written
    (the store's ``ConcurrentAppend``): the desk shows the game as it is, the dice kept."""


class DataFileError(ValueError):
    """A table, aircraft or variant file that is malformed: the message names file and field."""


class MissingTableValue(RuleViolation):
    """A procedure needs a table cell the rules text does not print and the umpire has not filled.

    ``table`` and ``cell`` name the cell so the desk can offer to fill it in.
    """

    def __init__(self, table: str, cell: str, rule: str) -> None:
        self.table, self.cell, self.rule = table, cell, rule
        super().__init__(
            f"{table} ({rule}): the value for {cell} is not printed in the rules text; "
            "fill it in from your copy of the game (Tables editor) and try again"
        )


class StoreError(Exception):
    """A store that cannot be used: the message names the file or database and the reason."""


class ConcurrentAppend(StoreError, Raced):
    """Another station appended to this game first; nothing of ours was written."""

    def __init__(
        self,
        message: str = "another station changed this game at the same moment; nothing of "
        "this action was written. The desk has been brought up to date: look, then act again.",
    ) -> None:
        super().__init__(message)


class EmptyStore(StoreError):
    """A server database with no Airboss games yet, opened read-only: nothing was created."""


class Unsettled(StoreError):
    """The connection was lost after an action was sent, and the server has not said since
    whether it was saved: ask again with ``Store.saved`` (issue 30)."""


class Tampered(StoreError):
    """A game's log whose chain of hashes breaks: changed outside Airboss (issue 30)."""

    def __init__(self, where: str, seq: int) -> None:
        self.seq = seq
        super().__init__(
            f"{where}: the log of this game was changed outside Airboss at seq {seq}; it is "
            "not replayed, and nothing was written: open a copy made before, or ask whoever "
            "holds the server's owner account or the file what was changed"
        )


def problem_text(problem: ErrorDetails) -> str:
    """The umpire's words for one problem pydantic found in a value: a rule's own message as the
    rule raised it (a validator's ``ValueError`` or ``assert``: "rules 2, 6, 7: fixed guns need
    the target directly ahead ..."), without pydantic's "Value error, " or "Assertion failed, "
    before it; pydantic's own words for the rest ("Input should be a valid integer")."""
    if problem["type"] in ("value_error", "assertion_error"):
        cause = (problem.get("ctx") or {}).get("error")
        if cause is not None and str(cause):
            return str(cause)
    return problem["msg"]


def error_text(error: BaseException) -> str:
    """One message for the umpire from a refusal or a validation error."""
    from pydantic import ValidationError

    if isinstance(error, ValidationError):
        return problems_text(error)
    return str(error)


def problems_text(error: ValidationError, whole: str = "value") -> str:
    """Every problem of ``error``, each after where it was found ("speed: ...", ``whole`` for
    the value as a whole), joined by "; " (``problem_text``)."""
    return "; ".join(
        f"{'.'.join(str(part) for part in problem['loc']) or whole}: {problem_text(problem)}"
        for problem in error.errors()
    )
