// A state file replaced in two steps: new bytes written and synced to a temp file now, the rename when the caller says.
//
// Why two steps: the ledger's group commit writes the head mark's and the checkpoint's new bytes while the ledger
// append is being synced, and renames them only once that fsync is done, so neither can ever point past durable
// records. The rename is not followed by a folder sync: these are files whose previous version is still correct
// after a crash (a head mark or checkpoint behind the ledger loads, and catches up), so only the bytes must be whole.
import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { open, realpath, rename, unlink } from "node:fs/promises";
import { basename, dirname, resolve } from "node:path";
import { at, closeAll, ioError } from "./safe-path.js";
import { openParent } from "./write-policy.js";

export interface StagedFile {
  /** Renames the synced temp file over the target (atomic; not made durable by a folder sync, see above). */
  commit(): Promise<void>;
  /** Removes the temp file; the target is left as it was. */
  abort(): Promise<void>;
}

/**
 * Writes `data` to a temp file beside `path` (its folder verified, no symlink followed, O_EXCL | O_NOFOLLOW, exactly
 * `mode`) and syncs it; the returned handle renames it over `path` or removes it.
 */
export async function stageFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: { mode?: number } = {},
): Promise<StagedFile> {
  const file = resolve(path);
  const base = await realpath(dirname(file)).catch((error: unknown) => {
    throw ioError(error, "write", file);
  });
  const parent = await openParent(base, basename(file), { allow: ["."] }, false, file);
  const temp = `.${parent.name.slice(0, 100)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  const mode = options.mode ?? 0o644;
  try {
    const handle = await open(
      at(parent.dir, temp),
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      mode,
    );
    try {
      await handle.chmod(mode);
      await handle.writeFile(typeof data === "string" ? Buffer.from(data, "utf8") : data);
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    await unlink(at(parent.dir, temp)).catch(() => undefined);
    await closeAll(parent.dir);
    throw ioError(error, "write", file);
  }
  let settled = false;
  const settle = async (action: () => Promise<void>) => {
    if (settled) return;
    settled = true;
    try {
      await action();
    } finally {
      await closeAll(parent.dir);
    }
  };
  return {
    commit: () =>
      settle(async () => {
        await rename(at(parent.dir, temp), at(parent.dir, parent.name)).catch(async (error: unknown) => {
          await unlink(at(parent.dir, temp)).catch(() => undefined);
          throw ioError(error, "write", file);
        });
      }),
    abort: () => settle(() => unlink(at(parent.dir, temp)).catch(() => undefined)),
  };
}
