// `skillgate export` and `skillgate verify` as real processes: a completed forced stage verifies; each tampering fails.
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callTool } from "../../../runtime/tools/registry.js";
import { MAIN, TSX } from "../../mcp/helpers.js";
import { runProcess } from "../../support/process.js";
import { type Fixture, GATE_SKILL, GATE_SKILL_MD, makeFixture, REPO_ROOT } from "../../tools/helpers.js";

const run = promisify(execFile);
let fixture: Fixture;
let proof: string;

function skillgate(args: string[]) {
  return runProcess(TSX, [MAIN, ...args], { cwd: REPO_ROOT, env: fixture.env });
}

beforeAll(async () => {
  fixture = makeFixture();
  const session = await fixture.open();
  await callTool(session, "ListSkill", {});
  await callTool(session, "ReadTextFile", { path: GATE_SKILL_MD });
  await callTool(session, "RunSkillScript", { commands: [[GATE_SKILL, "make_report.py", "--title P"]] });
  await callTool(session, "Check", {});
  await callTool(session, "SetSkillUsage", {
    skill_usage: { [GATE_SKILL]: { list: true, read: true, use: true } },
  });
  expect((await callTool(session, "Complete", {})).isError).toBe(false);
  proof = join(fixture.dir, "proof.json");
  const exported = await skillgate(["export", fixture.ws, "--out", proof, "--config", fixture.configFile]);
  expect(exported.code).toBe(0);
}, 120_000);
afterAll(() => fixture.cleanup());

function variant(name: string, edit: (bundle: { records: string[]; public_key: string }) => void): string {
  const bundle = JSON.parse(readFileSync(proof, "utf8"));
  edit(bundle);
  const file = join(fixture.dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(bundle));
  return file;
}

describe("skillgate verify", () => {
  it("an exported proof verifies, with a verdict per stage, pinned to its fingerprint", async () => {
    const bundle = JSON.parse(readFileSync(proof, "utf8"));
    const ok = await skillgate(["verify", proof, "--pubkey", bundle.fingerprint, "--json"]);
    expect(ok.code).toBe(0);
    const report = JSON.parse(ok.stdout);
    expect(report.ok).toBe(true);
    expect(report.stages[0]).toMatchObject({ index: 0, name: "report", verdict: "verified" });
  }, 60_000);

  it("a proof whose forced stage was completed with skills disabled verifies and says so for that stage", async () => {
    const off = makeFixture({ useSkill: false });
    try {
      const session = await off.open();
      mkdirSync(join(off.ws, "out"), { recursive: true });
      writeFileSync(join(off.ws, "out", "report.md"), "# Report\n");
      expect((await callTool(session, "Check", {})).isError).toBe(false);
      expect((await callTool(session, "Complete", {})).isError).toBe(false);
      const file = join(off.dir, "proof-off.json");
      const env = { ...off.env };
      const exported = await run(TSX, [MAIN, "export", off.ws, "--out", file, "--config", off.configFile], {
        cwd: REPO_ROOT,
        env,
      });
      expect(exported.stderr).not.toContain("error");
      const verified = await run(TSX, [MAIN, "verify", file, "--json"], { cwd: REPO_ROOT, env });
      const report = JSON.parse(verified.stdout);
      expect(report.ok).toBe(true);
      expect(report.stages[0]).toMatchObject({
        index: 0,
        name: "report",
        verdict: "completed with skills disabled",
      });
    } finally {
      off.cleanup();
    }
  }, 120_000);

  it("a flipped byte, a removed record, two swapped records, a swapped key or a wrong pin fail with the reason", async () => {
    const cases: [string, (b: { records: string[]; public_key: string }) => void, string][] = [
      [
        "flip",
        (b) => {
          b.records[3] = b.records[3]!.replace('"stage":0', '"stage":1');
        },
        "content does not match its hash",
      ],
      [
        "remove",
        (b) => {
          b.records.splice(4, 1);
        },
        "is missing",
      ],
      [
        "swap",
        (b) => {
          [b.records[4], b.records[5]] = [b.records[5]!, b.records[4]!];
        },
        "out of order",
      ],
      [
        "key",
        (b) => {
          b.public_key = Buffer.alloc(32, 9).toString("base64");
        },
        "is not the key the ledger names",
      ],
    ];
    for (const [name, edit, reason] of cases) {
      const failed = await skillgate(["verify", variant(name, edit), "--json"]);
      expect({ name, code: failed.code }).toEqual({ name, code: 1 });
      const report = JSON.parse(failed.stdout);
      expect({
        name,
        found: report.failures.some((f: { reason: string }) => f.reason.includes(reason)),
      }).toEqual({ name, found: true });
    }
    const pinned = await skillgate(["verify", proof, "--pubkey", "ed25519:00000000000000000000000000000000"]);
    expect(pinned.code).toBe(1);
    expect(pinned.stdout).toContain("not by the pinned key ed25519:00000000000000000000000000000000");
  }, 120_000);
});
