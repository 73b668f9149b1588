// First run as README says: `npm start` writes only protocol to stdout; `npm test` finds its tools first; .ci/run runs npm test.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type Fixture, makeFixture, REPO_ROOT } from "../tools/helpers.js";

let fixture: Fixture | undefined;
afterAll(() => fixture?.cleanup());

describe("npm start", () => {
  it("answers initialize with nothing but JSON-RPC lines on stdout (no npm banner)", async () => {
    expect(existsSync(join(REPO_ROOT, "dist", "runtime", "cli", "main.js"))).toBe(true);
    fixture = makeFixture();
    const child = spawn("npm", ["start", "--", "--workspace", fixture.ws, "--config", fixture.configFile], {
      cwd: REPO_ROOT,
      env: fixture.env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const firstLine = new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer from npm start:\n${stderr}`)), 60_000);
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes("\n")) {
          clearTimeout(timer);
          resolve(stdout.split("\n")[0]!);
        }
      });
    });
    child.stdin.write(
      `${JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } },
      })}\n`,
    );
    const line = await firstLine;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.stdin.end();
    await exited;
    expect(JSON.parse(line)).toMatchObject({ jsonrpc: "2.0", id: 1, result: { serverInfo: {} } });
    for (const l of stdout.split("\n").filter((l) => l.length > 0)) expect(() => JSON.parse(l)).not.toThrow();
    expect(stdout).not.toContain("> skillgate@");
    expect(stderr).toContain("Serving MCP over stdio");
  });
});

describe("npm test on a fresh machine", () => {
  it("runs the tool finder first, and .ci/run runs it and then exactly npm test", () => {
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.pretest).toBe("node scripts/test-tools.mjs");
    expect(pkg.scripts.test).toBe("vitest run");
    const ci = readFileSync(join(REPO_ROOT, ".ci", "run"), "utf8");
    expect(ci).toContain("\nnode scripts/test-tools.mjs\n");
    expect(ci).toMatch(/\nnpm test -- --reporter=default /);
    expect(ci).toContain("npm ci --no-audit --no-fund --loglevel=warn\n");
  });

  it("the tool finder is silent and succeeds when bwrap, prlimit and uv are on PATH", () => {
    const result = spawnSync(process.execPath, [join(REPO_ROOT, "scripts", "test-tools.mjs")], {
      encoding: "utf8",
    });
    expect({ status: result.status, stdout: result.stdout, stderr: result.stderr }).toEqual({
      status: 0,
      stdout: "",
      stderr: "",
    });
  });
});
