// A finished run leaves no timer behind: a one-shot `skillgate call` exits as soon as its script does.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runScript } from "../../runtime/exec/index.js";
import { type Harness, makeHarness } from "./harness.js";

let h: Harness;

beforeAll(() => {
  h = makeHarness("skillgate-timer-");
  h.addScript("quick.py", "print('done')\n");
});
afterAll(() => h.cleanup());

const timers = (): number => process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length;

describe.sequential("runScript timers", () => {
  it.each([2, 1] as const)(
    "level %i: no timer is still pending once the result is returned",
    async (level) => {
      const before = timers();
      const result = await runScript(await h.request("quick.py", { sandboxLevel: level }));
      expect(result.status).toBe("ok");
      expect(result.stdout).toBe("done\n");
      expect(timers()).toBeLessThanOrEqual(before);
    },
  );
});
