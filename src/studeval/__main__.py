"""``python -m studeval``: the same as the ``studeval`` command."""

from studeval.cli import console_main

if __name__ == "__main__":
    console_main()
