// Temp workspaces and packs for workspace tests, plus a config built from the schema's defaults.
import { cpSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { ConfigSchema, type SkillgateConfig } from "../../runtime/config/index.js";
import { tempRoot } from "../support/workspace.js";

export const FIXTURES = fileURLToPath(new URL("../fixtures/workspace/", import.meta.url));
export const FIXTURE_PACK = join(FIXTURES, "pack");
export const FIXTURE_EXTRA_ROOT = join(FIXTURES, "extra-root");
export const FIXTURE_SINGLE_SKILL = join(FIXTURES, "single-skill");

export function tempDir(prefix = "skillgate-ws-"): { dir: string; cleanup(): void } {
  const { dir, cleanup } = tempRoot(prefix);
  return { dir, cleanup };
}

/** A writable copy of a fixture folder (for tests that change the source). */
export function copyFixture(source: string, target: string): string {
  cpSync(source, target, { recursive: true });
  return target;
}

export function configWith(
  skill: Record<string, unknown>,
  rest: Record<string, unknown> = {},
): SkillgateConfig {
  return ConfigSchema.parse({ ...rest, skill });
}

/** Every file below root, relative and "/" separated, sorted. */
export function listFiles(root: string): string[] {
  const out: string[] = [];
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) visit(full);
      else out.push(relative(root, full).split("\\").join("/"));
    }
  };
  visit(root);
  return out.sort();
}

export function listDirs(root: string): string[] {
  const out: string[] = [root];
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    if (entry.isDirectory()) out.push(...listDirs(join(root, entry.name)));
  }
  return out;
}

export function modeOf(path: string): number {
  return statSync(path).mode & 0o777;
}
