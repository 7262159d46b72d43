"""The rows the desk paints a game from at its next start, kept in the game file as of the
log's last event (issue 36). The session is their one writer: the desk hands over the rows it
drew after a change (``keep``), and closing keeps them when nobody has (``keep_on_close``), so
whatever program of Airboss played on, a desk or a script, the next start paints from them."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from app.core.guest import GuestPending, still_busy
from app.session.log import GameLog

if TYPE_CHECKING:
    from app.startup.summary import GameSession as RowSource

logger = logging.getLogger(__name__)


class KeptRows:
    """The desk's rows of one game, kept in its file (``app.startup.summary_file``)."""

    def __init__(self, log: GameLog, source: RowSource) -> None:
        self._log = log
        self._source = source
        #: the log's last sequence number whose rows are kept in the file: the desk keeps them
        #: after every change and says so here, so closing does not again
        self.kept: int | None = None

    def keep(self, rows: Mapping[str, Any] | None = None) -> None:
        """Keep in the game file, as of the log's last event, ``rows`` as the desk drew them
        from this game as it is now, or else worked out here (``session_rows``). Nothing for a
        server game or a read-only one; ``StoreError`` when the file cannot be written."""
        store, seq = self._log.store, self._log.engagement.seq
        if store.path is None or store.read_only:
            return
        from app import __version__
        from app.startup.summary import session_rows
        from app.startup.summary_file import keep_summary

        kept = dict(rows if rows is not None else session_rows(self._source))
        keep_summary(store, self._log.game_id, seq, __version__, kept)
        self.kept = seq

    def keep_on_close(self) -> None:
        """As the game closes: keep the rows if this session wrote to the log and nobody kept
        them as of its last event. Nothing for a server game or a read-only one; a ruleset that
        did not answer is not waited for again; rows that cannot be worked out or written cost
        the next start its head start only."""
        store, seq = self._log.store, self._log.engagement.seq
        if not self._log.wrote or store.path is None or store.read_only or self.kept == seq:
            return
        if still_busy(self._log.ruleset):
            return
        try:
            self.keep()
        except (Exception, GuestPending) as e:  # noqa: BLE001 - never a reason the game did not close
            logger.debug("%s: the desk's rows were not kept: %s", store.where, e)
