// The workspace `npm start` serves when no --workspace is given: under skillgate's home, seeded with the shipped example target.

import { existsSync } from "node:fs";
import { cp, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { skillgateHome } from "../config/index.js";
import { packageRoot } from "../contracts/index.js";

export const EXAMPLE_TARGET = "buggy-inventory";

/** `<skillgateHome()>/workspaces/default` ($SKILLGATE_HOME honoured). */
export function defaultWorkspace(env: NodeJS.ProcessEnv = process.env): string {
  return join(skillgateHome(env), "workspaces", "default");
}

/**
 * Creates the folder and copies `examples/buggy-inventory` into `<ws>/dut` when `dut` is absent (never overwrites
 * the agent's work). Returns what was done, for the stderr banner.
 */
export async function prepareDefaultWorkspace(
  workspace: string,
): Promise<{ seeded: boolean; example: string | null }> {
  await mkdir(workspace, { recursive: true });
  const example = join(packageRoot(), "examples", EXAMPLE_TARGET);
  const dut = join(workspace, "dut");
  if (existsSync(dut) || !existsSync(example))
    return { seeded: false, example: existsSync(example) ? example : null };
  await cp(example, dut, { recursive: true });
  return { seeded: true, example };
}
