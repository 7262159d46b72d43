"""Entry script of the frozen application (PyInstaller): the same as the `airboss` command."""

import sys

from app.cli import main

if __name__ == "__main__":
    sys.exit(main())
