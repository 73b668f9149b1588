// Bench helper: the built CLI (dist/), rebuilt when older than the sources it is made from.
import { execFileSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

export const REPO = join(import.meta.dirname, "..", "..");
/** The `skillgate` bin: the launcher that runs the bundle from a V8 code cache. */
export const BUILT_MAIN = join(REPO, "dist", "runtime", "cli", "main.js");
const BUNDLE = join(REPO, "dist", "cli", "skillgate.cjs");

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** Builds dist/ (npm run build) when the bundle is missing or older than runtime/, native/, scripts/ or package.json. */
export function ensureBuilt(): void {
  const built = statSync(BUNDLE, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  const sources = Math.max(
    ...["runtime", "native", "scripts", "package.json"].map((part) => newestMtime(join(REPO, part))),
  );
  if (built >= sources) return;
  execFileSync("npm", ["run", "build"], { cwd: REPO, stdio: ["ignore", "ignore", "inherit"] });
}
