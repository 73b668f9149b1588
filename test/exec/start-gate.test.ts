// RunRequest.startGate: a run's script starts only once the caller's last checks passed; a refusal starts nothing.
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runScript } from "../../runtime/exec/index.js";
import { type Harness, makeHarness } from "./harness.js";

let h: Harness;
const mark = () => join(h.ws, "out", "ran");

beforeAll(() => {
  h = makeHarness("skillgate-gate-");
  h.addScript(
    "mark.py",
    "import os\nopen(os.path.join(os.environ['OUT'], 'ran'), 'w').write('ran')\nprint('done')\n",
  );
});
afterAll(() => h.cleanup());

describe.sequential("runScript start gate", () => {
  it.each([2, 1] as const)("level %i: a gate that refuses leaves the script unstarted", async (level) => {
    rmSync(mark(), { force: true });
    let asked = 0;
    const result = await runScript({
      ...(await h.request("mark.py", { sandboxLevel: level })),
      startGate: async () => {
        asked++;
        return false;
      },
    });
    expect(asked).toBe(1);
    expect(result.status).not.toBe("ok");
    expect(result.stdout).toBe("");
    expect(existsSync(mark())).toBe(false);
  });

  it.each([2, 1] as const)("level %i: the script starts once the gate passed", async (level) => {
    rmSync(mark(), { force: true });
    let passed = false;
    const result = await runScript({
      ...(await h.request("mark.py", { sandboxLevel: level })),
      startGate: async () => {
        // The script has not run while the gate is still open.
        expect(existsSync(mark())).toBe(false);
        passed = true;
        return true;
      },
    });
    expect(passed).toBe(true);
    expect(result.status).toBe("ok");
    expect(result.stdout).toBe("done\n");
    expect(existsSync(mark())).toBe(true);
  });
});
