// Checker `command` (checkers/command.ts) on real processes: exit codes, a missing program, a timeout, the env and cwd.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CheckerFixture, type CheckerRow, checkerFixture } from "./fixture.js";

let fx: CheckerFixture;
beforeAll(async () => {
  fx = await checkerFixture();
});
afterAll(() => fx.cleanup());

describe("command", () => {
  it.each<CheckerRow>([
    [
      "command ok",
      "command",
      { argv: ["node", "-e", "process.exit(0)"] },
      true,
      "command: `node -e process.exit(0)` exited with 0.",
    ],
    [
      "command expected exit differs",
      "command",
      { argv: ["node", "-e", "console.log('bad thing'); process.exit(3)"] },
      false,
      "command: `node -e console.log('bad thing'); process.exit(3)` exited with code 3 (expected 0, cwd " +
        "<ROOT>). Fix what its output reports.\nOutput (last 40 lines):\nbad thing",
    ],
    [
      "command not found",
      "command",
      { argv: ["definitely-not-a-program-xyz"] },
      false,
      "command: `definitely-not-a-program-xyz` could not run: program 'definitely-not-a-program-xyz' not found (cwd <ROOT>). Fix the checker's argv or install the program.",
    ],
    [
      "command timeout",
      "command",
      { argv: ["node", "-e", "setTimeout(() => {}, 10000)"], timeout_seconds: 0.5 },
      false,
      "command: `node -e setTimeout(() => {}, 10000)` timed out after 0.5 s (cwd <ROOT>).",
    ],
    [
      "command sees OUT and runs in the workspace",
      "command",
      {
        argv: [
          "node",
          "-e",
          "process.exit(process.env.OUT === require('path').join(process.cwd(), 'out') ? 0 : 1)",
        ],
      },
      true,
      "command: `node -e process.exit(process.env.OUT === require('path').join(process.cwd(), 'out') ? 0 : 1)` exited with 0.",
    ],
  ])("%s", async (_name, kind, args, ok, message) => {
    expect(await fx.run(kind, args)).toEqual({ ok, message: message.replaceAll("<ROOT>", fx.root) });
  });
});
