// Entry of the small catalog bundle: `skillgate catalog ROOT [--json]` without commander or any other verb's code.
import { processIO } from "../io.js";
import { runCatalog } from "./catalog-run.js";

/**
 * Runs `catalog` when `args` (what follows the verb) is exactly one root and at most one `--json`, and returns
 * true; returns false for anything else (help, other options, a root starting with "-"), which the full CLI
 * then parses, so its usage errors and help stay the only ones.
 */
export function runCatalogArgv(args: readonly string[]): boolean {
  const json = args.filter((arg) => arg === "--json").length;
  const roots = args.filter((arg) => arg !== "--json");
  const root = roots[0];
  if (json > 1 || roots.length !== 1 || root === undefined || root === "" || root.startsWith("-"))
    return false;
  try {
    runCatalog(root, json === 1, processIO());
  } catch (error) {
    process.stderr.write(
      `skillgate: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  }
  return true;
}
