// The stage instance hooks see (stage-instance.ts): configured guidance, wrapped methods, and a misbehaving hook falling back once-warned.
import { describe, expect, it } from "vitest";
import { ConfigSchema } from "../../runtime/config/schema.js";
import { HOOKABLE_METHODS, StageInstance } from "../../runtime/stage/index.js";

function instance(): StageInstance {
  const config = ConfigSchema.parse({
    stage: [{ name: "review", desc: "Review the code", task: ["Read it", "Write out/report.md"] }],
  });
  return new StageInstance(0, config.stage[0]!, ["grp/a"]);
}

describe("StageInstance", () => {
  it("unhooked: the configured tasks (a copy), description and no check hints", () => {
    const stage = instance();
    expect(stage.name).toBe("review");
    expect(stage.index).toBe(0);
    expect(stage.skillList).toEqual(["grp/a"]);
    const tasks = stage.getTasks();
    expect(tasks).toEqual(["Read it", "Write out/report.md"]);
    tasks.push("injected");
    expect(stage.safeTasks()).toEqual(["Read it", "Write out/report.md"]);
    expect(stage.safeDescribe()).toBe("Review the code");
    expect(stage.safeOnCheck({ passed: true, message: "ok" })).toEqual([]);
    expect(HOOKABLE_METHODS).toEqual(["getTasks", "describe", "onCheck"]);
  });

  it("hooks wrap in order: each gets the previous method and the call's arguments", () => {
    const stage = instance();
    stage.addHook("getTasks", (original) => [...original(), "first hook"]);
    stage.addHook("getTasks", (original) => [...original(), "second hook"]);
    stage.addHook("onCheck", (original, result: { passed: boolean }) => [
      ...original(result),
      result.passed ? "well done" : "look at out/report.md",
    ]);
    stage.addHook("describe", (original) => `${original()} (hooked)`);
    expect(stage.safeTasks()).toEqual(["Read it", "Write out/report.md", "first hook", "second hook"]);
    expect(stage.safeOnCheck({ passed: false, message: "x" })).toEqual(["look at out/report.md"]);
    expect(stage.safeDescribe()).toBe("Review the code (hooked)");
    expect(stage.runtimeWarnings).toEqual([]);
  });

  it("a method that is not hookable is refused by name", () => {
    const stage = instance();
    expect(() => stage.addHook("complete" as never, () => [])).toThrow(
      "unknown stage method 'complete' (hookable: getTasks, describe, onCheck)",
    );
  });

  it("a hook that throws or returns the wrong type gives the unhooked result and one warning per problem", () => {
    const stage = instance();
    stage.addHook("getTasks", () => {
      throw new Error("boom");
    });
    stage.addHook("describe", () => 42);
    stage.addHook("onCheck", () => ["fine", 7]);
    for (let i = 0; i < 3; i++) {
      expect(stage.safeTasks()).toEqual(["Read it", "Write out/report.md"]);
      expect(stage.safeDescribe()).toBe("Review the code");
      expect(stage.safeOnCheck({ passed: true, message: "" })).toEqual([]);
    }
    expect(stage.runtimeWarnings).toEqual([
      "a hook of stage 'review' threw in getTasks(): boom; the unhooked result is used",
      "a hook of stage 'review' made describe() return number; the unhooked result is used",
      "a hook of stage 'review' made onCheck() return object; the unhooked result is used",
    ]);
  });
});
