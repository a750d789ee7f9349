"""`python -m script`: the command line (same as `scriptc`)."""

import sys

from script.cli import main

sys.exit(main())
