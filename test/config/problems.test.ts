// Config problems (runtime/config/problems.ts): zod issues become file:line: key path: bad value and fix; knownKeysAt walks
// the config schema through zod's public API (wrappers, lists, records), never its def tree.
import { describe, expect, it } from "vitest";
import { ConfigSchema } from "../../runtime/config/index.js";
import { parseYamlLayer } from "../../runtime/config/layer.js";
import { mergeLayers } from "../../runtime/config/merge.js";
import {
  describeValue,
  formatKeyPath,
  knownKeysAt,
  problemsFromIssues,
  problemsMessage,
} from "../../runtime/config/problems.js";

describe("knownKeysAt", () => {
  it("lists the keys of the object at a path, through defaults, lists and records", () => {
    expect(knownKeysAt(ConfigSchema, [])).toContain("skill");
    expect(knownKeysAt(ConfigSchema, ["skill"])).toContain("use_skill");
    expect(knownKeysAt(ConfigSchema, ["stage", 0])).toContain("skill_list");
    expect(knownKeysAt(ConfigSchema, ["exec", "skill_overrides", "review/x"])).toContain("timeout_seconds");
  });

  it("answers no keys for a path into a scalar, a missing key or an inherited property name", () => {
    expect(knownKeysAt(ConfigSchema, ["skill", "use_skill"])).toEqual([]);
    expect(knownKeysAt(ConfigSchema, ["nope"])).toEqual([]);
    expect(knownKeysAt(ConfigSchema, ["constructor"])).toEqual([]);
    expect(knownKeysAt(ConfigSchema, ["__proto__", "x"])).toEqual([]);
  });
});

describe("formatKeyPath and describeValue", () => {
  it.each([
    [[], "(top level)"],
    [["skill", "use_skill"], "skill.use_skill"],
    [["stage", 0, "skill_list", 2], "stage[0].skill_list[2]"],
    [
      ["exec", "skill_overrides", "review/x", "timeout_seconds"],
      'exec.skill_overrides["review/x"].timeout_seconds',
    ],
    [["with space"], '["with space"]'],
  ])("%j → %s", (path, expected) => {
    expect(formatKeyPath(path)).toBe(expected);
  });

  it.each([
    [null, "nothing (null)"],
    [[1], "a list"],
    [{ a: 1 }, "a mapping"],
    ["yes", '"yes" (a string)'],
    [3, "3 (a number)"],
    [true, "true (a boolean)"],
  ])("%j is %s", (value, expected) => {
    expect(describeValue(value)).toBe(expected);
  });
});

describe("problemsFromIssues", () => {
  /** Real layers parsed from YAML text, merged and validated like loadConfig does. */
  const problemsOf = (files: Array<[string, string]>) => {
    const layers = files.map(([file, text]) => parseYamlLayer(text, file));
    const merged = mergeLayers(layers);
    const parsed = ConfigSchema.safeParse(merged);
    if (parsed.success) throw new Error("expected the config to be invalid");
    return problemsFromIssues(parsed.error.issues, merged, layers, ConfigSchema);
  };

  it("an unknown key close to a known one: did you mean, on the key's own line", () => {
    expect(problemsOf([["/u.yaml", "skill:\n  use_skil: true\n"]])).toEqual([
      {
        source: "/u.yaml",
        line: 2,
        keyPath: "skill.use_skil",
        text: 'unknown key "use_skil"; did you mean use_skill?',
      },
    ]);
  });

  it("a bad value is blamed on the later layer that set it, with the fix", () => {
    const problems = problemsOf([
      ["/default.yaml", "skill:\n  use_skill: true\n"],
      ["/setting.yaml", '# setting\nskill:\n  use_skill: "true"\n'],
    ]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ source: "/setting.yaml", line: 3, keyPath: "skill.use_skill" });
    expect(problems[0]?.text).toContain('"true" (a string)');
    expect(problems[0]?.text).toContain("write true without quotes");
  });

  it("a skill_list that is not a list gets UCAgent's own sentence first", () => {
    const [problem] = problemsOf([["/c.yaml", "stage:\n  - name: build\n    skill_list: 3\n"]]);
    expect(problem?.keyPath).toBe("stage[0].skill_list");
    expect(problem?.text.startsWith("Stage 'build' skill_list must be a list. (")).toBe(true);
  });

  it("problemsMessage: one problem on one line, several as a list", () => {
    const one = { source: "/c.yaml", line: 4, keyPath: "skill.x", text: "bad" };
    const two = { source: "command-line flags", keyPath: "skill.y", text: "worse" };
    expect(problemsMessage([one])).toBe("invalid config: /c.yaml:4: skill.x: bad");
    expect(problemsMessage([one, two])).toBe(
      "invalid config (2 problems):\n- /c.yaml:4: skill.x: bad\n- command-line flags: skill.y: worse",
    );
  });
});
