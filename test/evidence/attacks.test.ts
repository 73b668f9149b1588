// Issue 12's attacks and careless-user cases through the real tools (callTool on opened sessions, real files, real tmpfs).
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { workspacePaths } from "../../runtime/contracts/index.js";
import { EvidenceLedger } from "../../runtime/evidence/index.js";
import { callTool } from "../../runtime/tools/registry.js";
import type { OpenedSession } from "../../runtime/tools/session.js";
import { type Fixture, GATE_SKILL, GATE_SKILL_MD, makeFixture, tamper } from "../tools/helpers.js";

let fixture: Fixture | undefined;
const mounts: string[] = [];
afterEach(() => {
  for (const m of mounts.splice(0)) execFileSync("umount", ["-l", m]);
  fixture?.cleanup();
  fixture = undefined;
});

const USAGE = { skill_usage: { [GATE_SKILL]: { list: true, read: true, use: true } } };

async function collectEvidence(session: OpenedSession): Promise<void> {
  expect((await callTool(session, "ListSkill", {})).isError).toBe(false);
  expect(
    (await callTool(session, "ReadTextFile", { path: GATE_SKILL_MD })).structured.skill_read,
  ).toMatchObject({
    read_complete: true,
  });
  const ran = await callTool(session, "RunSkillScript", {
    commands: [[GATE_SKILL, "make_report.py", "--title T"]],
  });
  expect(ran.isError).toBe(false);
}

async function completeStage0(session: OpenedSession): Promise<void> {
  await collectEvidence(session);
  expect((await callTool(session, "Check", {})).isError).toBe(false);
  expect((await callTool(session, "SetSkillUsage", USAGE)).isError).toBe(false);
  expect((await callTool(session, "Complete", {})).isError).toBe(false);
}

describe("the gate cannot be edited away", () => {
  it("force_use_skill: false in setting.yaml is refused as WORKFLOW_CHANGED until init records it", async () => {
    fixture = makeFixture();
    await fixture.open();
    const paths = workspacePaths(fixture.ws);
    // The agent's edit: force_use_skill false (here in the top config layer of the fixture, which wins over setting.yaml).
    const { parse, stringify } = await import("yaml");
    const config = parse(readFileSync(fixture.configFile, "utf8"));
    config.stage[0].force_use_skill = false;
    writeFileSync(fixture.configFile, stringify(config));
    void paths.settingFile;
    const session = await fixture.open();
    const complete = await callTool(session, "Complete", {});
    expect(complete.code).toBe("WORKFLOW_CHANGED");
    expect(complete.text).toContain("stage 0 'report': force_use_skill true -> false");
    expect(complete.text).toContain("run `skillgate init .`");
    // An error text shows workspace paths relative to the workspace, never the host folder it sits in.
    expect(complete.text).not.toContain(paths.root);
    expect((await callTool(session, "Check", {})).code).toBe("WORKFLOW_CHANGED");
    expect((await callTool(session, "SetSkillUsage", USAGE)).code).toBe("WORKFLOW_CHANGED");
    // init records the change (and says so); the completion is then recorded as made with the gate off.
    const reinit = await fixture.open({ init: true });
    expect((reinit.engine as unknown as { bindingNotes: string[] }).bindingNotes[0]).toContain(
      "init recorded a change of the workflow or skill pack: stage 0 'report': force_use_skill true -> false",
    );
    mkdirSync(join(fixture.ws, "out"), { recursive: true });
    writeFileSync(join(fixture.ws, "out", "report.md"), "# r\n");
    expect((await callTool(reinit, "Complete", {})).isError).toBe(false);
    const status = await callTool(reinit, "Status", {});
    expect(status.text).toContain(
      "stage 0 'report' was completed with the skill gate off (force_use_skill: false).",
    );
  });

  it("a script edited together with its manifest entry is refused: scripts are verified against the ledger", async () => {
    fixture = makeFixture();
    const session = await fixture.open();
    const paths = workspacePaths(fixture.ws);
    const script = join(paths.skillsDir, GATE_SKILL, "scripts", "make_report.py");
    tamper(script, "print('forged')\n");
    const manifest = JSON.parse(readFileSync(paths.manifest, "utf8"));
    const { createHash } = await import("node:crypto");
    manifest.files[`${GATE_SKILL}/scripts/make_report.py`].sha256 = createHash("sha256")
      .update("print('forged')\n")
      .digest("hex");
    writeFileSync(paths.manifest, JSON.stringify(manifest));
    const ran = await callTool(session, "RunSkillScript", { commands: [[GATE_SKILL, "make_report.py", ""]] });
    expect(ran.code).toBe("SCRIPT_MODIFIED");
    expect(ran.text).toContain("was modified after init");
    expect((await callTool(session, "Check", {})).code).toBe("PACK_CHANGED");
  });

  it("a SKILL.md shrunk to its frontmatter does not count as read", async () => {
    fixture = makeFixture();
    const session = await fixture.open();
    const file = join(fixture.ws, GATE_SKILL_MD);
    const text = readFileSync(file, "utf8");
    tamper(file, `${text.split("\n---")[0]}\n---\n`);
    const read = await callTool(session, "ReadTextFile", { path: GATE_SKILL_MD });
    expect(read.structured.skill_read).toMatchObject({ read_complete: false });
    expect(read.text).toContain("differs from the copy init recorded");
    expect((await session.engine.current())?.evidence[GATE_SKILL]?.read).toBe(false);
  });
});

