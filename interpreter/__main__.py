"""`python -m cardsmith` is the `cardsmith` command."""

import sys

from .cli import main

sys.exit(main())
