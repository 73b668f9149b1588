// The file-backed config memo: one entry per set of layer files and flags in <home>/cache/config/, written atomically.
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { ConfigMemo } from "../config/index.js";
import { readSmallFile } from "../contracts/index.js";
import { writeFileAtomic } from "./safe-write.js";

/** Kept in the per-user home (outside every workspace, like the signing key): an agent cannot plant an entry. */
export function configMemoIn(home: string, build: string): ConfigMemo {
  const dir = join(home, "cache", "config");
  const file = (slot: string) => join(dir, `${slot}.json`);
  return {
    build,
    // Anything unreadable (a FIFO included) is a miss; the write after it replaces the entry atomically.
    read: (slot) => readSmallFile(file(slot)).catch(() => null),
    async write(slot, text) {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      await writeFileAtomic(file(slot), text, { mode: 0o600 });
    },
  };
}
