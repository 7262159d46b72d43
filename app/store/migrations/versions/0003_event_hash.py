"""Each event records the hash of its columns and of the event before it (issue 30), so a log
changed outside Airboss is seen at the event where it was changed. The events already stored
are chained here, in their order. A snapshot records the hash of its event (``head``): opening
checks the chain from there.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

from app.store.chain import HASHED, event_hash

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("event") as batch:
        batch.add_column(sa.Column("hash", sa.String(64), nullable=True))
    with op.batch_alter_table("snapshot") as batch:
        batch.add_column(sa.Column("head", sa.String(64), nullable=True))
    conn = op.get_bind()
    event = sa.table("event", sa.column("id"), sa.column("hash"), *map(sa.column, HASHED))
    rows = conn.execute(
        sa.select(event.c.id, *(event.c[c] for c in HASHED)).order_by(event.c.game_id, event.c.seq)
    )
    game, prev, updates = None, "", []
    for row in rows:
        values = tuple(row)[1:]
        if values[0] != game:
            game, prev = values[0], ""
        prev = event_hash(prev, values)
        updates.append({"row_id": row[0], "h": prev})
    if updates:
        conn.execute(
            event.update()
            .where(event.c.id == sa.bindparam("row_id"))
            .values(hash=sa.bindparam("h")),
            updates,
        )


def downgrade() -> None:
    with op.batch_alter_table("snapshot") as batch:
        batch.drop_column("head")
    with op.batch_alter_table("event") as batch:
        batch.drop_column("hash")
