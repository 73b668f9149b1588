// Build step: bundles the CLI into dist/cli/skillgate.cjs and makes dist/runtime/cli/main.js a launcher that runs it from a V8 code cache.
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..");
const outDir = join(repo, "dist", "cli");
const bundleFile = join(outDir, "skillgate.cjs");
const catalogBundleFile = join(outDir, "catalog.cjs");

/**
 * Each source file's `import.meta.url` becomes the URL of its tsc-compiled twin in dist/, so every lookup
 * relative to a module (default.yaml, rules.yaml, the standalone validator, node_modules/.bin, package.json)
 * resolves exactly as in the unbundled build.
 */
const importMetaPlugin = {
  name: "skillgate-import-meta",
  setup(context) {
    context.onLoad({ filter: /\.ts$/ }, (args) => {
      const source = readFileSync(args.path, "utf8");
      const rel = relative(repo, args.path).split(sep).join("/");
      if (rel.startsWith("..") || !/import\.meta|import\(["']/.test(source)) return undefined;
      const twin = JSON.stringify(rel.replace(/\.ts$/, ".js"));
      // Only the expression, not the text inside strings (ts-fast-path writes "import.meta.url" as a key).
      const contents = source
        .replace(/(?<!["'])import\.meta\.url(?!["'])/g, `__skillgateModuleUrl(${twin})`)
        // import() of an external package goes through the launcher, a real ES module: a vm.Script's own
        // import() needs an experimental loader option on Node 20.
        .replace(/\bimport\((["'])((?:tsx|esbuild|bun)(?:\/[^"']*)?)\1\)/g, "__skillgateImport($1$2$1)");
      return { contents, loader: "ts" };
    });
  },
};

// Defines what the plugin's rewrites call, in both bundles.
const moduleUrlBanner = [
  'var __skillgateRoot = require("node:path").join(__dirname, "..", "..");',
  'var __skillgateModuleUrl = (rel) => require("node:url").pathToFileURL(require("node:path").join(__skillgateRoot, "dist", rel)).href;',
];

/**
 * Modules whose only effect is defining values: when none of their exports is used statically, esbuild drops the
 * import (the config schema is then built on its first dynamic import, i.e. only when the config memo misses).
 */
const PURE_MODULES = new Set([join(repo, "runtime", "config", "schema.ts")]);
const pureModulesPlugin = {
  name: "skillgate-pure-modules",
  setup(context) {
    context.onResolve({ filter: /^\.\.?\// }, async (args) => {
      if (args.pluginData?.pure) return undefined;
      const resolved = await context.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: { pure: true },
      });
      if (resolved.errors.length > 0 || !PURE_MODULES.has(resolved.path)) return undefined;
      return { path: resolved.path, sideEffects: false };
    });
  },
};

/**
 * Routes imports of `builtins` (bare or `node:`) into `namespace`, where the plugin's onLoad builds a stand-in
 * module; the stand-in's own `require` of the real built-in resolves as an external.
 */
function routeBuiltins(context, builtins, namespace) {
  const filter = new RegExp(`^(node:)?(${builtins.join("|")})$`);
  context.onResolve({ filter }, (args) =>
    args.namespace === namespace
      ? { path: args.path, external: true }
      : { path: args.path.replace(/^node:/, ""), namespace },
  );
}

/**
 * Node built-ins that a start often does not use (child_process alone pulls in net, dgram and the stream stack,
 * ~6 ms; worker_threads ~5 ms; tty pulls in net and the stream stack, which cli/io.ts avoids for output) are loaded on first property access instead of when the importing module
 * initialises: the bundle sees an object of getters (a forwarding function for a callable module such as
 * assert) over the real module. Calls read the property at call time, so behaviour is the same.
 */
const LAZY_BUILTINS = ["assert", "child_process", "perf_hooks", "readline", "tty", "worker_threads"];
const lazyBuiltinsPlugin = {
  name: "skillgate-lazy-builtins",
  setup(context) {
    routeBuiltins(context, LAZY_BUILTINS, "lazy-builtin");
    context.onLoad({ filter: /.*/, namespace: "lazy-builtin" }, async (args) => {
      const real = (await import(`node:${args.path}`)).default;
      const names = Object.keys(real).filter((name) => name !== "default");
      const getters = names.map(
        (name) => `${JSON.stringify(name)}: { get: () => load()[${JSON.stringify(name)}], enumerable: true }`,
      );
      const target = typeof real === "function" ? "function (...args) { return load()(...args); }" : "{}";
      return {
        contents: [
          `let loaded;`,
          `const load = () => (loaded ??= require(${JSON.stringify(`node:${args.path}`)}));`,
          `module.exports = Object.defineProperties(${target}, { ${getters.join(", ")} });`,
        ].join("\n"),
        loader: "js",
      };
    });
  },
};

/**
 * The catalog bundle's default imports of node:fs, node:path and node:v8 bind the module itself: esbuild's interop
 * for a default import of CommonJS (\`__toESM\`) copies every property of the module into a new object at each
 * import site (ten times for fs and path); here one module per built-in binds the module and its properties.
 */
const PLAIN_BUILTINS = ["fs", "path", "v8"];
const plainBuiltinsPlugin = {
  name: "skillgate-plain-builtins",
  setup(context) {
    routeBuiltins(context, PLAIN_BUILTINS, "plain-builtin");
    context.onLoad({ filter: /.*/, namespace: "plain-builtin" }, async (args) => {
      const real = (await import(`node:${args.path}`)).default;
      // Named imports read the property once at load; getters (fs.promises loads a module) are left out.
      const names = Object.keys(real).filter(
        (name) => name !== "default" && "value" in (Object.getOwnPropertyDescriptor(real, name) ?? {}),
      );
      return {
        contents: [
          `const m = require(${JSON.stringify(`node:${args.path}`)});`,
          "export default m;",
          `export const { ${names.join(", ")} } = m;`,
        ].join("\n"),
        loader: "js",
      };
    });
  },
};

/**
 * Packages a start often does not use, loaded on first property access like the built-ins above: proper-lockfile
 * (with graceful-fs, which patches fs.close, and signal-exit) is needed only by a process that takes the workspace
 * lock, and a `call` that appends nothing takes none; yaml only when the config memo misses (or a YAML checker runs).
 * The real package is still bundled (a lazy `require` of it).
 */
const LAZY_PACKAGES = ["proper-lockfile", "yaml"];
const lazyPackagesPlugin = {
  name: "skillgate-lazy-packages",
  setup(context) {
    const filter = new RegExp(`^(${LAZY_PACKAGES.join("|")})$`);
    context.onResolve({ filter }, (args) => ({ path: args.path, namespace: "lazy-package" }));
    context.onLoad({ filter: /.*/, namespace: "lazy-package" }, (args) => {
      const entry = createRequire(join(repo, "package.json")).resolve(args.path);
      const names = Object.keys(createRequire(join(repo, "package.json"))(args.path));
      const getters = names.map(
        (name) => `${JSON.stringify(name)}: { get: () => load()[${JSON.stringify(name)}], enumerable: true }`,
      );
      return {
        contents: [
          `let loaded;`,
          `const load = () => (loaded ??= require(${JSON.stringify(entry)}));`,
          `module.exports = Object.defineProperties({}, { ${getters.join(", ")} });`,
        ].join("\n"),
        loader: "js",
        resolveDir: repo,
      };
    });
  },
};

/**
 * zod re-exports every error-message locale (`z.locales`, 300 KB, 15% of the bundle); skillgate and its
 * dependencies use only the English one zod installs itself, so the bundle keeps `locales.en` alone.
 */
const zodEnglishOnlyPlugin = {
  name: "skillgate-zod-english-only",
  setup(context) {
    context.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]v4[\\/]/.test(args.importer)
        ? { path: join(dirname(args.importer), "..", "locales", "index.js"), namespace: "zod-locales" }
        : undefined,
    );
    context.onLoad({ filter: /.*/, namespace: "zod-locales" }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(join(dirname(args.path), "en.js"))};\n`,
      loader: "js",
      resolveDir: dirname(args.path),
    }));
  },
};

/** The build's identity (BUILD_ID in runtime/contracts/build.ts): a digest of every source and the lockfile. */
function sourceDigest() {
  const hash = createHash("sha256");
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : 1,
    )) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) hash.update(`${relative(repo, path)}\0`).update(readFileSync(path));
    }
  };
  walk(join(repo, "runtime"));
  hash.update(readFileSync(join(repo, "package-lock.json")));
  hash.update(readFileSync(fileURLToPath(import.meta.url)));
  return hash.digest("hex").slice(0, 32);
}

// What cannot live in one file: tsx registers loaders by file URL, esbuild and bun ship native binaries.
const EXTERNAL = ["tsx", "tsx/*", "esbuild", "bun"];

/**
 * `call ListSkill` and `call RunSkillScript` get a bundle each that holds only that tool: the full tool list and the
 * tools' barrel (every tool module, their zod schemas, exec for the file tools' neighbours) are replaced by the one tool,
 * so a start initialises, compiles and caches less. Every other module is the same source; the launcher picks the
 * bundle only for a known tool name, so the unknown-tool path (which lists all tools) never runs in one.
 */
const ONE_TOOL_BUNDLES = {
  ListSkill: { file: "list-skill.ts", name: "listSkillTool" },
  RunSkillScript: { file: "run-skill-script.ts", name: "runSkillScriptTool" },
};
const toolsDir = join(repo, "runtime", "tools");
const oneToolPlugin = (tool) => ({
  name: "skillgate-one-tool",
  setup(context) {
    const { file, name } = ONE_TOOL_BUNDLES[tool];
    context.onResolve({ filter: /^\.\/all-tools\.js$/ }, (args) =>
      args.importer === join(toolsDir, "registry.ts")
        ? { path: tool, namespace: "one-tool-list" }
        : undefined,
    );
    context.onResolve({ filter: /^\.\.\/\.\.\/tools\/index\.js$/ }, (args) =>
      args.importer === join(repo, "runtime", "cli", "commands", "call.ts")
        ? { path: tool, namespace: "one-tool-barrel" }
        : undefined,
    );
    // Only `call` runs from this bundle (the launcher picks it for `call <Tool>`, and commandsFor loads the named verb
    // alone), so the other verbs (the MCP server and HTTP stack behind `serve`, scan, export...) are left out.
    context.onResolve({ filter: /^\.\/[a-z-]+\.js$/ }, (args) =>
      args.importer === join(repo, "runtime", "cli", "commands", "index.ts") && args.path !== "./call.js"
        ? { path: args.path, namespace: "one-tool-absent-verb" }
        : undefined,
    );
    context.onLoad({ filter: /.*/, namespace: "one-tool-absent-verb" }, (args) => ({
      contents: `export function register() { throw new Error(${JSON.stringify(`verb module ${args.path} is not in the one-tool bundle of ${tool} (scripts/bundle-cli.mjs)`)}); }\n`,
      loader: "js",
    }));
    context.onLoad({ filter: /.*/, namespace: "one-tool-list" }, () => ({
      contents: `import { ${name} } from ${JSON.stringify(join(toolsDir, file))};\nexport const ALL_TOOLS = [${name}];\n`,
      loader: "ts",
      resolveDir: toolsDir,
    }));
    // What call.ts takes from the barrel, from the modules that define it.
    context.onLoad({ filter: /.*/, namespace: "one-tool-barrel" }, () => ({
      contents: [
        `export { openSession } from ${JSON.stringify(join(toolsDir, "session.ts"))};`,
        `export { callTool } from ${JSON.stringify(join(toolsDir, "registry.ts"))};`,
      ].join("\n"),
      loader: "ts",
      resolveDir: toolsDir,
    }));
  },
});

const buildId = sourceDigest();

/** One CLI bundle as the launcher runs it: a function expression over the CommonJS module's arguments. */
async function bundleCli(outfile, extraPlugins) {
  const result = await build({
    entryPoints: [join(repo, "runtime", "cli", "main.ts")],
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    outfile,
    external: EXTERNAL,
    plugins: [
      importMetaPlugin,
      pureModulesPlugin,
      lazyBuiltinsPlugin,
      lazyPackagesPlugin,
      zodEnglishOnlyPlugin,
      ...extraPlugins,
    ],
    define: { __SKILLGATE_BUILD__: JSON.stringify(buildId) },
    banner: {
      js: [
        "/* skillgate CLI bundle (scripts/bundle-cli.mjs): run by dist/runtime/cli/main.js */",
        ...moduleUrlBanner,
      ].join("\n"),
    },
    legalComments: "none",
    // No comments or indentation: a third of the text to read and hash at every start. Names are kept (stack traces).
    minifyWhitespace: true,
    charset: "ascii",
    logLevel: "warning",
    write: false,
  });
  const stray = result.warnings.filter((warning) => warning.id === "empty-import-meta");
  if (stray.length > 0) {
    throw new Error(
      `import.meta left in the bundle: ${stray.map((w) => w.location?.file).join(", ")}; rewrite it in the plugin`,
    );
  }
  // Stored as one function expression (no hashbang), so the launcher compiles the file's text as it is.
  const body = (result.outputFiles.find((file) => file.path === outfile)?.text ?? "").replace(/^#!.*\n/, "");
  if (body === "") throw new Error(`esbuild produced no ${outfile}`);
  const wrapped = `(function (exports, require, module, __filename, __dirname, __skillgateImport) {${body}\n})`;
  // The launcher reads the bundle as latin1 (a copy, not a UTF-8 decode): that is only right for pure ASCII.
  const nonAscii = /[^\x00-\x7f]/.exec(wrapped);
  if (nonAscii)
    throw new Error(
      `non-ASCII character in ${outfile} at offset ${nonAscii.index}; the launcher reads it as latin1`,
    );
  return wrapped;
}

const wrapped = await bundleCli(bundleFile, []);
const oneTool = {};
for (const tool of Object.keys(ONE_TOOL_BUNDLES)) {
  const file = join(outDir, `call-${tool}.cjs`);
  const text = await bundleCli(file, [oneToolPlugin(tool)]);
  oneTool[tool] = { file, text, id: createHash("sha256").update(text).digest("hex").slice(0, 16) };
}
mkdirSync(outDir, { recursive: true });
// `catalog ROOT [--json]` gets a small bundle of its own (no commander, config or tools): a cold scan is mostly
// start-up, and loading the full bundle cost about a third of its CPU (docs/performance.md). It is plain CommonJS.
const catalogResult = await build({
  entryPoints: [join(repo, "runtime", "cli", "commands", "catalog-main.ts")],
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  outfile: catalogBundleFile,
  // Lazy built-ins: cli/io.ts imports node:tty, which pulls in net (~2 ms of a cold catalog) that a JSON catalog never uses.
  plugins: [importMetaPlugin, lazyBuiltinsPlugin, plainBuiltinsPlugin],
  banner: {
    js: [
      "/* skillgate catalog bundle (scripts/bundle-cli.mjs): run by dist/runtime/cli/main.js */",
      ...moduleUrlBanner,
    ].join("\n"),
  },
  legalComments: "none",
  minifyWhitespace: true,
  charset: "ascii",
  logLevel: "warning",
  write: false,
});
const catalogBody = catalogResult.outputFiles.find((file) => file.path === catalogBundleFile)?.text ?? "";
if (catalogBody === "") throw new Error(`esbuild produced no ${catalogBundleFile}`);
const catalogId = createHash("sha256").update(catalogBody).digest("hex").slice(0, 16);
writeFileSync(`${catalogBundleFile}.${process.pid}.tmp`, catalogBody);
renameSync(`${catalogBundleFile}.${process.pid}.tmp`, catalogBundleFile);
// Written to a temp file and renamed, so a CLI starting during a build never reads half a bundle.
for (const { file, text } of Object.values(oneTool)) {
  writeFileSync(`${file}.${process.pid}.tmp`, text);
  renameSync(`${file}.${process.pid}.tmp`, file);
}
writeFileSync(`${bundleFile}.${process.pid}.tmp`, wrapped);
renameSync(`${bundleFile}.${process.pid}.tmp`, bundleFile);
// The code caches are keyed by the bundle's content: V8 checks only its own version and the source length.
const bundleId = createHash("sha256").update(wrapped).digest("hex").slice(0, 16);
for (const name of readdirSync(outDir)) if (name.endsWith(".cache")) rmSync(join(outDir, name));

// Verb names for the per-verb caches (anything else shares one "other" cache, so typos write no new files).
const verbs = [
  ...readFileSync(join(repo, "runtime", "cli", "commands", "index.ts"), "utf8").matchAll(
    /\["([a-z]+)", \(\) => import\(/g,
  ),
].map((match) => match[1]);
if (verbs.length === 0) throw new Error("no verbs found in runtime/cli/commands/index.ts");
// The depth a catalog scans to, for the native walk the launcher starts (it must match, or the scan walks again).
const { DEFAULT_MAX_DEPTH } = await import(
  pathToFileURL(join(repo, "dist", "runtime", "skills", "tree-files.js")).href
);
if (!Number.isInteger(DEFAULT_MAX_DEPTH))
  throw new Error("no DEFAULT_MAX_DEPTH in dist/runtime/skills/tree-files.js");
// `call` gets one cache per tool: ListSkill and RunSkillScript compile different functions.
const { TOOL_NAMES: tools } = await import(
  pathToFileURL(join(repo, "dist", "runtime", "contracts", "tool.js")).href
);
if (!Array.isArray(tools) || tools.length === 0)
  throw new Error("no tool names in dist/runtime/contracts/tool.js");

// CommonJS, so a start pays for no ES module loader (nor the ES facades of node:fs & co., ~8 ms a start); the
// package is "type": "module", hence dist/runtime/cli/package.json below. Only main.js is left in that folder:
// tsc's other outputs there are ES modules nothing loads (the bundle holds the CLI) and would not parse as CommonJS.
const launcher = `#!/usr/bin/env node
// The skillgate command (written by scripts/bundle-cli.mjs): runs the one-file bundle from a V8 code cache.
"use strict";
const { closeSync, openSync, readFileSync, renameSync, writeSync } = require("node:fs");
const { createRequire } = require("node:module");
const { dirname, join, resolve } = require("node:path");
const vm = require("node:vm");

// \`catalog ROOT [--json]\` runs from its own small bundle; any other form of the verb goes to the full CLI.
if (process.argv[2] === "catalog") startTreePrefetch(process.argv.slice(3));
if (process.argv[2] === "catalog" && runCached(join(__dirname, "..", "..", "cli", "catalog.cjs"), "${catalogId}", "catalog", true).runCatalogArgv(process.argv.slice(3), { exitWhenDone: true })) return;
// One cache per verb: each holds the functions its verb compiled (V8 cannot merge caches).
const known = ${JSON.stringify(verbs)}.includes(process.argv[2]) ? process.argv[2] : "other";
const verb = known === "call" && ${JSON.stringify(tools)}.includes(process.argv[3]) ? \`call.\${process.argv[3]}\` : known;
// \`call ListSkill\` / \`call RunSkillScript\` run from a bundle holding only that tool (scripts/bundle-cli.mjs).
const oneTool = ${JSON.stringify(Object.fromEntries(Object.entries(oneTool).map(([tool, { id }]) => [tool, id])))};
const own = known === "call" && Object.hasOwn(oneTool, process.argv[3]) ? process.argv[3] : null;
const bundle = join(__dirname, "..", "..", "cli", own === null ? "skillgate.cjs" : \`call-\${own}.cjs\`);
const bundleId = own === null ? "${bundleId}" : oneTool[own];
runCached(bundle, bundleId, verb, false);

/**
 * Starts the native walk of a catalog's root (dist/native/tree-prefetch.node, when built) on a thread of its own, so
 * listing the tree overlaps loading the catalog bundle; the scan of that root takes it (runtime/skills/tree-prefetch.ts).
 */
function startTreePrefetch(args) {
  const roots = args.filter((arg) => arg !== "--json");
  if (roots.length !== 1 || roots[0] === "" || roots[0].startsWith("-") || process.env.SKILLGATE_NATIVE === "0") return;
  try {
    const addon = { exports: {} };
    process.dlopen(addon, join(__dirname, "..", "..", "native", "tree-prefetch.node"));
    addon.exports.start(resolve(roots[0]), ${DEFAULT_MAX_DEPTH});
  } catch {
    // not built: the scan lists the tree itself
  }
}

/**
 * Runs a bundle from a V8 code cache next to it (keyed by the bundle's content, Node and verb) and returns its
 * exports. \`catalog\`: catalog.cjs is plain CommonJS (tests require it), so it is wrapped here; its process runs
 * without TurboFan (catalog-run.ts), set before the compile because V8 rejects a cache made under other flags (the
 * cache is written at exit, after the run). The cache spares compiling it: 0.97x a cold catalog's instructions.
 */
function runCached(bundle, bundleId, verb, catalog) {
  if (catalog) require("node:v8").setFlagsFromString("--no-opt");
  const cacheFile = join(__dirname, "..", "..", "cli", \`skillgate.\${bundleId}.\${process.version}.\${process.arch}.\${verb}.cache\`);
  let cached;
  try {
    cached = readFileSync(cacheFile);
  } catch {
    cached = undefined;
  }
  // latin1: the build checked the bundle is ASCII, and a latin1 read is a copy where UTF-8 decoding is a scan.
  const text = readFileSync(bundle, "latin1");
  const source = catalog ? \`(function (exports, require, module, __filename, __dirname) {\${text}\\n})\` : text;
  const script = new vm.Script(source, {
    filename: bundle,
    cachedData: cached,
    // Only a safety net: the build routes import() of externals through __skillgateImport below.
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  if (cached === undefined || script.cachedDataRejected) {
    // Written once the verb has run, so the cache holds the functions it compiled; a read-only install runs without.
    // Only by a run that succeeded: a first call that failed early (a typo, a refused run) would leave a cache
    // without the verb's usual path, never replaced since V8 accepts it (call RunSkillScript ran ~5% slower so).
    process.once("exit", (code) => {
      if (code !== 0) return;
      try {
        const data = script.createCachedData();
        const temp = \`\${cacheFile}.\${process.pid}.tmp\`;
        const fd = openSync(temp, "wx", 0o644);
        writeSync(fd, data);
        closeSync(fd);
        renameSync(temp, cacheFile);
      } catch {
        // no cache this time
      }
    });
  }
  const bundleModule = { exports: {} };
  script.runInThisContext()(bundleModule.exports, createRequire(bundle), bundleModule, bundle, dirname(bundle), (specifier) =>
    import(specifier),
  );
  return bundleModule.exports;
}
`;
const cliDir = join(repo, "dist", "runtime", "cli");
for (const name of readdirSync(cliDir)) rmSync(join(cliDir, name), { recursive: true, force: true });
writeFileSync(join(cliDir, "package.json"), `${JSON.stringify({ type: "commonjs" })}\n`);
const mainFile = join(cliDir, "main.js");
writeFileSync(`${mainFile}.tmp`, launcher, { mode: 0o755 });
renameSync(`${mainFile}.tmp`, mainFile);
