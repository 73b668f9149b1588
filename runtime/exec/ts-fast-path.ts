// Fast path behind the `tsx` runner mapping: esbuild-compile a self-contained .ts helper once, cache it by content hash, run it with node.
import { createHash } from "node:crypto";
import { constants } from "node:fs";
import { access, mkdir, open } from "node:fs/promises";
import { builtinModules, createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import type * as esbuild from "esbuild";
import { SkillgateError } from "../errors.js";
import { writeFileAtomic } from "../workspace/index.js";
import { ensureLauncher } from "./prepared/launcher.js";
import type { RunRequest } from "./types.js";

// esbuild's API loads only on a cache miss; a cache hit needs only its version (part of the key).
const esbuildVersion = (): string =>
  (createRequire(import.meta.url)("esbuild/package.json") as { version: string }).version;

/** Bump when the compiled shape changes so stale cache entries are never reused. */
const FAST_PATH_FORMAT = "2";
const BUILTINS = new Set(builtinModules);

export interface CompiledHelper {
  /** Absolute path of the wrapper to run with node (it enables source maps, then imports the body). */
  entry: string;
  /** Absolute path of the compiled helper the entry imports. */
  body: string;
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

/** Largest helper the fast path compiles; bigger ones are refused as a tool result. */
const MAX_SOURCE_BYTES = 4 * 1024 * 1024;
/** esbuild compiles a helper in milliseconds; a minute means something is wrong, not slow. */
const COMPILE_TIMEOUT_MS = 30_000;

function compileError(scriptPath: string, problem: string, fix: string): SkillgateError {
  return new SkillgateError(
    "SCRIPT_COMPILE_FAILED",
    `TypeScript helper ${basename(scriptPath)} (${scriptPath}) ${problem}; fix: ${fix}`,
    { script: scriptPath },
  );
}

/** Reads the entry without blocking on a FIFO and without following a symlink: a regular file, size-capped. */
async function readEntry(scriptPath: string): Promise<Buffer> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(scriptPath, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch (error) {
    throw compileError(
      scriptPath,
      `cannot be opened (${(error as Error).message})`,
      "ship the helper as a plain file",
    );
  }
  try {
    const info = await handle.stat();
    if (!info.isFile())
      throw compileError(scriptPath, "is not a regular file", "ship the helper as a plain file");
    if (info.size > MAX_SOURCE_BYTES) {
      throw compileError(
        scriptPath,
        `is ${info.size} bytes, over the ${MAX_SOURCE_BYTES}-byte limit of the fast path`,
        "split the helper or map it to another runner",
      );
    }
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** Every import stays external, so esbuild opens nothing on the host but the entry it is handed. */
const externaliseAll: esbuild.Plugin = {
  name: "skillgate-external",
  setup(build) {
    build.onResolve({ filter: /.*/ }, (args) => ({ path: args.path, external: true }));
  },
};

function withTimeout<T>(work: Promise<T>, scriptPath: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, fail) => {
    timer = setTimeout(
      () =>
        fail(
          compileError(
            scriptPath,
            `did not compile within ${COMPILE_TIMEOUT_MS / 1000} s`,
            "simplify the helper or map it to another runner",
          ),
        ),
      COMPILE_TIMEOUT_MS,
    );
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Returns the cached node entry for a .ts helper, compiling it on a cache miss; null when the helper imports
 * anything but node built-ins (relative modules or packages), which only real tsx (inside the sandbox) resolves.
 * The host side reads only the entry file: no import, tsconfig or package.json is opened here. A compile
 * failure throws SCRIPT_COMPILE_FAILED (a tool result), never an internal error.
 */
export async function compileTsHelper(scriptPath: string, cacheDir: string): Promise<CompiledHelper | null> {
  const source = await readEntry(scriptPath);
  const key = createHash("sha256")
    .update(`${FAST_PATH_FORMAT}\0${esbuildVersion()}\0${scriptPath}\0`)
    .update(source)
    .digest("hex")
    .slice(0, 32);
  const body = join(cacheDir, `${key}.mjs`);
  const entry = join(cacheDir, `${key}.run.mjs`);
  const cached = await Promise.all(
    [entry, body].map((path) =>
      access(path).then(
        () => true,
        () => false,
      ),
    ),
  );
  if (cached.every(Boolean)) return { entry, body, compiled: false };

  const scriptUrl = pathToFileURL(scriptPath).href;
  const { build } = await import("esbuild");
  let result: esbuild.BuildResult<{ write: false; metafile: true }>;
  try {
    result = await withTimeout(
      build({
        stdin: {
          contents: source.toString("utf8"),
          sourcefile: scriptPath,
          loader: "ts",
          resolveDir: dirname(scriptPath),
        },
        bundle: true,
        plugins: [externaliseAll],
        tsconfigRaw: {},
        platform: "node",
        format: "esm",
        target: "node20",
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
      }),
      scriptPath,
    );
  } catch (error) {
    if (error instanceof SkillgateError) throw error;
    const failure = error as { errors?: esbuild.Message[]; message?: string };
    const first = failure.errors?.[0];
    const where = first?.location ? `line ${first.location.line}, column ${first.location.column + 1}: ` : "";
    throw compileError(
      scriptPath,
      `does not compile: ${where}${first?.text ?? failure.message ?? String(error)}`,
      "fix the TypeScript error shown",
    );
  }
  const output = Object.values(result.metafile.outputs)[0];
  const selfContained = (output?.imports ?? []).every((imp) => isBuiltinImport(imp.path));
  const code = result.outputFiles[0]?.text;
  if (!selfContained || code === undefined) return null;

  await mkdir(cacheDir, { recursive: true });
  await writeFileAtomic(body, code, { mode: 0o444 });
  // Source maps must be on before the body loads, or stack traces would point into the cache.
  await writeFileAtomic(
    entry,
    `process.setSourceMapsEnabled(true);\nawait import(${JSON.stringify(pathToFileURL(body).href)});\n`,
    { mode: 0o444 },
  );
  return { entry, body, compiled: true };
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
  const launcher = await ensureLauncher(cacheDir);
  return {
    fastPath: true,
    request: {
      ...request,
      runner: process.execPath,
      scriptPath: compiled.entry,
      scriptName: request.scriptName ?? basename(request.scriptPath),
      // The scan (level 3) must still read the .ts source the agent asked for, not the compiled copy.
      scanPaths: request.scanPaths ?? [request.scriptPath],
      launcher,
      // These three files only, not the cache folder: it holds every other skill's compiled helpers too.
      readOnlyPaths: [...(request.readOnlyPaths ?? []), compiled.entry, compiled.body, launcher],
    },
  };
}

/** Where compiled helpers are cached: outside every workspace; a run's sandbox binds only its own files, read-only. */
export function tsCacheDir(home: string): string {
  return join(home, "cache", "ts");
}
