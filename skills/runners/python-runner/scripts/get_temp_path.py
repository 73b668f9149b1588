"""Unique temp file paths for uv scripts: <tmp>/uv_script_<timestamp>_<random>.py.

Import get_temp_dir() / get_temp_file_path(), or run it: `python3 get_temp_path.py` prints a fresh path,
`python3 get_temp_path.py --dir` prints the temp folder. The file itself is not created.
"""

import secrets
import sys
import tempfile
import time


def get_temp_dir():
    """The system temp folder (honours TMPDIR, TEMP, TMP)."""
    return tempfile.gettempdir()


def get_temp_file_path():
    """A fresh path <tmp>/uv_script_<YYYYmmddHHMMSS>_<8 hex chars>.py; not created."""
    timestamp = time.strftime("%Y%m%d%H%M%S")
    random_part = secrets.token_hex(4)
    return f"{get_temp_dir()}/uv_script_{timestamp}_{random_part}.py"


def main(argv):
    if argv == ["--dir"]:
        print(get_temp_dir())
        return 0
    if argv:
        print("usage: get_temp_path.py [--dir]", file=sys.stderr)
        return 2
    print(get_temp_file_path())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
