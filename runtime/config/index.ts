// Public API of configuration: schema, layered loader, skill flags and the per-user home folder.

export type { ArgvSkillFlags, SkillFlagsOptions } from "./flags.js";
export { skillFlagsFromArgv } from "./flags.js";
export { skillgateHome, userConfigFile } from "./home.js";
export { parseYamlLayer } from "./layer.js";
export type { LoadConfigOptions, LoadedConfig, SkillFlags } from "./load.js";
export { defaultConfigFile, FLAGS_SOURCE, loadConfig } from "./load.js";
export type { ConfigMemo } from "./memo.js";
export type { ConfigProblem } from "./problems.js";
export { formatKeyPath } from "./problems.js";
export type { RuntimeConfig } from "./runtime-config.js";
export { RuntimeConfigSchema } from "./runtime-config.js";
export type { CheckerConfig, ExecConfig, SkillgateConfig, StageConfig } from "./schema.js";
export {
  CheckerSchema,
  ConfigSchema,
  ExecSchema,
  SkillConfigSchema,
  SkillLimitsSchema,
  StageSchema,
} from "./schema.js";
