// Test helpers for the skill catalog: build skill trees in temp folders.
import fs from "node:fs";
import path from "node:path";
import { parseSkillFile, type ValidationMode } from "../../runtime/skills/index.js";
import { tempRoot } from "../support/workspace.js";

export function tempDir(prefix = "skillgate-skills-"): string {
  return tempRoot(prefix).dir;
}

/** Writes `files` (relative path → content) under `root`, creating folders. */
export function writeTree(root: string, files: Record<string, string | Buffer>): string {
  for (const [relative, content] of Object.entries(files)) {
    const file = path.join(root, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
  return root;
}

export function skillMd(name: string, description = `Skill ${name}.`): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n`;
}

/** A skill folder at `id` whose name is its last segment. */
export function skill(id: string, extra: Record<string, string> = {}): Record<string, string> {
  const files: Record<string, string> = { [`${id}/SKILL.md`]: skillMd(id.split("/").pop() as string) };
  for (const [relative, content] of Object.entries(extra)) files[`${id}/${relative}`] = content;
  return files;
}

/** The SKILL.md path the parse tables use, and a valid file for it. */
export const FILE = "/skills/my-skill/SKILL.md";
export const ok = "---\nname: my-skill\ndescription: Finds bugs.\n---\n# Body\n";

/** parseSkillFile on `content`, its diagnostics as "severity CODE: message" lines. */
export function parseRun(content: string | Buffer, mode: ValidationMode = "ucagent", file = FILE) {
  const result = parseSkillFile(
    typeof content === "string" ? Buffer.from(content, "utf8") : content,
    file,
    mode,
  );
  return {
    ok: result.ok,
    problems: result.diagnostics.map(
      (diagnostic) => `${diagnostic.severity} ${diagnostic.code}: ${diagnostic.message}`,
    ),
    parsed: result.parsed,
  };
}
