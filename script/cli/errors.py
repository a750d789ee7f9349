"""How the command line fails: one exception type per exit status.

`main` turns a `CliError` into its message on stderr and its exit status; nothing else
escapes as a traceback except a bug in scriptc itself.

- 0: success.
- 1 (`UserCodeError`): the user's code is wrong: a compile error, a syntax error or an
  exception while importing the file, a saved module that does not load.
- 2 (`UsageError`): the command line is wrong, or asks for something this build cannot do
  (a file that does not exist, an unknown function, a bad `--sig`, `--stage ptx`).
"""

from __future__ import annotations

EXIT_OK = 0
EXIT_USER_CODE = 1
EXIT_USAGE = 2


class CliError(Exception):
    """A failure to report as `scriptc: error: MESSAGE` (or just MESSAGE when `bare`)."""

    status = EXIT_USER_CODE

    def __init__(self, message: str, bare: bool = False):
        super().__init__(message)
        self.message = message
        self.bare = bare        # the message is already a full diagnostic (file:line:col: ...)


class UserCodeError(CliError):
    status = EXIT_USER_CODE


class UsageError(CliError):
    status = EXIT_USAGE
