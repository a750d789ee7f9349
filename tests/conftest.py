"""Test-wide settings: the IR verifier runs after the frontend and after every pass."""

import os

os.environ.setdefault("SCRIPT_VERIFY", "1")
