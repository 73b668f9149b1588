// Reads every runtime/**/*.ts source (repository-relative path → text) for the architecture tests.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = join(fileURLToPath(new URL(".", import.meta.url)), "..", "..");

export function runtimeFiles(): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && entry.name.endsWith(".ts")) {
        files.set(relative(REPO, path).split(sep).join("/"), readFileSync(path, "utf8"));
      }
    }
  };
  walk(join(REPO, "runtime"));
  return files;
}
