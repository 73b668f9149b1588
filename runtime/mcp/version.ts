// The server version MCP clients see in serverInfo: skillgate's own package.json, read once.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "../contracts/index.js";

let cached: string | undefined;

/** `version` of skillgate's package.json (the one the running code ships with). */
export function serverVersion(): string {
  if (cached) return cached;
  const manifest = JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as {
    version?: unknown;
  };
  if (typeof manifest.version !== "string" || manifest.version.length === 0) {
    throw new Error(`package.json of ${packageRoot()} has no version`);
  }
  cached = manifest.version;
  return cached;
}
