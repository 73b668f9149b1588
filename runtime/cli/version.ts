// `skillgate --version`: the version of the installed package (read from its package.json).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "../contracts/index.js";

export function skillgateVersion(): string {
  const manifest = JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as {
    version?: unknown;
  };
  return typeof manifest.version === "string" ? manifest.version : "unknown";
}
