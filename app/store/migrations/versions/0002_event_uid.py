"""Each event carries the id its station made for the action before sending it (issue 30):
a unique key, so the log refuses the same action twice, and a station that lost the server's
answer can ask whether its action was saved.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("event") as batch:
        batch.add_column(sa.Column("uid", sa.String(80), nullable=True))
        batch.create_index("ix_event_uid", ["uid"], unique=True)


def downgrade() -> None:
    with op.batch_alter_table("event") as batch:
        batch.drop_index("ix_event_uid")
        batch.drop_column("uid")
