"""What a store refuses with: one message naming the file or database and the reason."""

from app.core.errors import Raced


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
