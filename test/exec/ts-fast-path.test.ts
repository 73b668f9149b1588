// The tsx fast path: esbuild output cached by content hash, run by node inside the sandbox, traces pointing at the .ts.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runScript } from "../../runtime/exec/index.js";
import { compileTsHelper, withTsFastPath } from "../../runtime/exec/ts-fast-path.js";
import { makeHarness, SMALL_LIMITS } from "./harness.js";

const harness = makeHarness("skillgate-tsfast-");
const cacheDir = join(harness.root, "ts-cache");
afterAll(() => harness.cleanup());
// Real tsx starts a second node process plus esbuild: it needs more than the harness's small limits.
const TSX_LIMITS = { limits: { ...SMALL_LIMITS, memoryBytes: 512 * 1024 * 1024, timeoutMs: 20_000 } };

const HELPER = `interface Point { x: number }
const point: Point = { x: Number(process.argv[2] ?? "0") };
console.log("from", new URL(import.meta.url).pathname.split("/").pop(), point.x * 2);
if (point.x < 0) {
  throw new Error("negative input");
}
`;

describe.sequential("ts fast path", () => {
  it("compiles once and then serves the cached entry", async () => {
    const script = harness.addScript("double.ts", HELPER);
    const first = await compileTsHelper(script, cacheDir);
    const second = await compileTsHelper(script, cacheDir);
    expect(first?.compiled).toBe(true);
    expect(second).toEqual({ entry: first?.entry, body: first?.body, compiled: false });
    expect(readdirSync(cacheDir).sort()).toHaveLength(2);
  });

  it("recompiles when the source changes", async () => {
    const script = harness.addScript("changing.ts", "console.log(1 as number);\n");
    const before = await compileTsHelper(script, cacheDir);
    writeFileSync(script, "console.log(2 as number);\n");
    const after = await compileTsHelper(script, cacheDir);
    expect(after?.compiled).toBe(true);
    expect(after?.entry).not.toBe(before?.entry);
  });

  it("runs with node in the sandbox, keeps import.meta.url and points stack traces at the .ts source", async () => {
    harness.addScript("double.ts", HELPER);
    const ok = await withTsFastPath(await harness.request("double.ts", { args: ["21"] }), cacheDir, {});
    expect(ok.fastPath).toBe(true);
    expect(ok.request.runner).toBe(process.execPath);
    const okResult = await runScript(ok.request);
    expect(okResult.status).toBe("ok");
    expect(okResult.sandboxed).toBe(true);
    expect(okResult.stdout).toBe("from double.ts 42\n");

    const failing = await withTsFastPath(await harness.request("double.ts", { args: ["-1"] }), cacheDir, {});
    const failed = await runScript(failing.request);
    expect(failed.status).toBe("nonzero_exit");
    expect(failed.stderr).toContain(`${join(harness.scriptsDir, "double.ts")}:5`);
    expect(failed.stderr).toContain("Error: negative input");
  });

  it("falls back to real tsx for helpers that import relative modules or packages", async () => {
    mkdirSync(join(harness.scriptsDir, "lib"), { recursive: true });
    writeFileSync(join(harness.scriptsDir, "lib", "util.ts"), "export const three: number = 3;\n");
    const relative = harness.addScript(
      "relative.ts",
      'import { three } from "./lib/util.ts";\nconsole.log(three);\n',
    );
    const pkg = harness.addScript("pkg.ts", 'import { parse } from "yaml";\nconsole.log(parse("a: 1"));\n');
    expect(await compileTsHelper(relative, cacheDir)).toBeNull();
    expect(await compileTsHelper(pkg, cacheDir)).toBeNull();
    const request = await harness.request("relative.ts", TSX_LIMITS);
    const unchanged = await withTsFastPath(request, cacheDir, {});
    expect(unchanged).toEqual({ request, fastPath: false });
    const result = await runScript(request);
    expect(result.stdout).toBe("3\n");
  });

  it("SKILLGATE_EXACT_RUNNER=1 runs real tsx", async () => {
    harness.addScript("double.ts", HELPER);
    const request = await harness.request("double.ts", { args: ["2"], ...TSX_LIMITS });
    const exact = await withTsFastPath(request, cacheDir, { SKILLGATE_EXACT_RUNNER: "1" });
    expect(exact).toEqual({ request, fastPath: false });
    const result = await runScript(exact.request);
    expect(result.stdout).toBe("from double.ts 4\n");
  });

  it("leaves non-tsx runners alone", async () => {
    harness.addScript("plain.mjs", "console.log('plain');\n");
    const request = await harness.request("plain.mjs");
    expect(await withTsFastPath(request, cacheDir, {})).toEqual({ request, fastPath: false });
    rmSync(join(harness.scriptsDir, "plain.mjs"));
  });
});
