// Finds the `bun` binary installed with skillgate (npm package `bun`), passed to scripts as SKILLGATE_BUN.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** Absolute path of the bun binary, resolved like an import so it works when skillgate is itself a dependency; or null. */
export function bunExecutable(): string | null {
  try {
    const manifest = createRequire(import.meta.url).resolve("bun/package.json");
    const bin = join(dirname(manifest), "bin", "bun.exe");
    return existsSync(bin) ? bin : null;
  } catch {
    return null;
  }
}
