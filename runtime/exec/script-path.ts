// Validates a script name given by the agent and returns the real path of the file that will run.
import { realpath, stat } from "node:fs/promises";
import { join, sep } from "node:path";
import { SkillgateError } from "../errors.js";

/** Why a script name is refused before touching the file system, or null when it is a bare filename. */
export function scriptNameProblem(scriptName: string): string | null {
  if (scriptName.length === 0) return "it is empty";
  if (/[\u0000-\u001f\u007f-\u009f]/.test(scriptName)) return "it contains control characters";
  if (scriptName.startsWith("/")) return "it is an absolute path";
  if (scriptName.includes("\\")) return "it contains a backslash";
  if (scriptName === "." || scriptName === ".." || scriptName.split("/").includes(".."))
    return "it contains '..'";
  if (scriptName.includes("/")) return "it contains '/'";
  return null;
}

/** Validated real path of `<skillDir>/scripts/<scriptName>`; throws SCRIPT_PATH_INVALID or SCRIPT_NOT_FOUND. */
export async function checkScriptPath(skillDir: string, scriptName: string): Promise<string> {
  const shown = JSON.stringify(scriptName);
  const problem = scriptNameProblem(scriptName);
  if (problem !== null) {
    throw new SkillgateError(
      "SCRIPT_PATH_INVALID",
      `script name ${shown} for skill folder ${skillDir} is refused: ${problem}; fix: pass a bare filename listed under the skill's scripts/ folder`,
      { skillDir, script: scriptName },
    );
  }
  const scriptsDir = join(skillDir, "scripts");
  const candidate = join(scriptsDir, scriptName);
  let realScriptsDir: string;
  let real: string;
  try {
    realScriptsDir = await realpath(scriptsDir);
    real = await realpath(candidate);
  } catch {
    throw new SkillgateError(
      "SCRIPT_NOT_FOUND",
      `script ${shown} not found at ${candidate}; fix: use one of the files listed under the skill's Script Path`,
      { skillDir, script: scriptName },
    );
  }
  if (!real.startsWith(realScriptsDir + sep)) {
    throw new SkillgateError(
      "SCRIPT_PATH_INVALID",
      `script ${shown} resolves to ${real}, outside ${realScriptsDir}; fix: scripts must be real files inside the skill's scripts/ folder, not links leading out of it`,
      { skillDir, script: scriptName, realPath: real },
    );
  }
  const info = await stat(real);
  if (!info.isFile()) {
    throw new SkillgateError(
      "SCRIPT_PATH_INVALID",
      `script ${shown} at ${real} is not a regular file; fix: pass a script file, not a folder or device`,
      { skillDir, script: scriptName, realPath: real },
    );
  }
  if (info.nlink > 1) {
    throw new SkillgateError(
      "SCRIPT_PATH_INVALID",
      `script ${shown} at ${real} has ${info.nlink} hard links, so its content may be a file from outside the skill; fix: replace it with a plain copy`,
      { skillDir, script: scriptName, realPath: real },
    );
  }
  return real;
}
