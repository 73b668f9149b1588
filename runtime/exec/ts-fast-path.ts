// Fast path behind the `tsx` runner mapping: esbuild-compile a self-contained .ts helper once, cache it by content hash, run it with node.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { builtinModules, createRequire } from "node:module";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";
import type { RunRequest } from "./types.js";

// esbuild's API loads only on a cache miss; a cache hit needs only its version (part of the key).
const esbuildVersion = (): string =>
  (createRequire(import.meta.url)("esbuild/package.json") as { version: string }).version;

/** Bump when the compiled shape changes so stale cache entries are never reused. */
const FAST_PATH_FORMAT = "1";
const BUILTINS = new Set(builtinModules);

export interface CompiledHelper {
  /** Absolute path of the wrapper to run with node (it enables source maps, then imports the body). */
  entry: string;
  /** True when this call compiled; false when the cache already held it. */
  compiled: boolean;
}

export function fastPathDisabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.SKILLGATE_EXACT_RUNNER === "1";
}

/** Runner resolution yields tsx's real entry (…/tsx/dist/cli.mjs) or a `tsx` found on PATH. */
export function isTsxRunner(runner: string): boolean {
  return basename(runner) === "tsx" || /[/\\]tsx[/\\]dist[/\\]cli\.m?js$/.test(runner);
}

function isBuiltinImport(path: string): boolean {
  return path.startsWith("node:") || BUILTINS.has(path);
}

function writeAtomically(file: string, text: string): void {
  const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(temp, text, { mode: 0o444 });
  renameSync(temp, file);
}

/**
 * Returns the cached node entry for a .ts helper, compiling it on a cache miss; null when the helper imports
 * anything but node built-ins (relative modules or packages), which only real tsx resolves faithfully.
 */
export async function compileTsHelper(scriptPath: string, cacheDir: string): Promise<CompiledHelper | null> {
  const source = readFileSync(scriptPath);
  const key = createHash("sha256")
    .update(`${FAST_PATH_FORMAT}\0${esbuildVersion()}\0${scriptPath}\0`)
    .update(source)
    .digest("hex")
    .slice(0, 32);
  const body = join(cacheDir, `${key}.mjs`);
  const entry = join(cacheDir, `${key}.run.mjs`);
  if (existsSync(entry) && existsSync(body)) return { entry, compiled: false };

  const scriptUrl = pathToFileURL(scriptPath).href;
  const esbuild = await import("esbuild");
  const result = await esbuild.build({
    entryPoints: [scriptPath],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    write: false,
    outfile: body,
    metafile: true,
    sourcemap: "inline",
    logLevel: "silent",
    // The body lives in the cache, so import.meta must keep describing the .ts source.
    define: {
      "import.meta.url": JSON.stringify(scriptUrl),
      "import.meta.filename": JSON.stringify(scriptPath),
      "import.meta.dirname": JSON.stringify(join(scriptPath, "..")),
    },
  });
  const inputs = Object.keys(result.metafile.inputs);
  const output = Object.values(result.metafile.outputs)[0];
  const selfContained =
    inputs.length === 1 && (output?.imports ?? []).every((imp) => isBuiltinImport(imp.path));
  const code = result.outputFiles[0]?.text;
  if (!selfContained || code === undefined) return null;

  mkdirSync(cacheDir, { recursive: true });
  writeAtomically(body, code);
  // Source maps must be on before the body loads, or stack traces would point into the cache.
  writeAtomically(
    entry,
    `process.setSourceMapsEnabled(true);\nawait import(${JSON.stringify(pathToFileURL(body).href)});\n`,
  );
  return { entry, compiled: true };
}

/**
 * Rewrites a request whose runner is tsx to run the cached compiled helper with node (the fast path);
 * leaves it unchanged when SKILLGATE_EXACT_RUNNER=1 or the helper is not self-contained.
 */
export async function withTsFastPath(
  request: RunRequest,
  cacheDir: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ request: RunRequest; fastPath: boolean }> {
  if (!isTsxRunner(request.runner) || fastPathDisabled(env)) return { request, fastPath: false };
  const compiled = await compileTsHelper(request.scriptPath, cacheDir);
  if (!compiled) return { request, fastPath: false };
  return {
    fastPath: true,
    request: {
      ...request,
      runner: process.execPath,
      scriptPath: compiled.entry,
      // The scan (level 3) must still read the .ts source the agent asked for, not the compiled copy.
      scanPaths: request.scanPaths ?? [request.scriptPath],
      readOnlyPaths: [...(request.readOnlyPaths ?? []), cacheDir],
    },
  };
}

/** Where compiled helpers are cached: outside every workspace, bound read-only inside the sandbox. */
export function tsCacheDir(home: string): string {
  return join(home, "cache", "ts");
}
