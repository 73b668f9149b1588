// The file-backed config memo: one entry per set of layer files and flags in <home>/cache/config/, written atomically.
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { ConfigMemo } from "../config/index.js";
import { writeFileAtomic } from "./safe-write.js";

/** Kept in the per-user home (outside every workspace, like the signing key): an agent cannot plant an entry. */
export function configMemoIn(home: string, build: string): ConfigMemo {
  const dir = join(home, "cache", "config");
  const file = (slot: string) => join(dir, `${slot}.json`);
  return {
    build,
    read: (slot) => readFile(file(slot), "utf8").catch(() => null),
    async write(slot, text) {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      await writeFileAtomic(file(slot), text, { mode: 0o600 });
    },
  };
}
