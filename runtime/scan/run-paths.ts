// What the level-3 gate scans for one script run: the script and its skill's hooks.ts (hooks are code too).
import { join } from "node:path";
import { nodeScanFs, type ScanFs } from "./files.js";

/** The hooks file of a skill: beside SKILL.md, so Python hosts do not list it as a script (DESIGN §5). */
export const HOOKS_FILE = "hooks.ts";

/**
 * The files a level-3 run of `scriptPath` must pass: the script, then `<skillDir>/hooks.ts` when it is a
 * regular file. A skill whose hooks carry a critical finding is refused whichever of its scripts is asked
 * for. A hooks.ts that is a symlink or special file is not scanned: following it could read a host file
 * into the refusal text, and opening a FIFO would block.
 */
export async function runScanPaths(
  scriptPath: string,
  skillDir: string,
  fs: Pick<ScanFs, "lstat"> = nodeScanFs,
): Promise<string[]> {
  const hooks = join(skillDir, HOOKS_FILE);
  const isFile = await fs.lstat(hooks).then(
    (info) => info.isFile(),
    () => false,
  );
  return isFile ? [scriptPath, hooks] : [scriptPath];
}
