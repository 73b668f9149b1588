// Unique temp file paths for js-runner scripts: <tmp>/js-runner-<timestamp>-<random>.<ext> (works under node and bun).
// Run it: `node get_temp_path.mjs [ext]` prints a fresh path (ext defaults to js); `--dir` prints the folder.
import { randomBytes } from "node:crypto";
import { realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const SCRIPT_EXTENSIONS = ["js", "mjs", "cjs", "ts", "mts", "cts", "jsx", "tsx"];

/** The system temp folder (honours TMPDIR). */
export function getTempDir() {
  return tmpdir();
}

/** A fresh path <tmp>/js-runner-<13-digit ms timestamp>-<8 hex chars>.<ext>; the file is not created. */
export function getTempFilePath(ext = "js") {
  const clean = String(ext).replace(/^\./, "");
  if (!SCRIPT_EXTENSIONS.includes(clean)) {
    throw new Error(`unsupported extension "${ext}": use one of ${SCRIPT_EXTENSIONS.join(", ")}`);
  }
  const timestamp = String(Date.now()).padStart(13, "0");
  const random = randomBytes(4).toString("hex");
  return join(getTempDir(), `js-runner-${timestamp}-${random}.${clean}`);
}

function isMain() {
  if (!process.argv[1]) return false;
  try {
    return realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isMain()) {
  const args = process.argv.slice(2);
  if (args.length === 1 && args[0] === "--dir") {
    console.log(getTempDir());
  } else if (args.length <= 1) {
    try {
      console.log(getTempFilePath(args[0] ?? "js"));
    } catch (error) {
      console.error(error.message);
      process.exitCode = 2;
    }
  } else {
    console.error("usage: get_temp_path.mjs [ext|--dir]");
    process.exitCode = 2;
  }
}
