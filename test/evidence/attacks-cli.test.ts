// Issue 12's attack table through `skillgate call` subprocesses (the same table over MCP: attacks-mcp.test.ts).
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
import { afterEach, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { workspacePaths } from "../../runtime/contracts/index.js";
import { evidenceLocations } from "../../runtime/evidence/index.js";
import { callTool } from "../../runtime/tools/registry.js";
import { type Fixture, GATE_SKILL, GATE_SKILL_MD, tamper } from "../tools/helpers.js";
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
import { type CliResult, callCli, skillgate } from "./cli.js";

let swapper: ChildProcess | undefined;
afterEach(async () => {
  swapper?.kill("SIGKILL");
  swapper = undefined;
  cleanupAttack();
});

const at = (f: Fixture, env = f.env, ws = f.ws) => ({ ws, configFile: f.configFile, env });

function expectRefused(r: CliResult, code: string, ...texts: string[]): void {
  expect(r.json.code).toBe(code);
  expect(r.json.isError).toBe(true);
  expect(r.exit).not.toBe(0);
  for (const t of texts) expect(r.json.text).toContain(t);
}

describe("attacks through `skillgate call`", () => {
  it("config edit (force_use_skill: false): WORKFLOW_CHANGED on Complete and SetSkillUsage", async () => {
    const f = await attackFixture();
    const config = parse(readFileSync(f.configFile, "utf8"));
    config.stage[0].force_use_skill = false;
    writeFileSync(f.configFile, stringify(config));
    const complete = await callCli("Complete", {}, at(f));
    expectRefused(
      complete,
      "WORKFLOW_CHANGED",
      "stage 0 'report': force_use_skill true -> false",
      "run `skillgate init .`",
    );
    expect(complete.json.text).not.toContain(f.ws);
    expectRefused(await callCli("SetSkillUsage", USAGE, at(f)), "WORKFLOW_CHANGED");
  });

  it("a script edited with its manifest entry: SCRIPT_MODIFIED on RunSkillScript, PACK_CHANGED on Check", async () => {
    const f = await attackFixture();
    const paths = workspacePaths(f.ws);
    tamper(join(paths.skillsDir, GATE_SKILL, "scripts", "make_report.py"), "print('forged')\n");
    const manifest = JSON.parse(readFileSync(paths.manifest, "utf8"));
    manifest.files[`${GATE_SKILL}/scripts/make_report.py`].sha256 = createHash("sha256")
      .update("print('forged')\n")
      .digest("hex");
    writeFileSync(paths.manifest, JSON.stringify(manifest));
    const ran = await callCli("RunSkillScript", { commands: [[GATE_SKILL, "make_report.py", ""]] }, at(f));
    expectRefused(ran, "SCRIPT_MODIFIED", "was modified after init");
    expect(ran.json.text).not.toContain("forged");
    expectRefused(await callCli("Check", {}, at(f)), "PACK_CHANGED");
  });

  it("hooks.ts edited after init: not loaded, named in the Check result; its code never runs", async () => {
    const f = await attackFixture();
    const marker = join(f.dir, "hook-ran");
    const hooks = join(workspacePaths(f.ws).skillsDir, GATE_SKILL, "hooks.ts");
    tamper(
      hooks,
      `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "ran");\n${HOOK}`,
    );
    const check = await callCli("Check", {}, at(f));
    expect(check.json.text).toMatch(HOOK_NOT_LOADED);
    expect(check.json.text).not.toContain("GOOD HOOK HINT");
    expect(() => readFileSync(marker)).toThrow();
    // The control: the untouched hook does load through the same surface.
    tamper(hooks, HOOK);
    expect((await callCli("Check", {}, at(f))).json.text).toContain("GOOD HOOK HINT");
  });

  it("SKILL.md shrunk to its frontmatter: reading it is not read evidence", async () => {
    const f = await attackFixture();
    const file = join(f.ws, GATE_SKILL_MD);
    tamper(file, `${readFileSync(file, "utf8").split("\n---")[0]}\n---\n`);
    const read = await callCli("ReadTextFile", { path: GATE_SKILL_MD }, at(f));
    expect(read.json.structured?.skill_read).toMatchObject({ read_complete: false });
    expect(read.json.text).toContain("differs from the copy init recorded");
    const usage = await callCli("SetSkillUsage", USAGE, at(f));
    expectRefused(
      usage,
      "SKILL_USAGE_REJECTED",
      `skill_usage['${GATE_SKILL}'].read is true but ${GATE_SKILL_MD} was not read in full`,
    );
  });

  it("replay of a saved ledger after a fresh init: LEDGER_REPLAY", async () => {
    const f = await attackFixture();
    await completeStage0(await f.open());
    const paths = workspacePaths(f.ws);
    const saved = join(f.dir, "saved");
    cpSync(paths.skillgateDir, saved, { recursive: true });
    chmodSync(join(f.ws, ".ucagent"), 0o755);
    rmSync(f.ws, { recursive: true, force: true });
    expect((await skillgate(["init", f.ws, "--config", f.configFile], f.env)).exit).toBe(0);
    copyFileSync(join(saved, "ledger.jsonl"), paths.ledger);
    copyFileSync(join(saved, "progress.json"), paths.progress);
    const status = await callCli("Status", {}, at(f));
    expectRefused(
      status,
      "LEDGER_REPLAY",
      "comes from an earlier init of this workspace",
      "refused as a replay",
    );
    expectRefused(await callCli("Complete", {}, at(f)), "LEDGER_REPLAY");
  });

  it("HOME change: LEDGER_KEY_MISMATCH naming the home; the right home shows the progress again", async () => {
    const f = await attackFixture();
    await completeStage0(await f.open());
    const wrong = { ...f.env, SKILLGATE_HOME: join(f.dir, "other-home") };
    const status = await callCli("Status", {}, at(f, wrong));
    expectRefused(
      status,
      "LEDGER_KEY_MISMATCH",
      `Set SKILLGATE_HOME to the home that created it (${f.home}) and retry.`,
    );
    expect((await callCli("Status", {}, at(f))).json.text).toContain("Progress: 1/2 stages completed");
  });

  it("workspace moved: LEDGER_KEY_MISMATCH without --adopt; `skillgate init --adopt` keeps the progress", async () => {
    const f = await attackFixture();
    await completeStage0(await f.open());
    const moved = join(f.dir, "moved");
    renameSync(f.ws, moved);
    const refused = await callCli("Status", {}, at(f, f.env, moved));
    expectRefused(
      refused,
      "LEDGER_KEY_MISMATCH",
      "the workspace was moved or copied",
      "run `skillgate init . --adopt`",
    );
    const adopt = await skillgate(["init", moved, "--adopt", "--config", f.configFile], f.env);
    expect(adopt.exit).toBe(0);
    const status = await callCli("Status", {}, at(f, f.env, moved));
    expect(status.json.isError).toBe(false);
    expect(status.json.text).toContain("Progress: 1/2 stages completed");
  });

  it("rollback to an older ledger copy of the same init: LEDGER_ROLLBACK", async () => {
    const f = await attackFixture();
    const session = await f.open();
    const paths = workspacePaths(f.ws);
    expect((await callTool(session, "ListSkill", {})).isError).toBe(false);
    copyFileSync(paths.ledger, join(f.dir, "early.ledger"));
    copyFileSync(paths.progress, join(f.dir, "early.progress"));
    await completeStage0(session);
    copyFileSync(join(f.dir, "early.ledger"), paths.ledger);
    copyFileSync(join(f.dir, "early.progress"), paths.progress);
    const headFile = evidenceLocations(paths, f.home).headFile;
    const status = await callCli("Status", {}, at(f));
    expectRefused(
      status,
      "LEDGER_ROLLBACK",
      "an older copy of ledger.jsonl/progress.json was put back",
      `delete ${headFile}`,
    );
    expectRefused(await callCli("Complete", {}, at(f)), "LEDGER_ROLLBACK");
  });

  it("disk full (a 256 KiB tmpfs state folder): DISK_FULL, the ledger stays valid", async () => {
    const f = await attackFixture();
    const state = join(f.ws, ".ucagent", "skillgate");
    tmpfs(state, "size=256k");
    const session = await f.open();
    fillDisk(state);
    // The ledger's last page may still have room: fill it with in-process Checks until an append fails.
    let full = false;
    for (let i = 0; i < 64 && !full; i += 1)
      full = (await callTool(session, "Check", {})).code === "DISK_FULL";
    expect(full).toBe(true);
    expectRefused(
      await callCli("Check", {}, at(f)),
      "DISK_FULL",
      "the disk is full (ENOSPC). Free space on that file system and retry.",
    );
    rmSync(join(state, "filler"));
    const verify = await skillgate(["verify", f.ws, "--config", f.configFile], f.env);
    expect(verify.stdout).toMatch(/^VERIFIED: .+ — \d+ records, key ed25519:[0-9a-f]{32}, workspace /);
    expect(verify.exit).toBe(0);
    expect((await callCli("ListSkill", {}, at(f))).json.isError).toBe(false);
  });

  it("read-only state folder: PERMISSION_DENIED, never LEDGER_TAMPERED", async () => {
    const f = await attackFixture();
    const state = join(f.ws, ".ucagent", "skillgate");
    tmpfs(state, "size=4m");
    await f.open();
    execFileSync("mount", ["-o", "remount,ro", state]);
    expectRefused(await callCli("ListSkill", {}, at(f)), "PERMISSION_DENIED", "permission denied (EROFS)");
  });

  it("symlink/rename race with parallel ReadTextFile calls: zero host bytes", async () => {
    const f = await attackFixture();
    const SECRET = "HOST-SECRET-c11";
    const host = join(f.dir, "host", "d");
    mkdirSync(host, { recursive: true });
    writeFileSync(join(host, "notes.txt"), `${SECRET}\n`);
    mkdirSync(join(f.ws, "dut", "d"), { recursive: true });
    writeFileSync(join(f.ws, "dut", "d", "notes.txt"), "inside\n");
    const counter = join(f.dir, "swaps");
    swapper = spawn("python3", ["-c", SWAP_LOOP, join(f.ws, "dut", "d"), host, counter], { stdio: "ignore" });
    await swapsStarted(counter);
    const seen = { inside: 0, refused: 0 };
    for (let round = 0; round < 6; round += 1) {
      const results = await Promise.all(
        [1, 2].map(() => callCli("ReadTextFile", { path: "dut/d/notes.txt" }, at(f))),
      );
      for (const r of results) {
        expect(r.stdout).not.toContain(SECRET);
        if (!r.json.isError) {
          expect(r.json.text).toContain("inside");
          seen.inside += 1;
        } else {
          expect(["PATH_OUTSIDE_WORKSPACE", "FILE_NOT_FOUND"]).toContain(r.json.code);
          seen.refused += 1;
        }
      }
    }
    expect(seen.inside + seen.refused).toBe(12);
  });
});
