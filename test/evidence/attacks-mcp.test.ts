// Issue 12's attack table through the real MCP SDK client over stdio to a real `skillgate serve` process.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  copyFileSync,
  cpSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterEach, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { workspacePaths } from "../../runtime/contracts/index.js";
import { evidenceLocations } from "../../runtime/evidence/index.js";
import { callTool } from "../../runtime/tools/registry.js";
import { type CallOutcome, call, connectStdio, MAIN, type StdioConnection, TSX } from "../mcp/helpers.js";
import { type Fixture, GATE_SKILL, GATE_SKILL_MD, REPO_ROOT, tamper } from "../tools/helpers.js";
import {
  attackFixture,
  cleanupAttack,
  completeStage0,
  fillDisk,
  HOOK,
  HOOK_NOT_LOADED,
  SWAP_LOOP,
  swapsStarted,
  tmpfs,
  USAGE,
} from "./attack-fixture.js";
import { skillgate } from "./cli.js";

let swapper: ChildProcess | undefined;
const servers: StdioConnection[] = [];
afterEach(async () => {
  swapper?.kill("SIGKILL");
  swapper = undefined;
  for (const s of servers.splice(0)) await s.close();
  cleanupAttack();
});

/** Starts `skillgate serve` over stdio on the workspace as a user's MCP client would, and connects to it. */
async function serve(f: Fixture, env = f.env, ws = f.ws): Promise<StdioConnection> {
  const connection = await connectStdio(["--workspace", ws, "--config", f.configFile], env);
  servers.push(connection);
  return connection;
}

/** Stops a serve process (the user closes the MCP client) before starting it again. */
async function stop(connection: StdioConnection): Promise<void> {
  servers.splice(servers.indexOf(connection), 1);
  await connection.close();
}

/**
 * Starts `skillgate serve` where it must refuse to open the workspace: the MCP client's connect fails and the
 * process's stderr (what the user's MCP host logs) is returned.
 */
async function serveRefused(f: Fixture, env = f.env, ws = f.ws): Promise<string> {
  const transport = new StdioClientTransport({
    command: TSX,
    args: [MAIN, "serve", "--workspace", ws, "--config", f.configFile],
    env: env as Record<string, string>,
    cwd: REPO_ROOT,
    stderr: "pipe",
  });
  let log = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    log += chunk.toString();
  });
  const client = new Client({ name: "skillgate-test", version: "0.0.0" });
  await expect(client.connect(transport)).rejects.toThrow("Connection closed");
  return log;
}

function expectRefused(r: CallOutcome, code: string, ...texts: string[]): void {
  expect(r.structured).toMatchObject({ error: { code } });
  expect(r.isError).toBe(true);
  for (const t of texts) expect(r.text).toContain(t);
}

