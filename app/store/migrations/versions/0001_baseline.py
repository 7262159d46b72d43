"""Baseline: games, their event logs, snapshots, and the Airboss marker.

Revision ID: 0001
Revises:
Create Date: 2026-11-21
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "airboss_info",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("value", sa.String(200), nullable=False),
    )
    op.create_table(
        "game",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("ruleset", sa.String(64), nullable=False),
        sa.Column("title", sa.String(200), nullable=False),
        sa.Column("variants", sa.String(), nullable=False),
        sa.Column("created", sa.DateTime(), nullable=False),
    )
    op.create_table(
        "event",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.String(64), sa.ForeignKey("game.id"), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("action", sa.Integer(), nullable=False),
        sa.Column("time", sa.DateTime(), nullable=False),
        sa.Column("actor", sa.String(64), nullable=False),
        sa.Column("rule", sa.String(200), nullable=False),
        sa.Column("narrative", sa.Text(), nullable=False),
        sa.Column("kind", sa.String(64), nullable=False),
        sa.Column("payload", sa.Text(), nullable=False),
    )
    op.create_index("ix_event_game_seq", "event", ["game_id", "seq"], unique=True)
    op.create_index("ix_event_game_action", "event", ["game_id", "action"])
    op.create_table(
        "snapshot",
        sa.Column("game_id", sa.String(64), sa.ForeignKey("game.id"), primary_key=True),
        sa.Column("seq", sa.Integer(), primary_key=True),
        sa.Column("data", sa.LargeBinary(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("snapshot")
    op.drop_index("ix_event_game_action", "event")
    op.drop_index("ix_event_game_seq", "event")
    op.drop_table("event")
    op.drop_table("game")
    op.drop_table("airboss_info")
