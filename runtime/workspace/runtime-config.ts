// <ws>/.ucagent/runtime_config.json: building it from the config, reading it back, and {OUT}/{DUT} placeholders.
import { resolve } from "node:path";
import type { SkillgateConfig } from "../config/index.js";
import { type RuntimeConfig, RuntimeConfigSchema } from "../config/index.js";
import type { WorkspacePaths } from "../contracts/index.js";
import { readSmallFile, refusalReason } from "../contracts/index.js";
import { SkillgateError } from "../errors.js";

export function buildRuntimeConfig(
  paths: WorkspacePaths,
  config: SkillgateConfig,
  details: { skillsEnabled: boolean; packPath: string | null; now: Date },
): RuntimeConfig {
  return {
    schema_version: 1,
    workspace: paths.root,
    DUT: resolve(paths.root, config.DUT),
    OUT: resolve(paths.root, config.OUT),
    skills_enabled: details.skillsEnabled,
    skills_dir: paths.skillsDir,
    pack_path: details.packPath,
    initialised_at: details.now.toISOString(),
  };
}

export async function readRuntimeConfig(
  paths: WorkspacePaths,
  readText: (file: string) => Promise<string> = readSmallFile,
): Promise<RuntimeConfig> {
  const file = paths.runtimeConfig;
  let text: string;
  try {
    text = await readText(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      throw new SkillgateError(
        "WORKSPACE_NOT_INITIALISED",
        `workspace ${paths.root} is not initialised: ${file} is missing; run: skillgate init ${paths.root}`,
        { file },
      );
    }
    const refused = refusalReason(error);
    if (refused !== null) {
      throw new SkillgateError(
        "CONFIG_UNREADABLE",
        `cannot read ${file}: ${refused}; re-run: skillgate init ${paths.root}, which writes it anew`,
        { file, ...(error as SkillgateError).details },
      );
    }
    throw new SkillgateError(
      "CONFIG_UNREADABLE",
      `cannot read ${file}: ${(error as Error).message}; fix its permissions or re-run: skillgate init ${paths.root}`,
      { file },
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new SkillgateError(
      "CONFIG_INVALID",
      `${file} is corrupt (not JSON: ${(error as Error).message}); re-run: skillgate init ${paths.root}`,
      { file },
    );
  }
  const parsed = RuntimeConfigSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = issue.path.map(String).join(".") || "(top level)";
    throw new SkillgateError(
      "CONFIG_INVALID",
      `${file} is corrupt (${key}: ${issue.message}); re-run: skillgate init ${paths.root}`,
      { file },
    );
  }
  return parsed.data;
}

/** Replaces {OUT}, {DUT} and {WORKSPACE} with the absolute paths of runtime_config.json; other braces stay. */
export function resolveWorkspacePlaceholders(
  text: string,
  runtime: Pick<RuntimeConfig, "OUT" | "DUT" | "workspace">,
): string {
  return text.replace(/\{(OUT|DUT|WORKSPACE)\}/g, (_, name: string) =>
    name === "OUT" ? runtime.OUT : name === "DUT" ? runtime.DUT : runtime.workspace,
  );
}
