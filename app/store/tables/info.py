"""Marks a database as an Airboss store (``format = airboss``)."""

from sqlmodel import Field, SQLModel


class InfoRow(SQLModel, table=True):
    __tablename__ = "airboss_info"

    key: str = Field(primary_key=True, max_length=64)
    value: str = Field(max_length=200)
