// Build step: compiles the optional native modules in native/ into dist/native/*.node with cc and Node's own headers.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..");
const outDir = join(repo, "dist", "native");

/** Each module and its C sources; without a module its JavaScript fallback runs (same results, slower). */
export const NATIVE_MODULES = {
  "tree-prefetch": ["tree-prefetch.c", "tree-walk.c"],
  "cgroup-prime": ["cgroup-prime.c"],
};

/** Node's own headers: beside the binary (official tarballs, nvm), or where distributions put them. */
function nodeHeaders() {
  const candidates = [
    join(dirname(process.execPath), "..", "include", "node"),
    "/usr/include/node",
    "/usr/local/include/node",
  ];
  return candidates.find((dir) => existsSync(join(dir, "node_api.h")));
}

/** Builds every module, or says why not and leaves none of them. */
export function buildNative() {
  const outputs = Object.keys(NATIVE_MODULES).map((name) => join(outDir, `${name}.node`));
  for (const output of outputs) rmSync(output, { force: true });
  if (process.platform !== "linux") return "not Linux";
  const headers = nodeHeaders();
  if (!headers) return "Node's headers (node_api.h) were not found";
  const compiler = process.env.CC || "cc";
  mkdirSync(outDir, { recursive: true });
  const flags = ["-O2", "-Wall", "-Wextra", "-Werror", "-shared", "-fPIC", "-fvisibility=hidden", "-pthread"];
  for (const [name, files] of Object.entries(NATIVE_MODULES)) {
    const output = join(outDir, `${name}.node`);
    const temporary = `${output}.${process.pid}.tmp`;
    const sources = files.map((file) => join(repo, "native", file));
    const result = spawnSync(compiler, [...flags, "-I", headers, "-o", temporary, ...sources], {
      encoding: "utf8",
    });
    if (result.error || result.status !== 0) {
      rmSync(temporary, { force: true });
      for (const built of outputs) rmSync(built, { force: true });
      return result.error
        ? `no C compiler (${compiler}: ${result.error.message})`
        : `${compiler} failed on ${name}: ${result.stderr.trim()}`;
    }
    renameSync(temporary, output);
  }
  return null;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const skipped = buildNative();
  if (skipped)
    console.error(
      `build: native modules not built (${skipped}); skill scans and run starts use their JavaScript paths instead (slower, same results)`,
    );
}
