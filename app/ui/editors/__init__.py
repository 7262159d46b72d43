"""Editors for the umpire's own data: table values and aircraft cards."""
