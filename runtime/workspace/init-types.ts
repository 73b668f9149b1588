// The shapes `skillgate init` takes and reports: options, progress, the guide and copy reports, the manifest it writes.
import type { RuntimeConfig, SkillgateConfig } from "../config/index.js";
import type { CopyManifest, ManifestEntry } from "./manifest.js";

export interface InitProgress {
  copied: number;
  total: number;
}

export interface InitOptions {
  workspace: string;
  config: SkillgateConfig;
  onProgress?: (progress: InitProgress) => void;
  now?: () => Date;
}

/** What init did to <ws>/guide_doc (stage guides are copied whether skills are enabled or not). */
export interface GuideReport {
  /** The pack's guide folder that was copied; null when the pack has none. */
  source: string | null;
  /** <ws>/guide_doc */
  dir: string;
  /** Workspace-relative guide files now in the workspace ("guide_doc/..."), sorted. */
  files: string[];
  /** Files (re)written this time. */
  written: number;
  /** Files removed because they left the source. */
  removed: number;
}

/** The manifest as init writes it: the copy manifest plus the guides (keyed workspace-relative). */
export interface InitManifest extends CopyManifest {
  guide_path?: string | null;
  guides?: Record<string, ManifestEntry>;
}

export interface InitReport {
  workspace: string;
  skillsEnabled: boolean;
  skillsDir: string;
  /** Pack that was copied; null when skills are disabled. */
  packPath: string | null;
  extraPaths: string[];
  /** Skill ids copied. */
  skills: string[];
  /** Skill ids left out by enable_skill_list / disable_skill_list. */
  excluded: string[];
  /** Files in the copy. */
  files: number;
  /** Files (re)written this time. */
  written: number;
  /** Files already up to date. */
  unchanged: number;
  /** Files pruned because they left the source (or were added to the copy by hand). */
  removed: number;
  warnings: string[];
  guides: GuideReport;
  runtimeConfig: RuntimeConfig;
  runtimeConfigFile: string;
  manifestFile: string;
}

export type PackReport = Omit<
  InitReport,
  "runtimeConfig" | "runtimeConfigFile" | "manifestFile" | "workspace" | "skillsEnabled" | "guides"
>;