describe("attacks through the MCP SDK client over stdio to `skillgate serve`", () => {
  it("config edit (force_use_skill: false), server restarted: WORKFLOW_CHANGED on Complete and SetSkillUsage", async () => {
    const f = await attackFixture();
    const first = await serve(f);
    expect((await call(first.client, "ListSkill", {})).isError).toBe(false);
    const config = parse(readFileSync(f.configFile, "utf8"));
    config.stage[0].force_use_skill = false;
    writeFileSync(f.configFile, stringify(config));
    // The running server keeps the workflow it started with: the gate still holds.
    expectRefused(await call(first.client, "Complete", {}), "SKILL_USAGE_INCOMPLETE");
    await stop(first);
    const { client } = await serve(f);
    const complete = await call(client, "Complete", {});
    expectRefused(
      complete,
      "WORKFLOW_CHANGED",
      "stage 0 'report': force_use_skill true -> false",
      "run `skillgate init .`",
    );
    expect(complete.text).not.toContain(f.ws);
    expectRefused(await call(client, "SetSkillUsage", USAGE), "WORKFLOW_CHANGED");
  });

  it("a script edited with its manifest entry while serving: SCRIPT_MODIFIED on RunSkillScript, PACK_CHANGED on Check", async () => {
    const f = await attackFixture();
    const { client } = await serve(f);
    expect((await call(client, "ListSkill", {})).isError).toBe(false);
    const paths = workspacePaths(f.ws);
    tamper(join(paths.skillsDir, GATE_SKILL, "scripts", "make_report.py"), "print('forged')\n");
    const manifest = JSON.parse(readFileSync(paths.manifest, "utf8"));
    manifest.files[`${GATE_SKILL}/scripts/make_report.py`].sha256 = createHash("sha256")
      .update("print('forged')\n")
      .digest("hex");
    writeFileSync(paths.manifest, JSON.stringify(manifest));
    const ran = await call(client, "RunSkillScript", { commands: [[GATE_SKILL, "make_report.py", ""]] });
    expectRefused(ran, "SCRIPT_MODIFIED", "was modified after init");
    expect(ran.text).not.toContain("forged");
    expectRefused(await call(client, "Check", {}), "PACK_CHANGED");
  });

  it("hooks.ts edited, server restarted: not loaded, named in the Check result; its code never runs", async () => {
    const f = await attackFixture();
    const first = await serve(f);
    // The control: the untouched hook loads through the same surface.
    expect((await call(first.client, "Check", {})).text).toContain("GOOD HOOK HINT");
    const marker = join(f.dir, "hook-ran");
    const hooks = join(workspacePaths(f.ws).skillsDir, GATE_SKILL, "hooks.ts");
    tamper(
      hooks,
      `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "ran");\n${HOOK}`,
    );
    // The running server keeps the hook it verified at start; the edited file is not imported.
    expect((await call(first.client, "Check", {})).text).toContain("GOOD HOOK HINT");
    await stop(first);
    const { client } = await serve(f);
    const check = await call(client, "Check", {});
    expect(check.text).toMatch(HOOK_NOT_LOADED);
    expect(check.text).not.toContain("GOOD HOOK HINT");
    expect(() => readFileSync(marker)).toThrow();
  });

  it("SKILL.md shrunk to its frontmatter while serving: reading it is not read evidence", async () => {
    const f = await attackFixture();
    const { client } = await serve(f);
    const file = join(f.ws, GATE_SKILL_MD);
    tamper(file, `${readFileSync(file, "utf8").split("\n---")[0]}\n---\n`);
    const read = await call(client, "ReadTextFile", { path: GATE_SKILL_MD });
    expect(read.structured.skill_read).toMatchObject({ read_complete: false });
    expect(read.text).toContain("differs from the copy init recorded");
    expectRefused(
      await call(client, "SetSkillUsage", USAGE),
      "SKILL_USAGE_REJECTED",
      `skill_usage['${GATE_SKILL}'].read is true but ${GATE_SKILL_MD} was not read in full`,
    );
  });

  it("replay of a saved ledger after a fresh init, server restarted: LEDGER_REPLAY", async () => {
    const f = await attackFixture();
    await completeStage0(await f.open());
    const first = await serve(f);
    expect((await call(first.client, "Status", {})).text).toContain("Progress: 1/2 stages completed");
    await stop(first);
    const paths = workspacePaths(f.ws);
    const saved = join(f.dir, "saved");
    cpSync(paths.skillgateDir, saved, { recursive: true });
    chmodSync(join(f.ws, ".ucagent"), 0o755);
    rmSync(f.ws, { recursive: true, force: true });
    expect((await skillgate(["init", f.ws, "--config", f.configFile], f.env)).exit).toBe(0);
    copyFileSync(join(saved, "ledger.jsonl"), paths.ledger);
    copyFileSync(join(saved, "progress.json"), paths.progress);
    const refused = await serveRefused(f);
    expect(refused).toContain("error [LEDGER_REPLAY]: ");
    expect(refused).toContain("comes from an earlier init of this workspace");
    expect(refused).toContain("refused as a replay");
  });

  it("HOME change, server restarted: LEDGER_KEY_MISMATCH naming the home; the right home shows the progress again", async () => {
    const f = await attackFixture();
    await completeStage0(await f.open());
    const refused = await serveRefused(f, { ...f.env, SKILLGATE_HOME: join(f.dir, "other-home") });
    expect(refused).toContain("error [LEDGER_KEY_MISMATCH]: ");
    expect(refused).toContain(`Set SKILLGATE_HOME to the home that created it (${f.home}) and retry.`);
    const { client } = await serve(f);
    expect((await call(client, "Status", {})).text).toContain("Progress: 1/2 stages completed");
  });

  it("workspace moved, server restarted: LEDGER_KEY_MISMATCH without --adopt; `skillgate init --adopt` keeps the progress", async () => {
    const f = await attackFixture();
    await completeStage0(await f.open());
    const moved = join(f.dir, "moved");
    renameSync(f.ws, moved);
    const refused = await serveRefused(f, f.env, moved);
    expect(refused).toContain("error [LEDGER_KEY_MISMATCH]: ");
    expect(refused).toContain("the workspace was moved or copied");
    // The operator's log names the path (the CLI tool result says `init .`, relative to the workspace).
    expect(refused).toContain(`run \`skillgate init ${moved} --adopt\``);
    const adopt = await skillgate(["init", moved, "--adopt", "--config", f.configFile], f.env);
    expect(adopt.exit).toBe(0);
    const { client } = await serve(f, f.env, moved);
    const status = await call(client, "Status", {});
    expect(status.isError).toBe(false);
    expect(status.text).toContain("Progress: 1/2 stages completed");
  });

  it("rollback to an older ledger copy while serving: LEDGER_ROLLBACK", async () => {
    const f = await attackFixture();
    const session = await f.open();
    const paths = workspacePaths(f.ws);
    expect((await callTool(session, "ListSkill", {})).isError).toBe(false);
    copyFileSync(paths.ledger, join(f.dir, "early.ledger"));
    copyFileSync(paths.progress, join(f.dir, "early.progress"));
    await completeStage0(session);
    const { client } = await serve(f);
    expect((await call(client, "Status", {})).text).toContain("Progress: 1/2 stages completed");
    // The agent puts the older copy back while the server runs.
    copyFileSync(join(f.dir, "early.ledger"), paths.ledger);
    copyFileSync(join(f.dir, "early.progress"), paths.progress);
    const headFile = evidenceLocations(paths, f.home).headFile;
    expectRefused(
      await call(client, "Status", {}),
      "LEDGER_ROLLBACK",
      "an older copy of ledger.jsonl/progress.json was put back",
      `delete ${headFile}`,
    );
    for (const tool of ["Complete", "ListSkill"])
      expectRefused(await call(client, tool, {}), "LEDGER_ROLLBACK");
  });

  it("disk full (a 256 KiB tmpfs state folder) while serving: DISK_FULL, the ledger stays valid", async () => {
    const f = await attackFixture();
    const state = join(f.ws, ".ucagent", "skillgate");
    tmpfs(state, "size=256k");
    await f.open();
    const { client } = await serve(f);
    expect((await call(client, "ListSkill", {})).isError).toBe(false);
    fillDisk(state);
    // The ledger's last page may still have room: Check over MCP until an append fails.
    let full: CallOutcome | undefined;
    for (let i = 0; i < 64 && !full; i += 1) {
      const check = await call(client, "Check", {});
      if ((check.structured.error as { code?: string } | undefined)?.code === "DISK_FULL") full = check;
    }
    expect(full).toBeDefined();
    expectRefused(
      full as CallOutcome,
      "DISK_FULL",
      "the disk is full (ENOSPC). Free space on that file system and retry.",
    );
    expectRefused(await call(client, "Check", {}), "DISK_FULL");
    rmSync(join(state, "filler"));
    const verify = await skillgate(["verify", f.ws, "--config", f.configFile], f.env);
    expect(verify.stdout).toMatch(/^VERIFIED: .+ — \d+ records, key ed25519:[0-9a-f]{32}, workspace /);
    expect(verify.exit).toBe(0);
    expect((await call(client, "ListSkill", {})).isError).toBe(false);
  });

  it("read-only state folder while serving: PERMISSION_DENIED, never LEDGER_TAMPERED", async () => {
    const f = await attackFixture();
    const state = join(f.ws, ".ucagent", "skillgate");
    tmpfs(state, "size=4m");
    await f.open();
    const { client } = await serve(f);
    expect((await call(client, "ListSkill", {})).isError).toBe(false);
    execFileSync("mount", ["-o", "remount,ro", state]);
    // A repeated ListSkill has nothing to record and answers from the state this server wrote; Check must record.
    expect((await call(client, "ListSkill", {})).isError).toBe(false);
    expectRefused(await call(client, "Check", {}), "PERMISSION_DENIED", "permission denied (EROFS)");
  });

  it("symlink/rename race with parallel ReadTextFile calls over one session: zero host bytes", async () => {
    const f = await attackFixture();
    const SECRET = "HOST-SECRET-c11";
    const host = join(f.dir, "host", "d");
    mkdirSync(host, { recursive: true });
    writeFileSync(join(host, "notes.txt"), `${SECRET}\n`);
    mkdirSync(join(f.ws, "dut", "d"), { recursive: true });
    writeFileSync(join(f.ws, "dut", "d", "notes.txt"), "inside\n");
    const { client } = await serve(f);
    const counter = join(f.dir, "swaps");
    swapper = spawn("python3", ["-c", SWAP_LOOP, join(f.ws, "dut", "d"), host, counter], { stdio: "ignore" });
    await swapsStarted(counter);
    const seen = { inside: 0, refused: 0, rounds: 0 };
    // At least 25 rounds of 8 parallel reads, and on until both sides of the race were met (bounded).
    while (seen.rounds < 25 || ((seen.inside === 0 || seen.refused === 0) && seen.rounds < 300)) {
      seen.rounds += 1;
      const results = await Promise.all(
        Array.from({ length: 8 }, () => call(client, "ReadTextFile", { path: "dut/d/notes.txt" })),
      );
      for (const r of results) {
        expect(JSON.stringify(r)).not.toContain(SECRET);
        if (!r.isError) {
          expect(r.text).toContain("inside");
          seen.inside += 1;
        } else {
          expect(["PATH_OUTSIDE_WORKSPACE", "FILE_NOT_FOUND"]).toContain(
            (r.structured.error as { code: string }).code,
          );
          seen.refused += 1;
        }
      }
    }
    expect(seen.inside).toBeGreaterThan(0);
    expect(seen.refused).toBeGreaterThan(0);
  });
});
