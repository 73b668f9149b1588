# Reads a JSON list of SKILL.md paths on stdin; prints what UCAgent's loader makes of each (regex split + PyYAML safe_load).
# Restates UCAgent's _parse_skill_metadata (ucagent/tools/skill.py): text-mode read, the frontmatter pattern, safe_load,
# a dict, truthy name and description, str(name), str(description).strip()[:1024], a warning for truthy non-dict metadata.
import json
import re
import sys

import yaml

PATTERN = re.compile(r"^---\s*\n(.*?)\n---\s*\n", re.DOTALL)


def verdict(path):
    try:
        with open(path, "r", encoding="utf-8") as handle:
            content = handle.read()
    except UnicodeDecodeError:
        return {"listed": False, "why": "not UTF-8"}
    match = PATTERN.match(content)
    if not match:
        return {"listed": False, "why": "no frontmatter"}
    try:
        data = yaml.safe_load(match.group(1))
    except yaml.YAMLError as error:
        return {"listed": False, "why": f"YAML: {str(error).splitlines()[0]}"}
    except Exception as error:  # noqa: BLE001 - would stop UCAgent's whole scan; reported so the test can say so
        return {"listed": False, "why": f"crash {type(error).__name__}: {error}"}
    if not isinstance(data, dict):
        return {"listed": False, "why": f"not a mapping: {type(data).__name__}"}
    name = data.get("name")
    description = data.get("description")
    if not name or not description:
        return {"listed": False, "why": "name or description missing or falsy"}
    metadata = data.get("metadata", {})
    return {
        "listed": True,
        "name": str(name),
        "description": str(description).strip()[:1024],
        "metadata_warning": (not isinstance(metadata, dict)) and bool(metadata),
    }


json.dump([verdict(path) for path in json.load(sys.stdin)], sys.stdout)
