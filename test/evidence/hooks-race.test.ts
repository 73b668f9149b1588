// hooks.ts swapped while `skillgate call Check` loads it: the verified bytes are what is imported, the swapped code never runs.
import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { FIXTURE_PACK, type Fixture, GATE_SKILL, makeFixture } from "../tools/helpers.js";
import { callCli } from "./cli.js";

let fixture: Fixture | undefined;
let swapper: ChildProcess | undefined;
afterEach(() => {
  swapper?.kill("SIGKILL");
  swapper = undefined;
  fixture?.cleanup();
  fixture = undefined;
});

const GOOD = `export function setupStage(stage: { addHook(m: string, f: (o: (r: unknown) => string[], r: unknown) => string[]): void }): void {
  stage.addHook("onCheck", (original, result) => [...original(result), "GOOD HOOK HINT"]);
}
`;
const evil = (marker: string) => `import { appendFileSync } from "node:fs";
appendFileSync(${JSON.stringify(marker)}, "evil module ran\\n");
export function setupStage(stage: { addHook(m: string, f: () => string[]): void }): void {
  appendFileSync(${JSON.stringify(marker)}, "evil setupStage ran\\n");
  stage.addHook("onCheck", () => ["EVIL HOOK RAN"]);
}
`;

const CALLS = 30;
/** Under load one side of the race can dominate for a while: keep calling (bounded) until both were met. */
const MAX_CALLS = 120;
const PARALLEL = 2;

describe("hooks.ts rename race", () => {
  it(`${CALLS}+ Check calls while another process swaps hooks.ts by rename: the swapped code never runs`, async () => {
    const pack = join(makeFixture().dir, "pack");
    cpSync(FIXTURE_PACK, pack, { recursive: true });
    writeFileSync(join(pack, GATE_SKILL, "hooks.ts"), GOOD);
    fixture = makeFixture({ packPath: pack });
    const config = parse(readFileSync(fixture.configFile, "utf8"));
    config.skill.trusted_hooks = { [GATE_SKILL]: createHash("sha256").update(GOOD).digest("hex") };
    writeFileSync(fixture.configFile, stringify(config));
    await fixture.open({ init: true });
    const marker = join(fixture.dir, "evil-ran");
    const skillDir = join(fixture.ws, ".ucagent", "skills", GATE_SKILL);
    chmodSync(skillDir, 0o755);
    writeFileSync(join(fixture.dir, "good.ts"), GOOD);
    writeFileSync(join(fixture.dir, "evil.ts"), evil(marker));
    const flips = join(fixture.dir, "flips");
    // The agent's loop: put the good and the evil file in place by rename, as fast as it can.
    const loop = `
      const { copyFileSync, renameSync, writeFileSync } = require("node:fs");
      const [dir, good, evil, flips] = process.argv.slice(1);
      const pause = new Int32Array(new SharedArrayBuffer(4));
      let n = 0;
      for (;;) {
        // Flips every few ms, the good file held a little longer: many flips inside one load, some loads that
        // meet the good file whole, and no whole shared core taken.
        copyFileSync(good, dir + "/.g"); renameSync(dir + "/.g", dir + "/hooks.ts");
        Atomics.wait(pause, 0, 0, 2);
        copyFileSync(evil, dir + "/.e"); renameSync(dir + "/.e", dir + "/hooks.ts");
        Atomics.wait(pause, 0, 0, 0.5);
        if (++n % 100 === 0) writeFileSync(flips, String(n));
      }`;
    swapper = spawn(
      process.execPath,
      ["-e", loop, skillDir, join(fixture.dir, "good.ts"), join(fixture.dir, "evil.ts"), flips],
      {
        stdio: "ignore",
      },
    );
    // Poll until the swapper is really flipping before the first call.
    while (!existsSync(flips)) await new Promise((r) => setTimeout(r, 20));

    const outcomes = { good: 0, refused: 0 };
    const where = { ws: fixture.ws, configFile: fixture.configFile, env: fixture.env };
    let done = 0;
    for (
      ;
      done < MAX_CALLS && (done < CALLS || outcomes.good === 0 || outcomes.refused === 0);
      done += PARALLEL
    ) {
      const results = await Promise.all(Array.from({ length: PARALLEL }, () => callCli("Check", {}, where)));
      for (const r of results) {
        expect(r.json.text).not.toContain("EVIL HOOK RAN");
        if (r.json.text.includes("GOOD HOOK HINT")) outcomes.good += 1;
        else {
          // Read while the evil bytes were in place (refused by digest) or while a rename replaced the file
          // under the open (the opened inode was unlinked): named, not loaded.
          expect(r.json.text).toMatch(
            /Warning: hooks\.ts of skill 'fixture\/gate-skill' \(\.ucagent\/skills\/fixture\/gate-skill\/hooks\.ts\) was not loaded: (script fixture\/gate-skill\/hooks\.ts was modified after init \(hash [0-9a-f]{12} != [0-9a-f]{12}\); re-run: skillgate init .+|Cannot open hooks\.ts: it does not exist\.)$/m,
          );
          outcomes.refused += 1;
        }
      }
    }
    swapper.kill("SIGKILL");
    expect(Number(readFileSync(flips, "utf8"))).toBeGreaterThan(0);
    expect(existsSync(marker) ? readFileSync(marker, "utf8") : "").toBe("");
    // Both sides of the race were met: the check is not vacuous.
    expect(outcomes.good).toBeGreaterThan(0);
    expect(outcomes.refused).toBeGreaterThan(0);
    expect(outcomes.good + outcomes.refused).toBe(done);
  }, 300_000);
});
