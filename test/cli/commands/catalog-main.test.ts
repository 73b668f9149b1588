// runCatalogArgv (the small catalog bundle's entry): the argv it runs itself, every argv it leaves to the full CLI, its fd output.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCatalogArgv } from "../../../runtime/cli/commands/catalog-main.js";
import { ensureBuilt } from "../../bench/built.js";
import { TSX } from "../../mcp/helpers.js";
import { runProcess } from "../../support/process.js";
import { type TempRoot, tempRoot } from "../../support/workspace.js";
import { REPO_ROOT } from "../../tools/helpers.js";

/** Runs runCatalogArgv(args, options) of the sources in a process of its own (tsx), then prints "after" to stderr. */
const SCRIPT =
  'const { runCatalogArgv } = await import("./runtime/cli/commands/catalog-main.ts");' +
  "const handled = runCatalogArgv(JSON.parse(process.argv[1]), JSON.parse(process.argv[2]));" +
  'process.stderr.write("after handled=" + handled + "\\n");';
const run = (args: string[], options: object = {}) =>
  runProcess(TSX, ["--input-type=module", "-e", SCRIPT, JSON.stringify(args), JSON.stringify(options)], {
    cwd: REPO_ROOT,
    env: { ...process.env, NO_COLOR: "1" },
    maxBuffer: 1 << 26,
  });

/**
 * The same with the built bundle and plain node: tsx's loader builds process.stdout, whose stream makes a pipe's fd
 * non-blocking, so the fd paths can only be seen without it.
 */
const BUNDLE_SCRIPT =
  "const handled = require(process.argv[1]).runCatalogArgv(JSON.parse(process.argv[2]), JSON.parse(process.argv[3]));" +
  'process.stderr.write("after handled=" + handled + "\\n");';
const bundleArgv = (args: string[], options: object) => [
  "-e",
  BUNDLE_SCRIPT,
  join(REPO_ROOT, "dist", "cli", "catalog.cjs"),
  JSON.stringify(args),
  JSON.stringify(options),
];
const runBundle = (args: string[], options: object = {}) =>
  runProcess(process.execPath, bundleArgv(args, options), {
    cwd: REPO_ROOT,
    env: { ...process.env, NO_COLOR: "1" },
    maxBuffer: 1 << 26,
  });

