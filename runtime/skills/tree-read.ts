// Reads one SKILL.md for the tree walker: bounded at 10 MiB, a symlinked one kept inside the root, one shared buffer.
import fs from "node:fs";
import { isInside } from "../contracts/index.js";
import type { Diagnostic } from "./types.js";
import { MAX_SKILL_FILE_BYTES } from "./validate.js";

type ReadOutcome = { ok: true; content: Buffer } | { ok: false; diagnostic: Diagnostic };

// One reusable read buffer: nearly every SKILL.md fits, so a scan reads each file with one open + one
// read (no fstat, no per-file allocation). Callers decode the bytes before the next read.
const CHUNK_BYTES = 64 * 1024;
const chunk = Buffer.allocUnsafe(CHUNK_BYTES);

/**
 * Reads SKILL.md, refusing more than 10 MiB without reading past the limit. The returned bytes may be a
 * view of a shared buffer: use them before calling again. Call only for regular files (or symlinks to
 * them): opening a FIFO would block. `linkRoot` is given when SKILL.md is a symlink: its target must
 * then stay inside that (real) root.
 */
export function readSkillFile(file: string, linkRoot: string | undefined): ReadOutcome {
  if (linkRoot) {
    let escaped: Diagnostic | null;
    try {
      escaped = symlinkEscape(file, linkRoot);
    } catch (error) {
      return { ok: false, diagnostic: unreadableFile(file, error) };
    }
    if (escaped) return { ok: false, diagnostic: escaped };
  }
  let fd: number;
  try {
    fd = fs.openSync(file, "r");
  } catch (error) {
    return { ok: false, diagnostic: unreadableFile(file, error) };
  }
  try {
    const first = fs.readSync(fd, chunk, 0, CHUNK_BYTES, null);
    if (first < CHUNK_BYTES) return { ok: true, content: chunk.subarray(0, first) };
    const parts = [Buffer.from(chunk)];
    let total = first;
    while (total <= MAX_SKILL_FILE_BYTES) {
      const part = Buffer.allocUnsafe(Math.min(1024 * 1024, MAX_SKILL_FILE_BYTES + 1 - total));
      const count = fs.readSync(fd, part, 0, part.length, null);
      if (count === 0) break;
      parts.push(part.subarray(0, count));
      total += count;
    }
    if (total > MAX_SKILL_FILE_BYTES) {
      const size = fs.fstatSync(fd).size;
      return {
        ok: false,
        diagnostic: {
          path: file,
          code: "TOO_LARGE",
          message: `SKILL.md is ${size} bytes, over the 10 MiB limit (${MAX_SKILL_FILE_BYTES} bytes); move long material into references/ and keep SKILL.md short`,
          severity: "error",
        },
      };
    }
    return { ok: true, content: Buffer.concat(parts, total) };
  } catch (error) {
    return { ok: false, diagnostic: unreadableFile(file, error) };
  } finally {
    fs.closeSync(fd);
  }
}

export function symlinkEscape(file: string, realRoot: string): Diagnostic | null {
  const target = fs.realpathSync(file);
  if (isInside(realRoot, target)) return null;
  return {
    path: file,
    code: "SYMLINK_ESCAPE",
    message: `SKILL.md ${file} is a symlink to ${target}, outside the skill root; not loaded — copy the file into the skill folder instead`,
    severity: "error",
  };
}

export function unreadableFile(file: string, error: unknown): Diagnostic {
  return {
    path: file,
    code: "UNREADABLE",
    message: `cannot read SKILL.md (${errorCode(error)}): ${file}; make it a readable regular file or remove the folder`,
    severity: "error",
  };
}

export function notRegular(file: string): Diagnostic {
  return {
    path: file,
    code: "UNREADABLE",
    message: `cannot read SKILL.md: ${file} is not a regular file; replace it with a regular UTF-8 text file`,
    severity: "error",
  };
}

export function errorCode(error: unknown): string {
  return typeof error === "object" && error !== null && "code" in error
    ? String(error.code)
    : "unknown error";
}
