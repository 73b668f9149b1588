// Finds skillgate's own install folder (from sources or dist/), its version and the bundled skill pack inside it.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

let cachedRoot: string | undefined;
let cachedVersion = "unknown";

/** The folder holding skillgate's package.json, found by walking up from this module. */
export function packageRoot(): string {
  if (cachedRoot) return cachedRoot;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest)) {
      try {
        const fields = JSON.parse(readFileSync(manifest, "utf8")) as { name?: unknown; version?: unknown };
        if (fields.name === "skillgate") {
          if (typeof fields.version === "string" && fields.version !== "") cachedVersion = fields.version;
          cachedRoot = dir;
          return dir;
        }
      } catch {
        // Not ours (unreadable or not JSON): keep walking up.
      }
    }
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error(`skillgate package.json not found above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}

/** `version` of the package.json the running code ships with (`skillgate --version`, MCP serverInfo); "unknown" without one. */
export function packageVersion(): string {
  packageRoot();
  return cachedVersion;
}

/** The repo's `skills/` folder: the pack copied by init when `skill.pack_path` is not set. */
export function bundledPackRoot(): string {
  return join(packageRoot(), "skills");
}
