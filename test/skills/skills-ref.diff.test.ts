// Differential test: `validate --mode strict` gives the real skills-ref's verdict on the pack, the fixtures and generated edge cases.
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { validateSkillDir } from "../../runtime/skills/index.js";
import { tempDir } from "./helpers.js";
import { referencePython, runOracle } from "./reference-python.js";
import { strictVariants } from "./strict-variants.js";

const repo = path.resolve(import.meta.dirname, "../..");

function skillFolders(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === "node_modules" || entry.name === ".git") continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === "SKILL.md") found.push(dir);
    }
  };
  walk(root);
  return found.sort();
}

interface Verdict {
  dir: string;
  ok: boolean;
  errors: string[];
}

const scratch = tempDir("skillgate-skills-ref-");
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

describe("strict mode = skills-ref", () => {
  it("gives skills-ref's verdict on every pack skill, fixture and generated variant", () => {
    const python = referencePython(["skills_ref"]);
    const labels = new Map<string, string>();
    const real = [
      ...skillFolders(path.join(repo, "skills")),
      ...skillFolders(path.join(repo, "test", "fixtures")),
    ];
    for (const dir of real) labels.set(dir, path.relative(repo, dir));
    const variants = strictVariants();
    variants.forEach((variant, index) => {
      const dir = path.join(scratch, String(index), variant.folder);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, "SKILL.md"), variant.content);
      labels.set(dir, `variant ${index} (${variant.label})`);
    });
    const dirs = [...labels.keys()];
    expect(real.length).toBeGreaterThanOrEqual(20);
    expect(variants.length).toBeGreaterThanOrEqual(300);

    const reference = runOracle<Verdict[]>(python, "skills_ref_verdicts.py", dirs);
    expect(reference.map((verdict) => verdict.dir)).toEqual(dirs);
    const differences: string[] = [];
    let valid = 0;
    for (const verdict of reference) {
      const ours = validateSkillDir(verdict.dir, "strict");
      if (verdict.ok) valid++;
      if (ours.ok === verdict.ok) continue;
      const content = fs.readFileSync(path.join(verdict.dir, "SKILL.md"), "utf8");
      differences.push(
        [
          `${labels.get(verdict.dir)}: skills-ref ${verdict.ok ? "valid" : "invalid"}, skillgate ${ours.ok ? "valid" : "invalid"}`,
          `  content: ${JSON.stringify(content.slice(0, 300))}`,
          `  skills-ref: ${JSON.stringify(verdict.errors)}`,
          `  skillgate: ${JSON.stringify(ours.diagnostics.map((d) => `${d.severity} ${d.code}: ${d.message}`))}`,
        ].join("\n"),
      );
    }
    expect(differences.join("\n\n")).toBe("");
    // Both verdicts occur in quantity, so the comparison is not trivially one-sided.
    expect(valid).toBeGreaterThan(60);
    expect(dirs.length - valid).toBeGreaterThan(150);
  });
});
