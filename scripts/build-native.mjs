// Build step: compiles native/tree-prefetch.c and tree-walk.c into dist/native/tree-prefetch.node when a C compiler and Node's headers are here.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..");
const sources = ["tree-prefetch.c", "tree-walk.c"].map((name) => join(repo, "native", name));
const output = join(repo, "dist", "native", "tree-prefetch.node");

/** Node's own headers: beside the binary (official tarballs, nvm), or where distributions put them. */
function nodeHeaders() {
  const candidates = [
    join(dirname(process.execPath), "..", "include", "node"),
    "/usr/include/node",
    "/usr/local/include/node",
  ];
  return candidates.find((dir) => existsSync(join(dir, "node_api.h")));
}

/** Builds the module, or says why not and leaves none: without it the scanner lists folders itself (same output, slower). */
export function buildNative() {
  rmSync(output, { force: true });
  if (process.platform !== "linux") return "not Linux";
  const headers = nodeHeaders();
  if (!headers) return "Node's headers (node_api.h) were not found";
  const compiler = process.env.CC || "cc";
  mkdirSync(dirname(output), { recursive: true });
  const temporary = `${output}.${process.pid}.tmp`;
  const flags = ["-O2", "-Wall", "-Wextra", "-Werror", "-shared", "-fPIC", "-fvisibility=hidden", "-pthread"];
  const result = spawnSync(compiler, [...flags, "-I", headers, "-o", temporary, ...sources], {
    encoding: "utf8",
  });
  if (result.error || result.status !== 0) {
    rmSync(temporary, { force: true });
    return result.error
      ? `no C compiler (${compiler}: ${result.error.message})`
      : `${compiler} failed: ${result.stderr.trim()}`;
  }
  renameSync(temporary, output);
  return null;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const skipped = buildNative();
  if (skipped)
    console.error(
      `build: native tree prefetch not built (${skipped}); skill scans list folders in JavaScript instead (slower, same results)`,
    );
}
