"""Run a draft Python script safely with uv: check uv, check the PEP 723 block, compile, copy to a
fresh temp file, `uv run` it; keep the temp file and say where when it fails.

Usage: python3 run_uv_script.py DRAFT.py   (DRAFT is resolved against the current folder)
Exit codes: 0 success; 2 usage or a bad draft (no temp file written); 1 uv missing or the run
failed (uv could not resolve, or the script raised); otherwise the script's own non-zero exit code.
"""

import os
import re
import shutil
import subprocess
import sys

from get_temp_path import get_temp_file_path

UV_INSTALL_URL = "https://docs.astral.sh/uv/getting-started/installation/"
OPEN_LINE = "# /// script"
CLOSE_LINE = "# ///"
BLOCK_START = re.compile(r"^# /// (?P<type>[a-zA-Z0-9-]+)\s*$")
EXAMPLE_BLOCK = '# /// script\n# dependencies = []\n# ///'


class DraftError(Exception):
    """A problem with the draft that the agent must fix; nothing was written."""


def fail(message, code):
    print(message, file=sys.stderr)
    return code


def find_uv():
    return shutil.which("uv")


def parse_toml(text):
    try:
        import tomllib
    except ModuleNotFoundError:  # Python < 3.11
        try:
            import tomli as tomllib
        except ModuleNotFoundError:
            raise DraftError("cannot check the PEP 723 block: run this helper with Python 3.11+ (tomllib)")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise DraftError(f"the PEP 723 block is not valid TOML: {error}")


def check_pep723_block(source, draft):
    """Return the parsed metadata of the single `# /// script` block or raise DraftError."""
    lines = source.splitlines()
    blocks = []
    index = 0
    while index < len(lines):
        match = BLOCK_START.match(lines[index])
        if not match or match.group("type") != "script":
            index += 1
            continue
        start = index
        body = []
        index += 1
        closed = False
        while index < len(lines):
            line = lines[index]
            if line.rstrip() == CLOSE_LINE:
                closed = True
                break
            if line == "#" or line.startswith("# "):
                body.append(line[2:])
                index += 1
                continue
            break
        if not closed:
            raise DraftError(
                f"{draft}:{start + 1}: the `{OPEN_LINE}` block is not closed: end it with a line `{CLOSE_LINE}`"
                " (every line in between must start with `#`)"
            )
        blocks.append((start + 1, "\n".join(body)))
        index += 1
    if not blocks:
        raise DraftError(
            f"{draft}: no PEP 723 block: start the script with\n{EXAMPLE_BLOCK}\n"
            "(list third-party packages by bare name in dependencies)"
        )
    if len(blocks) > 1:
        where = ", ".join(f"line {line}" for line, _ in blocks)
        raise DraftError(f"{draft}: {len(blocks)} `{OPEN_LINE}` blocks ({where}): keep exactly one")
    line, body = blocks[0]
    try:
        metadata = parse_toml(body)
    except DraftError as error:
        raise DraftError(f"{draft}:{line}: {error}")
    dependencies = metadata.get("dependencies")
    if dependencies is None:
        raise DraftError(
            f"{draft}:{line}: the PEP 723 block has no `dependencies`: add `# dependencies = []` for a"
            " standard-library script, or list the packages by bare name"
        )
    if not isinstance(dependencies, list) or not all(isinstance(d, str) and d.strip() for d in dependencies):
        raise DraftError(
            f"{draft}:{line}: `dependencies` must be a list of package names like [\"requests\"], got {dependencies!r}"
        )
    return metadata


def check_syntax(source, draft):
    try:
        compile(source, draft, "exec")
    except SyntaxError as error:
        text = (error.text or "").rstrip("\n")
        pointer = ""
        if text and error.offset:
            pointer = "\n    " + text + "\n    " + " " * (max(error.offset, 1) - 1) + "^"
        raise DraftError(f"syntax error in {draft} line {error.lineno}: {error.msg}{pointer}\nno temp file was written")
    except ValueError as error:  # e.g. null bytes in the source
        raise DraftError(f"cannot compile {draft}: {error}\nno temp file was written")


def uv_version(uv):
    """(major, minor) of the uv binary, or None when it cannot be told."""
    try:
        text = subprocess.run([uv, "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    match = re.search(r"(\d+)\.(\d+)", text)
    return (int(match.group(1)), int(match.group(2))) if match else None


def uv_env(environ, version):
    """The environment of `uv run`. When no CA bundle is configured (sandboxes strip SSL_CERT_FILE), let uv trust
    the operating system's certificate store, so PyPI also works behind a TLS-inspecting proxy. uv 0.11 renamed
    UV_NATIVE_TLS to UV_SYSTEM_CERTS (and warns about the old name)."""
    env = dict(environ)
    tls_keys = ("SSL_CERT_FILE", "SSL_CERT_DIR", "UV_NATIVE_TLS", "UV_SYSTEM_CERTS")
    if not any(env.get(key) for key in tls_keys):
        env["UV_NATIVE_TLS" if version is not None and version < (0, 11) else "UV_SYSTEM_CERTS"] = "1"
    return env


def write_temp_copy(source):
    path = get_temp_file_path()
    with open(path, "x", encoding="utf-8") as handle:  # "x": never reuse an existing file
        handle.write(source)
    return path


def main(argv):
    if len(argv) != 1 or not argv[0].strip():
        return fail("usage: run_uv_script.py DRAFT.py  (the path of the script you wrote, relative to the workspace)", 2)
    uv = find_uv()
    if uv is None:
        return fail(f"uv not found on PATH\ninstall it: {UV_INSTALL_URL}", 1)
    draft = argv[0]
    try:
        with open(os.path.abspath(draft), encoding="utf-8") as handle:
            source = handle.read()
    except FileNotFoundError:
        return fail(f"draft not found: {draft} (resolved to {os.path.abspath(draft)}): write the script there first", 2)
    except (OSError, UnicodeDecodeError) as error:
        return fail(f"cannot read draft {draft}: {error}", 2)
    try:
        check_pep723_block(source, draft)
        check_syntax(source, draft)
    except DraftError as error:
        return fail(str(error), 2)
    temp_path = write_temp_copy(source)
    sys.stdout.flush()
    completed = subprocess.run([uv, "run", temp_path], stdin=subprocess.DEVNULL, env=uv_env(os.environ, uv_version(uv)))
    if completed.returncode == 0:
        os.remove(temp_path)
        return 0
    code = completed.returncode if completed.returncode > 0 else 1
    return fail(f"uv run failed with exit code {completed.returncode} (uv's output above)\ntemp file kept: {temp_path}", code)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