let temp: TempRoot;
/** 400 skills with long descriptions: its JSON catalog (~500 KB) is several times a pipe's 64 KB. */
let bigRoot: string;
beforeAll(() => {
  ensureBuilt();
  temp = tempRoot("skillgate-catalog-main-");
  bigRoot = temp.path("many");
  for (let i = 0; i < 400; i++) {
    const dir = join(bigRoot, `skill-${String(i).padStart(3, "0")}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "SKILL.md"), `---\nname: skill-${i}\ndescription: ${"x".repeat(900)}\n---\n`);
  }
}, 600_000);
afterAll(() => temp?.cleanup());

describe("runCatalogArgv", () => {
  // None of these prints anything: the full CLI parses them, so its usage errors and help stay the only ones.
  it.each([
    [[]],
    [["--help"]],
    [["-h"]],
    [["a", "b"]],
    [["--json", "--json", "root"]],
    [["--json"]],
    [[""]],
    [["-x"]],
    [["root", "--other"]],
  ])("leaves %j to the full CLI", (args) => {
    expect(runCatalogArgv(args)).toBe(false);
  });

  it("runs `ROOT` and `ROOT --json` (either order) itself, printing the catalog", async () => {
    const json = await run(["--json", "test/fixtures/skills/valid-root"]);
    expect(json.code).toBe(0);
    expect(json.stderr).toBe("after handled=true\n");
    expect(JSON.parse(json.stdout).skills.map((skill: { id: string }) => skill.id)).toEqual([
      "docs/writer",
      "review/static-check",
    ]);
    const text = await run(["test/fixtures/skills/valid-root"]);
    expect(text.stdout.split("\n")[1]).toBe("docs/writer  (name: writer)");
    const missing = await run(["no/such/root"]);
    expect(missing).toMatchObject({ code: 2, stdout: "" });
    expect(missing.stderr).toContain('error [PATH_NOT_FOUND]: skill root "no/such/root" does not exist');
  });

  it("with exitWhenDone (the launcher's), ends the process once all is written, keeping the exit code", async () => {
    const plain = await run([bigRoot, "--json"]);
    expect(await runBundle([bigRoot, "--json"])).toEqual({
      code: 0,
      stdout: plain.stdout,
      stderr: "after handled=true\n",
    });
    expect(await runBundle([bigRoot, "--json"], { exitWhenDone: true })).toEqual({
      code: 0,
      stdout: plain.stdout,
      stderr: "",
    });
    expect(JSON.parse(plain.stdout).skills).toHaveLength(400);
    expect(await runBundle([bigRoot], { exitWhenDone: true })).toEqual({
      code: 0,
      stdout: (await run([bigRoot])).stdout,
      stderr: "",
    });
    expect(await runBundle(["no/such/root"], { exitWhenDone: true })).toEqual({
      code: 2,
      stdout: "",
      stderr:
        'error [PATH_NOT_FOUND]: skill root "no/such/root" does not exist; pass the folder that holds the skill folders\n',
    });
  });

  it("a non-blocking stdout that fills up (EAGAIN): the rest drains through the stream, output complete", async () => {
    // The parent makes the pipe non-blocking and reads none of it until the child has said, on stderr, that
    // runCatalogArgv returned (or the child ended), so the child's writeSync meets a full pipe and EAGAIN whatever the
    // machine's load. (Reading as soon as the pipe was full let a child preempted between two writes find a reader
    // draining it: no EAGAIN, and the test failed in CI.)
    const parent = [
      "import os, subprocess, sys",
      "r, w = os.pipe()",
      "os.set_blocking(w, False)",
      "child = subprocess.Popen(sys.argv[1:], stdout=w, stderr=subprocess.PIPE)",
      "os.close(w)",
      "first = child.stderr.readline()",
      "chunks = []",
      "while True:",
      "    chunk = os.read(r, 65536)",
      "    if not chunk: break",
      "    chunks.append(chunk)",
      "sys.stdout.buffer.write(b''.join(chunks))",
      "sys.stderr.buffer.write(first + child.stderr.read())",
      "sys.exit(child.wait())",
    ].join("\n");
    const viaPython = await runProcess(
      "python3",
      ["-c", parent, process.execPath, ...bundleArgv([bigRoot, "--json"], { exitWhenDone: true })],
      { cwd: REPO_ROOT, env: { ...process.env, NO_COLOR: "1" }, maxBuffer: 1 << 26 },
    );
    const plain = await run([bigRoot, "--json"]);
    expect(viaPython.code).toBe(0);
    expect(viaPython.stdout.length).toBeGreaterThan(4 * 65536);
    expect(viaPython.stdout).toBe(plain.stdout);
    // The stream took over, so the process was not ended at once: the script's own line came after.
    expect(viaPython.stderr).toBe("after handled=true\n");
  });

  it("a reader that leaves (EPIPE) ends the process quietly with status 0", async () => {
    const command = `"${process.execPath}" ${bundleArgv([bigRoot, "--json"], { exitWhenDone: true })
      .map((arg) => `'${arg.replace(/'/g, "'\\''")}'`)
      .join(" ")} | head -c 20; echo; echo "status=\${PIPESTATUS[0]}"`;
    const piped = await runProcess("bash", ["-c", command], {
      cwd: REPO_ROOT,
      env: { ...process.env, NO_COLOR: "1" },
    });
    expect(piped).toEqual({ code: 0, stdout: '{\n  "ok": true,\n  "r\nstatus=0\n', stderr: "" });
  });

  it("a JSON catalog from the built launcher loads neither node:net nor node:tty (only text mode asks for a TTY)", async () => {
    // The launcher's own process, with a preload that only lists Node's built-ins at exit (process.exit runs it too).
    const preload = temp.path("list-builtins.cjs");
    writeFileSync(
      preload,
      // The list is taken before writing; fd 2 via writeSync, as process.stderr on a pipe would load net itself.
      'process.on("exit", () => { const seen = process.moduleLoadList.filter((m) => /^NativeModule (net|tty)$/.test(m)); require("node:fs").writeSync(2, JSON.stringify(seen)); });\n',
    );
    const launch = (args: string[], noColor: string) =>
      runProcess(
        process.execPath,
        ["--require", preload, join(REPO_ROOT, "dist", "runtime", "cli", "main.js"), "catalog", ...args],
        { cwd: REPO_ROOT, env: { ...process.env, NO_COLOR: noColor }, maxBuffer: 1 << 26 },
      );
    const listed = await launch([bigRoot, "--json"], "1");
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout).skills).toHaveLength(400);
    expect(listed.stderr).toBe("[]");
    // The probe sees them when they load: text mode with colour allowed asks node:tty whether stdout is a terminal.
    const text = await launch([bigRoot], "");
    expect(text.code).toBe(0);
    expect(text.stdout.startsWith("400 skill(s) in ")).toBe(true);
    expect(JSON.parse(text.stderr)).toEqual(["NativeModule net", "NativeModule tty"]);
  });
});
