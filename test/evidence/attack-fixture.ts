// Shared setup of issue 12's attack tables (CLI and MCP): the hooked fixture pack, stage 0 completed, tmpfs mounts.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { parse, stringify } from "yaml";
import { callTool } from "../../runtime/tools/registry.js";
import type { OpenedSession } from "../../runtime/tools/session.js";
import { FIXTURE_PACK, type Fixture, GATE_SKILL, GATE_SKILL_MD, makeFixture } from "../tools/helpers.js";

export const USAGE = { skill_usage: { [GATE_SKILL]: { list: true, read: true, use: true } } };
export const HOOK = `export function setupStage(stage: { addHook(m: string, f: (o: (r: unknown) => string[], r: unknown) => string[]): void }): void {
  stage.addHook("onCheck", (original, result) => [...original(result), "GOOD HOOK HINT"]);
}
`;
export const HOOK_NOT_LOADED =
  /Warning: hooks\.ts of skill 'fixture\/gate-skill' \(\.ucagent\/skills\/fixture\/gate-skill\/hooks\.ts\) was not loaded: script fixture\/gate-skill\/hooks\.ts was modified after init \(hash [0-9a-f]{12} != [0-9a-f]{12}\)/;

let current: Fixture | undefined;
const mounts: string[] = [];

/** A workspace over a copy of the fixture pack whose gate skill ships a trusted hooks.ts; initialised. */
export async function attackFixture(): Promise<Fixture> {
  const pack = join(makeFixture().dir, "pack");
  cpSync(FIXTURE_PACK, pack, { recursive: true });
  writeFileSync(join(pack, GATE_SKILL, "hooks.ts"), HOOK);
  const f = makeFixture({ packPath: pack });
  const config = parse(readFileSync(f.configFile, "utf8"));
  config.skill.trusted_hooks = { [GATE_SKILL]: createHash("sha256").update(HOOK).digest("hex") };
  writeFileSync(f.configFile, stringify(config));
  await f.open({ init: true });
  current = f;
  return f;
}

/** Setup only (not the attack): stage 0 completed in-process. */
export async function completeStage0(session: OpenedSession): Promise<void> {
  expect((await callTool(session, "ListSkill", {})).isError).toBe(false);
  expect((await callTool(session, "ReadTextFile", { path: GATE_SKILL_MD })).isError).toBe(false);
  const ran = await callTool(session, "RunSkillScript", {
    commands: [[GATE_SKILL, "make_report.py", "--title T"]],
  });
  expect(ran.isError).toBe(false);
  expect((await callTool(session, "Check", {})).isError).toBe(false);
  expect((await callTool(session, "SetSkillUsage", USAGE)).isError).toBe(false);
  expect((await callTool(session, "Complete", {})).isError).toBe(false);
}

/** Mounts a tmpfs at `dir`; unmounted by cleanupAttack(). */
export function tmpfs(dir: string, options: string): void {
  mkdirSync(dir, { recursive: true });
  // Must fail (not skip) when it cannot mount: the rows are about real ENOSPC/EROFS.
  execFileSync("mount", ["-t", "tmpfs", "-o", options, "tmpfs", dir]);
  mounts.push(dir);
}

/** Fills the file system of `dir` with a file `filler` until dd stops with ENOSPC. */
export function fillDisk(dir: string): void {
  try {
    execFileSync("dd", ["if=/dev/zero", `of=${join(dir, "filler")}`, "bs=4k", "count=100000"], {
      stdio: "ignore",
    });
  } catch {
    // dd stops with ENOSPC: the disk is full now
  }
}

/** A python process that keeps swapping folder `d` for a symlink to `host` and back, counting rounds in `counter`. */
export const SWAP_LOOP = `
import os, sys, time
d, host, counter = sys.argv[1:4]
n = 0
while True:
    os.rename(d, d + ".real"); os.symlink(host, d); time.sleep(0.0002); os.unlink(d); os.rename(d + ".real", d)
    n += 1
    if n % 200 == 0:
        open(counter + ".tmp", "w").write(str(n)); os.replace(counter + ".tmp", counter)
`;

/** Resolves once the swap loop wrote a positive round count to `counter`. */
export async function swapsStarted(counter: string): Promise<void> {
  for (;;) {
    try {
      if (Number(readFileSync(counter, "utf8")) > 0) return;
    } catch {
      // not written yet
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** afterEach: unmounts the tmpfs mounts and removes the fixture. */
export function cleanupAttack(): void {
  for (const m of mounts.splice(0)) execFileSync("umount", ["-l", m]);
  current?.cleanup();
  current = undefined;
}
