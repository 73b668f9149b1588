// The workflow and manifest as the ledger binds them (binding.ts): canonical forms, digests, named differences, touched stages.
import { describe, expect, it } from "vitest";
import { ConfigSchema } from "../../runtime/config/schema.js";
import {
  affectedStages,
  type BoundStage,
  type BoundWorkflow,
  boundWorkflow,
  describeManifestDiff,
  manifestChanges,
  manifestDigest,
  manifestMap,
  workflowChanges,
  workflowDigest,
} from "../../runtime/evidence/index.js";

const stage = (over: Partial<BoundStage> = {}): BoundStage => ({
  name: "build",
  skill_list: ["grp/a"],
  force_use_skill: true,
  checker: [{ kind: "file_exists", args: { path: "out/r.md" } }],
  output_files: ["out/r.md"],
  ...over,
});
const wf = (...stages: BoundStage[]): BoundWorkflow => ({ stages });

describe("boundWorkflow and workflowDigest", () => {
  it("keeps only the gate-relevant fields, skill ids normalised and deduplicated; task texts never change the digest", () => {
    const config = ConfigSchema.parse({
      stage: [
        {
          name: "build",
          desc: "one",
          task: ["do it"],
          skill_list: ["./grp/a/", "grp/a", "grp/b", "../bad"],
          checker: [{ kind: "file_exists", args: { path: "out/r.md" } }],
          output_files: ["out/r.md"],
        },
      ],
    });
    const normalise = (raw: string) => {
      const id = raw.replace(/^\.\//, "").replace(/\/$/, "");
      return id.includes("..") ? null : id;
    };
    const bound = boundWorkflow(config, normalise);
    expect(bound).toEqual(wf(stage({ skill_list: ["grp/a", "grp/b"] })));
    const reworded = ConfigSchema.parse({
      stage: [{ ...config.stage[0], desc: "two", task: ["other words"] }],
    });
    expect(workflowDigest(boundWorkflow(reworded, normalise))).toBe(workflowDigest(bound));
    expect(workflowDigest(wf(stage({ force_use_skill: false })))).not.toBe(workflowDigest(wf(stage())));
  });
});

describe("workflowChanges", () => {
  it.each<[string, BoundWorkflow, BoundWorkflow, string[]]>([
    ["nothing", wf(stage()), wf(stage()), []],
    ["a stage added", wf(stage()), wf(stage(), stage({ name: "test" })), ["stage 1 'test' was added"]],
    ["a stage removed", wf(stage(), stage({ name: "test" })), wf(stage()), ["stage 1 'test' was removed"]],
    [
      "every field of one stage",
      wf(stage()),
      wf(
        stage({
          name: "compile",
          force_use_skill: false,
          skill_list: ["grp/b"],
          checker: [],
          output_files: ["out/x.md"],
        }),
      ),
      [
        "stage 0 was renamed from 'build' to 'compile'",
        "stage 0 'compile': force_use_skill true -> false",
        'stage 0 \'compile\': skill_list ["grp/a"] -> ["grp/b"]',
        "stage 0 'compile': its checkers changed",
        'stage 0 \'compile\': output_files ["out/r.md"] -> ["out/x.md"]',
      ],
    ],
  ])("%s", (_name, before, after, lines) => {
    expect(workflowChanges(before, after)).toEqual(lines);
  });
});

describe("the manifest", () => {
  it("maps each copied file to its sha256, ignoring entries without one; the digest ignores key order", () => {
    expect(
      manifestMap({
        files: { "grp/a/SKILL.md": { sha256: "11" }, "grp/a/x": {} as { sha256: string } },
      }),
    ).toEqual({ "grp/a/SKILL.md": "11" });
    expect(manifestMap(null)).toEqual({});
    expect(manifestDigest({ a: "1", b: "2" })).toBe(manifestDigest({ b: "2", a: "1" }));
    expect(manifestDigest({ a: "1", b: "2" })).not.toBe(manifestDigest({ a: "1", b: "3" }));
  });

  it("names added, removed and changed files, sorted, and lists at most `limit` of each", () => {
    const diff = manifestChanges(
      { "a/SKILL.md": "1", "a/scripts/x.py": "2", "b/SKILL.md": "3" },
      { "a/SKILL.md": "1", "a/scripts/x.py": "9", "c/SKILL.md": "4" },
    );
    expect(diff).toEqual({ added: ["c/SKILL.md"], removed: ["b/SKILL.md"], changed: ["a/scripts/x.py"] });
    expect(describeManifestDiff(diff)).toEqual([
      "changed: a/scripts/x.py",
      "added: c/SKILL.md",
      "removed: b/SKILL.md",
    ]);
    const many = { added: ["f1", "f2", "f3", "f4"], removed: [], changed: [] };
    expect(describeManifestDiff(many, 2)).toEqual(["added: f1, f2 and 2 more"]);
    expect(describeManifestDiff({ added: [], removed: [], changed: [] })).toEqual([]);
  });
});

describe("affectedStages", () => {
  it("are the stages whose own config changed, or one of whose skills has a changed, added or removed file", () => {
    const before = wf(
      stage(),
      stage({ name: "test", skill_list: ["grp/ab"] }),
      stage({ name: "ship", skill_list: [] }),
    );
    const none = { added: [], removed: [], changed: [] };
    expect(affectedStages(before, before, none)).toEqual([]);
    // grp/a/ is not a prefix of grp/ab/: only stage 0 is touched by its skill's file.
    expect(affectedStages(before, before, { ...none, changed: ["grp/a/scripts/run.py"] })).toEqual([0]);
    expect(affectedStages(before, before, { ...none, added: ["grp/ab/new.md"] })).toEqual([1]);
    const renamed = wf(
      stage(),
      stage({ name: "test", skill_list: ["grp/ab"] }),
      stage({ name: "release", skill_list: [] }),
    );
    expect(affectedStages(before, renamed, none)).toEqual([2]);
    const longer = wf(...before.stages, stage({ name: "extra" }));
    expect(affectedStages(before, longer, none)).toEqual([3]);
  });
});
