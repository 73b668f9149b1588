// Differential test: ucagent mode lists (or skips) what UCAgent's loader does, by real PyYAML + Python regex, on edge cases.
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseSkillFile } from "../../runtime/skills/index.js";
import { tempDir } from "./helpers.js";
import { referencePython, runOracle } from "./reference-python.js";
import { strictVariants } from "./strict-variants.js";
import { ucagentVariants } from "./ucagent-variants.js";

interface UcagentVerdict {
  listed: boolean;
  why?: string;
  name?: string;
  description?: string;
  metadata_warning?: boolean;
}

const scratch = tempDir("skillgate-ucagent-diff-");

function skillFiles(root: string): string[] {
  return fs
    .readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((file) => path.basename(file) === "SKILL.md" && !file.includes("node_modules"))
    .map((file) => path.join(root, file))
    .sort();
}
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

describe("ucagent mode = UCAgent's loader (real PyYAML and re)", () => {
  it("lists the same skills with the same name, description and metadata warning", () => {
    const python = referencePython(["yaml"]);
    const repo = path.resolve(import.meta.dirname, "../..");
    const real = [path.join(repo, "skills"), path.join(repo, "test", "fixtures")].flatMap(skillFiles);
    expect(real.length).toBeGreaterThanOrEqual(20);
    const variants = [
      ...real.map((file) => ({
        label: path.relative(repo, file),
        folder: path.basename(path.dirname(file)),
        content: fs.readFileSync(file),
      })),
      ...ucagentVariants(),
      ...strictVariants(),
    ];
    const files = variants.map((variant, index) => {
      const file = path.join(scratch, String(index), variant.folder, "SKILL.md");
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, variant.content);
      return file;
    });
    const reference = runOracle<UcagentVerdict[]>(python, "ucagent_verdicts.py", files);
    expect(reference).toHaveLength(files.length);
    const crashes = reference.filter((verdict) => verdict.why?.startsWith("crash"));
    expect(crashes).toEqual([]);
    const differences: string[] = [];
    let listed = 0;
    reference.forEach((expected, index) => {
      const file = files[index] as string;
      const result = parseSkillFile(fs.readFileSync(file), file, "ucagent");
      const ours: UcagentVerdict = result.ok
        ? {
            listed: true,
            name: result.parsed?.name,
            description: result.parsed?.description,
            metadata_warning: result.diagnostics.some((d) => d.code === "METADATA_NOT_MAPPING"),
          }
        : { listed: false };
      if (expected.listed) listed++;
      const { why: _why, ...comparable } = expected;
      if (JSON.stringify(ours) === JSON.stringify(comparable)) return;
      differences.push(
        [
          `variant ${index} (${variants[index]?.label}):`,
          `  content: ${JSON.stringify(fs.readFileSync(file, "utf8").slice(0, 200))}`,
          `  UCAgent:   ${JSON.stringify(expected)}`,
          `  skillgate: ${JSON.stringify(ours)} ${JSON.stringify(result.diagnostics.map((d) => `${d.code}: ${d.message}`))}`,
        ].join("\n"),
      );
    });
    expect(differences.join("\n\n")).toBe("");
    expect(listed).toBeGreaterThan(100);
    expect(files.length - listed).toBeGreaterThan(50);
  });
});
