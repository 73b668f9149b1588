// RunSkillScript through callTool with real parallel calls: exec.max_parallel_runs bounds the runs alive at once.
import { chmodSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { fenceMark } from "../../runtime/skills/index.js";
import { callTool } from "../../runtime/tools/registry.js";
import { removeTree, tempRoot } from "../support/workspace.js";
import { type Fixture, fixtureConfig, makeFixture } from "./helpers.js";

const SKILL = "queue/slots";
/**
 * Marks itself alive in OUT/slots, waits until `limit` runs are alive (or 10 s), stays 0.3 s more, and prints the
 * most runs it saw alive at once. A run admitted beyond the limit would be counted by the others.
 */
const SLOT_PY = `import os, sys, time, uuid
slots = os.path.join(os.environ["OUT"], "slots")
os.makedirs(slots, exist_ok=True)
me = os.path.join(slots, uuid.uuid4().hex)
open(me, "w").close()
limit = int(sys.argv[1])
most = 0
deadline = time.time() + 10
while time.time() < deadline and most < limit:
    most = max(most, len(os.listdir(slots)))
    time.sleep(0.01)
linger = time.time() + 0.3
while time.time() < linger:
    most = max(most, len(os.listdir(slots)))
    time.sleep(0.01)
os.remove(me)
print(f"most alive: {most}")
`;

let fixture: Fixture;
let pack = "";

afterEach(() => {
  fixture?.cleanup();
  if (pack) removeTree(pack);
});

async function sessionWith(maxParallelRuns: number) {
  pack = tempRoot("skillgate-queue-pack-").dir;
  const skill = join(pack, "queue", "slots");
  mkdirSync(join(skill, "scripts"), { recursive: true });
  writeFileSync(
    join(skill, "SKILL.md"),
    "---\nname: slots\ndescription: Counts the runs alive at once.\n---\n\n# slots\n\nRun slot.py.\n",
  );
  writeFileSync(join(skill, "scripts", "slot.py"), SLOT_PY);
  writeFileSync(join(skill, "scripts", "gone.py"), 'print("still here")\n');
  fixture = makeFixture({ packPath: pack, stageSkills: [SKILL] });
  const config = fixtureConfig({ packPath: pack, stageSkills: [SKILL] });
  const exec = config.exec as Record<string, unknown>;
  writeFileSync(
    fixture.configFile,
    stringify({ ...config, exec: { ...exec, max_parallel_runs: maxParallelRuns } }),
  );
  return fixture.open();
}

describe("exec.max_parallel_runs", () => {
  it("runs at most that many RunSkillScript calls at once; the others wait and all succeed", async () => {
    const session = await sessionWith(2);
    const calls = Array.from({ length: 6 }, () =>
      callTool(session, "RunSkillScript", { commands: [[SKILL, "slot.py", "2"]] }),
    );
    const results = await Promise.all(calls);
    const seen = results.map((result) => {
      expect(result.isError, result.text).toBe(false);
      return Number(/most alive: (\d+)/.exec(result.text)?.[1]);
    });
    // Never more than 2 alive, and 2 did run together (the queue does not serialise to one).
    expect(Math.max(...seen)).toBe(2);
    expect(readdirSync(join(session.runtime.OUT, "slots"))).toEqual([]);
    const ledger = await session.engine.ledgerHealth?.();
    expect(ledger).toMatchObject({ health: "ok", runs: 6 });
  });

  it("a call sees a skill change made before it arrived, while calls queued together share the watcher's fences", async () => {
    const session = await sessionWith(1);
    const warm = await callTool(session, "RunSkillScript", { commands: [[SKILL, "gone.py", ""]] });
    expect(warm.isError, warm.text).toBe(false);
    const before = fenceMark();
    // One slot: the first call runs (its own fence); the next two wait, having arrived together.
    const queued = Array.from({ length: 3 }, () =>
      callTool(session, "RunSkillScript", { commands: [[SKILL, "slot.py", "1"]] }),
    );
    // The change lands while the first call runs and before the next call arrives.
    const scripts = join(session.paths.skillsDir, ...SKILL.split("/"), "scripts");
    chmodSync(scripts, 0o755);
    rmSync(join(scripts, "gone.py"));
    const late = callTool(session, "RunSkillScript", { commands: [[SKILL, "gone.py", ""]] });
    for (const result of await Promise.all(queued)) expect(result.isError, result.text).toBe(false);
    const refused = await late;
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain(
      `Command 1 invalid: script 'gone.py' is not a script of skill '${SKILL}'; its scripts are: slot.py.`,
    );
    // Fences: the first call's, and one for the two that arrived with it, begun after the change, so the late
    // call (queued behind them) needed none of its own and still saw the script gone.
    expect(fenceMark() - before).toBe(2);
  });
});
