# Reads a JSON list of skill folders on stdin and prints the real skills-ref's verdict for each (one process for all).
import json
import sys
from pathlib import Path

from skills_ref.validator import validate


def verdict(folder):
    try:
        errors = validate(Path(folder))
    except Exception as error:  # noqa: BLE001 - skills-ref lets some errors escape; its CLI then exits non-zero
        errors = [f"exception {type(error).__name__}: {error}"]
    return {"dir": folder, "ok": not errors, "errors": [str(e) for e in errors]}


json.dump([verdict(folder) for folder in json.load(sys.stdin)], sys.stdout)
