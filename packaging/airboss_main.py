"""Entry script of the frozen application (PyInstaller): the same as the `airboss` command."""

import sys

from app.cli import entry

if __name__ == "__main__":
    sys.exit(entry())
