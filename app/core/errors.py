"""The errors a rule, a die or a data file raises for the umpire to read."""


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