describe("replay and careless users: refused with the fix, nothing lost", () => {
  it("replay of a saved ledger after a fresh init is LEDGER_REPLAY", async () => {
    fixture = makeFixture();
    await completeStage0(await fixture.open());
    const paths = workspacePaths(fixture.ws);
    const saved = join(fixture.dir, "saved");
    cpSync(paths.skillgateDir, saved, { recursive: true });
    rmSync(fixture.ws, { recursive: true, force: true });
    await fixture.open();
    cpSync(join(saved, "ledger.jsonl"), paths.ledger);
    cpSync(join(saved, "progress.json"), paths.progress);
    const session = await fixture.open();
    const status = await callTool(session, "Status", {});
    expect(status.code).toBe("LEDGER_REPLAY");
    expect((await callTool(session, "Complete", {})).code).toBe("LEDGER_REPLAY");
  });

  it("HOME change: LEDGER_KEY_MISMATCH naming the home; the right home shows the progress again", async () => {
    fixture = makeFixture();
    await completeStage0(await fixture.open());
    const right = fixture.env.SKILLGATE_HOME!;
    const wrong = join(fixture.dir, "other-home");
    const { openSession } = await import("../../runtime/tools/session.js");
    const session = await openSession({
      workspace: fixture.ws,
      configFile: fixture.configFile,
      env: { ...fixture.env, SKILLGATE_HOME: wrong },
    });
    const status = await callTool(session, "Status", {});
    expect(status.code).toBe("LEDGER_KEY_MISMATCH");
    expect(status.text).toContain(`Set SKILLGATE_HOME to the home that created it (${right})`);
    const back = await callTool(await fixture.open(), "Status", {});
    expect(back.text).toContain("Progress: 1/2 stages completed");
  });

  it("a moved workspace is refused until init --adopt; after adopt the progress is intact", async () => {
    fixture = makeFixture();
    await completeStage0(await fixture.open());
    const moved = join(fixture.dir, "moved");
    renameSync(fixture.ws, moved);
    const { openSession } = await import("../../runtime/tools/session.js");
    const open = () => openSession({ workspace: moved, configFile: fixture!.configFile, env: fixture!.env });
    expect((await callTool(await open(), "Status", {})).code).toBe("LEDGER_KEY_MISMATCH");
    await new EvidenceLedger(workspacePaths(moved), { home: fixture.home }).adopt();
    const status = await callTool(await open(), "Status", {});
    expect(status.isError).toBe(false);
    expect(status.text).toContain("Progress: 1/2 stages completed");
  });
});

describe("disk full and a read-only state folder get their own codes", () => {
  function tmpfs(dir: string, options: string): void {
    mkdirSync(dir, { recursive: true });
    // Must fail (not skip) when it cannot mount: the test is about real ENOSPC/EROFS.
    execFileSync("mount", ["-t", "tmpfs", "-o", options, "tmpfs", dir]);
    mounts.push(dir);
  }

  it("a full disk answers DISK_FULL, leaves the ledger valid, and the evidence can be collected once space is back", async () => {
    fixture = makeFixture();
    const state = join(fixture.ws, ".ucagent", "skillgate");
    tmpfs(state, "size=256k");
    const session = await fixture.open();
    const filler = join(state, "filler");
    try {
      execFileSync("dd", ["if=/dev/zero", `of=${filler}`, "bs=4k", "count=100000"], { stdio: "ignore" });
    } catch {
      // dd stops with ENOSPC: the disk is full now
    }
    // The ledger's last page may still have room: each Check appends a record, so the disk fills within a page.
    let full: Awaited<ReturnType<typeof callTool>> | null = null;
    for (let i = 0; i < 64 && !full; i += 1) {
      const checked = await callTool(session, "Check", {});
      if (checked.code === "DISK_FULL") full = checked;
    }
    expect(full?.text).toContain("the disk is full (ENOSPC)");
    rmSync(filler);
    const again = await fixture.open();
    expect(await (again.engine as unknown as { ledger: EvidenceLedger }).ledger.verifyAll()).toMatchObject({
      ok: true,
      quarantined: 0,
    });
    expect((await callTool(again, "ListSkill", {})).isError).toBe(false);
    expect((await again.engine.current())?.evidence[GATE_SKILL]?.list).toBe(true);
  });

  it("a read-only state folder answers PERMISSION_DENIED, never LEDGER_TAMPERED", async () => {
    fixture = makeFixture();
    const state = join(fixture.ws, ".ucagent", "skillgate");
    tmpfs(state, "size=4m");
    const session = await fixture.open();
    execFileSync("mount", ["-o", "remount,ro", state]);
    const listed = await callTool(session, "ListSkill", {});
    expect(listed.code).toBe("PERMISSION_DENIED");
    expect(listed.text).toContain("permission denied (EROFS)");
  });
});
