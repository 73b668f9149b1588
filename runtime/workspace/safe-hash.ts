// Streams the sha256 of a regular workspace file through the safe-path checks: no escape, no FIFO/device opened, capped.
import { createHash } from "node:crypto";
import { SkillgateError } from "../errors.js";
import {
  closeAll,
  ioError,
  kindOf,
  openVerified,
  realRootOf,
  relativeTo,
  reopenForRead,
  resolveLexical,
} from "./safe-path.js";

export interface SafeHashOptions {
  /** Refuse (FILE_TOO_LARGE) past this many bytes, checked before and while reading. */
  maxBytes: number;
  allowAbsolute?: boolean;
  /** Follow a final symlink when it stays inside the workspace (default true; an escape is PATH_OUTSIDE_WORKSPACE). */
  follow?: boolean;
}

export interface SafeHashResult {
  sha256: string;
  size: number;
  mtimeMs: number;
  /** Workspace-relative real path of what was hashed. */
  path: string;
}

/** sha256 of a regular file inside the workspace without holding it in memory; a non-regular file is never opened. */
export async function hashWorkspaceFile(
  root: string,
  path: string,
  options: SafeHashOptions,
): Promise<SafeHashResult> {
  const realRoot = await realRootOf(root);
  const { shown, lexical } = resolveLexical(root, path, options.allowAbsolute ?? false);
  const file = await openVerified(realRoot, lexical, shown, { follow: options.follow ?? true });
  let reader: Awaited<ReturnType<typeof reopenForRead>> | undefined;
  try {
    if (!file.stats.isFile()) {
      const kind = kindOf(file.stats);
      throw new SkillgateError("NOT_REGULAR_FILE", `Path '${shown}' is a ${kind}, not a regular file.`, {
        path: shown,
        kind,
      });
    }
    if (file.stats.size > options.maxBytes) throw tooLarge(shown, file.stats.size, options.maxBytes);
    reader = await reopenForRead(file, shown);
    const hash = createHash("sha256");
    const chunk = Buffer.alloc(1 << 20);
    let total = 0;
    while (true) {
      const { bytesRead } = await reader.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > options.maxBytes) throw tooLarge(shown, total, options.maxBytes);
      hash.update(chunk.subarray(0, bytesRead));
    }
    return {
      sha256: hash.digest("hex"),
      size: total,
      mtimeMs: file.stats.mtimeMs,
      path: relativeTo(realRoot, file.real),
    };
  } catch (error) {
    throw ioError(error, "hash", shown);
  } finally {
    await closeAll(reader, file);
  }
}

function tooLarge(shown: string, size: number, limit: number): SkillgateError {
  return new SkillgateError(
    "FILE_TOO_LARGE",
    `File ${shown} is ${size} bytes, over the ${limit}-byte limit.`,
    {
      path: shown,
      size,
      limit,
    },
  );
}
