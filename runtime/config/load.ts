// Loads the layered config: default.yaml → user file → <ws>/.ucagent/setting.yaml → --config FILE → flags.
import { dirname, isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { workspacePaths } from "../contracts/index.js";
import { SkillgateError } from "../errors.js";
import { userConfigFile } from "./home.js";
import {
  type ConfigLayer,
  isMapping,
  parseYamlLayer,
  type ReadText,
  readAnyFile,
  readLayerText,
} from "./layer.js";
import { type ConfigMemo, type MemoQuestion, recallConfig, rememberConfig } from "./memo.js";
import { mergeLayers } from "./merge.js";
import { problemsFromIssues, problemsMessage } from "./problems.js";
import type { SkillgateConfig } from "./schema.js";

export interface SkillFlags {
  /** Set only when --use-skill / --no-use-skill was given. */
  useSkill?: boolean;
  extraSkillPaths?: string[];
}

export interface LoadConfigOptions {
  workspace?: string;
  configFile?: string;
  flags?: SkillFlags;
  env?: NodeJS.ProcessEnv;
  /** Base for a relative --config FILE and flag paths; defaults to process.cwd(). */
  cwd?: string;
  /** The built-in layer; defaults to default.yaml next to this module (sources and dist alike). */
  defaultFile?: string;
  readText?: ReadText;
  /** Read <ws>/.ucagent/setting.yaml (default true); authority mode turns it off because the agent can write it. */
  workspaceLayer?: boolean;
  /** Reuse the config resolved from the same layer texts (not with a custom readText). */
  memo?: ConfigMemo;
}

export interface LoadedConfig {
  config: SkillgateConfig;
  /** Layers that contributed, in order: file paths, then "command-line flags" when any flag was given. */
  sources: string[];
}

export const FLAGS_SOURCE = "command-line flags";

/** One config file to read; `readText` when it is not read as the guarded default (see readLayerText). */
interface LayerSpec {
  file: string;
  optional: boolean;
  role: string;
  baseDir: string;
  readText?: ReadText;
}

export function defaultConfigFile(): string {
  return fileURLToPath(new URL("./default.yaml", import.meta.url));
}

/** Relative skill paths in a file mean "relative to that file" (setting.yaml: to the workspace). */
function resolveLayerPaths(layer: ConfigLayer, baseDir: string): void {
  const skill = layer.data.skill;
  if (!isMapping(skill)) return;
  const absolute = (p: string) => (isAbsolute(p) || p === "" ? p : resolve(baseDir, p));
  if (typeof skill.pack_path === "string") skill.pack_path = absolute(skill.pack_path);
  if (typeof skill.extra_skill_path === "string") skill.extra_skill_path = absolute(skill.extra_skill_path);
  else if (Array.isArray(skill.extra_skill_path)) {
    skill.extra_skill_path = skill.extra_skill_path.map((p: unknown) =>
      typeof p === "string" ? absolute(p) : p,
    );
  }
}

export async function loadConfig(options: LoadConfigOptions = {}): Promise<LoadedConfig> {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  const flags = options.flags ?? {};
  const extraFromFlags = (flags.extraSkillPaths ?? []).map((p) => resolve(cwd, p));
  if (extraFromFlags.length > 0 && flags.useSkill === false) {
    throw new SkillgateError(
      "FLAG_CONFLICT",
      "--extra-skill-path cannot be used with --no-use-skill; drop one of them",
    );
  }

  const layers: ConfigLayer[] = [];
  const fileSpecs: LayerSpec[] = [];
  const defaultFile = options.defaultFile ?? defaultConfigFile();
  fileSpecs.push({
    file: defaultFile,
    optional: true,
    role: "built-in config",
    baseDir: dirname(defaultFile),
  });
  const userFile = userConfigFile(env);
  fileSpecs.push({ file: userFile, optional: true, role: "user config", baseDir: dirname(userFile) });
  if (options.workspace !== undefined && options.workspaceLayer !== false) {
    const paths = workspacePaths(options.workspace);
    fileSpecs.push({
      file: paths.settingFile,
      optional: true,
      role: "workspace config",
      baseDir: paths.root,
    });
  }
  if (options.configFile !== undefined) {
    const file = resolve(cwd, options.configFile);
    fileSpecs.push({
      file,
      optional: false,
      role: "config file (--config)",
      baseDir: dirname(file),
      readText: readAnyFile,
    });
  }
  const flagSkill: Record<string, unknown> = {};
  if (flags.useSkill !== undefined) flagSkill.use_skill = flags.useSkill;
  if (extraFromFlags.length > 0) flagSkill.use_skill = true;

  const memo = options.readText === undefined ? options.memo : undefined;
  const question: MemoQuestion = { files: fileSpecs, flags: [flagSkill, extraFromFlags] };
  // Any read error: the file-by-file pass below reports it, in the order it always did.
  const texts = memo ? await readTexts(fileSpecs).catch(() => undefined) : undefined;
  if (memo && texts) {
    const known = await recallConfig(memo, question, texts);
    if (known) return known;
  }
  for (const [index, spec] of fileSpecs.entries()) {
    const text = texts
      ? texts[index]
      : await readLayerText(spec.file, { ...spec, readText: options.readText ?? spec.readText });
    if (text === null || text === undefined) continue;
    const layer = parseYamlLayer(text, spec.file, spec.role);
    resolveLayerPaths(layer, spec.baseDir);
    layers.push(layer);
  }
  if (Object.keys(flagSkill).length > 0)
    layers.push({ source: FLAGS_SOURCE, isFile: false, data: { skill: flagSkill } });

  const merged = mergeLayers(layers);
  // The schema loads on use: a start served from the memo never builds it.
  const { ConfigSchema } = await import("./schema.js");
  const parsed = ConfigSchema.safeParse(merged);
  if (!parsed.success) {
    const problems = problemsFromIssues(parsed.error.issues, merged, layers, ConfigSchema);
    throw new SkillgateError("CONFIG_INVALID", problemsMessage(problems), { problems });
  }
  const config = parsed.data;
  // Flag paths add to the configured ones (a flag names one more folder, it does not drop the config's).
  for (const p of extraFromFlags) {
    if (!config.skill.extra_skill_path.includes(p)) config.skill.extra_skill_path.push(p);
  }
  const result = { config, sources: layers.map((layer) => layer.source) };
  if (memo && texts) await rememberConfig(memo, question, texts, result);
  return result;
}

function readTexts(specs: ReadonlyArray<LayerSpec>) {
  return Promise.all(specs.map((spec) => readLayerText(spec.file, spec)));
}
