// Shared helpers of the pack tests: repo paths, a real-process runner, temp dirs and PATH lookups.
import { spawnSync } from "node:child_process";
import { accessSync, constants, readdirSync } from "node:fs";
import { delimiter, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type TempRoot, tempRoot } from "../support/workspace.js";

export const REPO = resolve(fileURLToPath(new URL("../..", import.meta.url)));
export const SKILLS = join(REPO, "skills");
export const BUN = join(REPO, "node_modules", ".bin", "bun");
export const TSX = join(REPO, "node_modules", ".bin", "tsx");

export interface ProcessResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function run(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): ProcessResult {
  const result = spawnSync(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    timeout: options.timeoutMs ?? 120_000,
  });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const created: TempRoot[] = [];

/** A fresh temp dir removed by cleanupTempDirs(). */
export function freshDir(prefix: string): string {
  const root = tempRoot(`skillgate-pack-${prefix}-`);
  created.push(root);
  return root.dir;
}

export function cleanupTempDirs(): void {
  for (const root of created.splice(0)) root.cleanup();
}

export function listDir(dir: string): string[] {
  return readdirSync(dir).sort();
}

/** The first executable named `name` on PATH, or null. */
export function findOnPath(name: string, path = process.env.PATH ?? ""): string | null {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {
      // not here
    }
  }
  return null;
}
