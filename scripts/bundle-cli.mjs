// Build step: bundles the CLI into dist/cli/skillgate.cjs and makes dist/runtime/cli/main.js a launcher that runs it from a V8 code cache.
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..");
const outDir = join(repo, "dist", "cli");
const bundleFile = join(outDir, "skillgate.cjs");

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

// What cannot live in one file: tsx registers loaders by file URL, esbuild and bun ship native binaries.
const EXTERNAL = ["tsx", "tsx/*", "esbuild", "bun"];

const result = await build({
  entryPoints: [join(repo, "runtime", "cli", "main.ts")],
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  outfile: bundleFile,
  external: EXTERNAL,
  plugins: [importMetaPlugin],
  banner: {
    js: [
      "/* skillgate CLI bundle (scripts/bundle-cli.mjs): run by dist/runtime/cli/main.js */",
      'var __skillgateRoot = require("node:path").join(__dirname, "..", "..");',
      'var __skillgateModuleUrl = (rel) => require("node:url").pathToFileURL(require("node:path").join(__skillgateRoot, "dist", rel)).href;',
    ].join("\n"),
  },
  legalComments: "none",
  logLevel: "warning",
  write: false,
});
const stray = result.warnings.filter((warning) => warning.id === "empty-import-meta");
if (stray.length > 0) {
  throw new Error(
    `import.meta left in the bundle: ${stray.map((w) => w.location?.file).join(", ")}; rewrite it in the plugin`,
  );
}

// Stored as one function expression (no hashbang), so the launcher compiles the file's text as it is; written
// to a temp file and renamed, so a CLI starting during a build never reads half a bundle.
const body = (result.outputFiles.find((file) => file.path === bundleFile)?.text ?? "").replace(/^#!.*\n/, "");
if (body === "") throw new Error(`esbuild produced no ${bundleFile}`);
const wrapped = `(function (exports, require, module, __filename, __dirname, __skillgateImport) {${body}\n})`;
mkdirSync(outDir, { recursive: true });
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

const launcher = `#!/usr/bin/env node
// The skillgate command (written by scripts/bundle-cli.mjs): runs the one-file bundle from a V8 code cache.
import { openSync, readFileSync, renameSync, writeSync, closeSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";

const here = dirname(fileURLToPath(import.meta.url));
const bundle = join(here, "..", "..", "cli", "skillgate.cjs");
// One cache per verb: each holds the functions its verb compiled (V8 cannot merge caches).
const verb = ${JSON.stringify(verbs)}.includes(process.argv[2]) ? process.argv[2] : "other";
const cacheFile = join(here, "..", "..", "cli", \`skillgate.${bundleId}.\${process.version}.\${process.arch}.\${verb}.cache\`);
let cached;
try {
  cached = readFileSync(cacheFile);
} catch {
  cached = undefined;
}
const source = readFileSync(bundle, "utf8");
const script = new vm.Script(source, {
  filename: bundle,
  cachedData: cached,
  // Only a safety net: the build routes import() of externals through __skillgateImport below.
  importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
});
if (cached === undefined || script.cachedDataRejected) {
  // Written once the verb has run, so the cache holds the functions it compiled; a read-only install runs without.
  process.once("exit", () => {
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
const module = { exports: {} };
script.runInThisContext()(module.exports, createRequire(bundle), module, bundle, dirname(bundle), (specifier) =>
  import(specifier),
);
`;
const mainFile = join(repo, "dist", "runtime", "cli", "main.js");
writeFileSync(`${mainFile}.tmp`, launcher, { mode: 0o755 });
renameSync(`${mainFile}.tmp`, mainFile);
rmSync(`${mainFile}.map`, { force: true });
