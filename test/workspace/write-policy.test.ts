// The allowed-folders write policy (runtime/workspace/write-policy.ts): checked on real paths, skillgate's own state and
// the copied pack always denied, parents verified (and created only where allowed), the refusal saying what to do.
import { existsSync, mkdirSync, symlinkSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SkillgateError } from "../../runtime/errors.js";
import { closeAll } from "../../runtime/workspace/safe-path.js";
import {
  ALWAYS_DENIED_DIRS,
  entryStats,
  openParent,
  requireAllowed,
  writeAllowed,
} from "../../runtime/workspace/write-policy.js";
import { type TempRoot, tempRoot } from "../support/workspace.js";

let temp: TempRoot;
let ws: string;
beforeEach(() => {
  temp = tempRoot("skillgate-write-policy-", { realpath: true });
  ws = temp.path("ws");
  mkdirSync(temp.path("ws", "out"), { recursive: true });
  mkdirSync(temp.path("ws", ".ucagent", "skills"), { recursive: true });
  mkdirSync(temp.path("ws", "notes"));
  symlinkSync(temp.path("ws", ".ucagent", "skills"), temp.path("ws", "out", "pack-link"));
});
afterEach(() => temp.cleanup());

async function refusal(run: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await run;
  } catch (error) {
    if (error instanceof SkillgateError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("writeAllowed", () => {
  it.each([
    [{ allow: ["."] }, "a.txt", true],
    [{ allow: [""] }, "deep/a.txt", true],
    [{ allow: ["./out/"] }, "out/a", true],
    [{ allow: ["out"] }, "out", true],
    [{ allow: ["out"] }, "outside/a", false],
    [{ allow: ["out\\sub"] }, "out/sub/a", true],
    [{ allow: [] }, "a", false],
    [{ allow: ["."] }, ".ucagent/skills/x/SKILL.md", false],
    [{ allow: ["."] }, ".ucagent/skillgate/ledger.jsonl", false],
    [{ allow: [".ucagent/skills"] }, ".ucagent/skills/x", false],
    [{ allow: ["."] }, ".ucagent/setting.yaml", true],
    [{ allow: ["."], deny: ["out/private/"] }, "out/private/k", false],
    [{ allow: ["."], deny: ["out/private"] }, "out/private-not", true],
  ])("%o may write %s: %s", (policy, rel, expected) => {
    expect(writeAllowed(policy, rel)).toBe(expected);
  });

  it("requireAllowed says where writes may go and what is always denied", () => {
    let message = "";
    try {
      requireAllowed({ allow: ["out", "."], deny: ["notes"] }, "notes/a", "notes/a");
    } catch (error) {
      message = (error as SkillgateError).message;
      expect((error as SkillgateError).code).toBe("WRITE_NOT_ALLOWED");
    }
    expect(message).toBe(
      `Writing 'notes/a' (notes/a) is not allowed: writes may go only into out, ., and never into ${ALWAYS_DENIED_DIRS.join(", ")}, notes. Write inside an allowed folder, or ask the operator to add the folder to the allowed write folders.`,
    );
    expect(() => requireAllowed({ allow: [] }, "", "x")).toThrow("writes may go only into (none)");
  });
});

describe("openParent", () => {
  it("gives the verified parent and the entry's real relative path", async () => {
    const parent = await openParent(ws, "out/new.txt", { allow: ["out"] }, false);
    expect({ name: parent.name, rel: parent.rel, shown: parent.shown }).toEqual({
      name: "new.txt",
      rel: "out/new.txt",
      shown: "out/new.txt",
    });
    expect(await entryStats(parent)).toBeNull();
    await closeAll(parent.dir);
  });

  it("checks the policy on the real path: a link inside to the copied pack does not get a write in", async () => {
    const result = await refusal(openParent(ws, "out/pack-link/x/SKILL.md", { allow: ["."] }, false));
    expect(result.code).toBe("FILE_NOT_FOUND");
    const direct = await refusal(openParent(ws, "out/pack-link/SKILL.md", { allow: ["."] }, false));
    expect(direct.code).toBe("WRITE_NOT_ALLOWED");
    expect(direct.message).toContain("(.ucagent/skills/SKILL.md)");
  });

  it("creates missing parents only inside allowed folders, checking each one", async () => {
    const made = await openParent(ws, "out/a/b/c.txt", { allow: ["out"] }, true);
    expect(made.rel).toBe("out/a/b/c.txt");
    expect(existsSync(`${ws}/out/a/b`)).toBe(true);
    await closeAll(made.dir);
    const denied = await refusal(openParent(ws, "elsewhere/x/y.txt", { allow: ["out"] }, true));
    expect(denied.code).toBe("WRITE_NOT_ALLOWED");
    expect(existsSync(`${ws}/elsewhere`)).toBe(false);
  });

  it("refuses the workspace itself and a path that does not end in a name", async () => {
    expect(await refusal(openParent(ws, ".", { allow: ["."] }, false))).toEqual({
      code: "INVALID_ARGS",
      message: "Path '.' is the workspace itself; name a file or folder in it.",
    });
    expect(await refusal(openParent(ws, "out/..", { allow: ["."] }, false))).toEqual({
      code: "INVALID_ARGS",
      message: "Path 'out/..' is the workspace itself; name a file or folder in it.",
    });
  });
});
