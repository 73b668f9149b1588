// The one zod schema for skillgate configuration: skill keys, script limits/sandbox and the workflow stages.
import { z } from "zod";

export const CheckerSchema = z
  .object({
    kind: z
      .enum(["file_exists", "markdown_headings", "markdown_entries", "regex_count", "json_schema", "command"])
      .describe("Built-in checker kind (data, not code)."),
    args: z
      .record(z.string(), z.unknown())
      .default({})
      .describe("Arguments of the checker kind; see docs/formats.md, Checker kinds."),
  })
  .strict()
  .describe("One checker of a stage.");

export const StageSchema = z
  .object({
    name: z.string().min(1).describe("Unique stage name."),
    desc: z.string().default("").describe("One-line description of the stage."),
    task: z.array(z.string()).default([]).describe("Task lines shown to the agent."),
    guide_doc: z
      .string()
      .optional()
      .describe("Workspace-relative or pack-relative guide with the full method."),
    output_files: z
      .array(z.string())
      .default([])
      .describe("Files the stage produces (may use {OUT}/{DUT}); fingerprinted after Check."),
    checker: z.array(CheckerSchema).default([]).describe("Checkers run in order by Check and Complete."),
    skill_list: z
      .array(z.string())
      .default([])
      .describe("Skill ids the agent must prove it used (when forced)."),
    force_use_skill: z
      .boolean()
      .default(true)
      .describe("When true and skills are enabled, Complete is gated on skill_list evidence."),
  })
  .strict()
  .describe("One stage of the workflow.");

export const SkillLimitsSchema = z
  .object({
    timeout_seconds: z.number().positive().optional().describe("Wall-clock limit of one script run."),
    memory_mb: z.number().int().positive().optional().describe("Memory limit of the script's process tree."),
    output_bytes: z.number().int().positive().optional().describe("Combined stdout+stderr cap in bytes."),
    sandbox_level: z
      .union([z.literal(1), z.literal(2), z.literal(3)])
      .optional()
      .describe("Isolation level."),
  })
  .strict();

export const GrantSchema = z
  .object({
    network: z
      .boolean()
      .default(false)
      .describe(
        "Outbound network through a user-mode stack in the run's own network namespace (host loopback and abstract sockets stay unreachable).",
      ),
    env: z
      .array(z.string())
      .default([])
      .describe("Host environment variable names passed to the skill's runs (the allow-list still applies)."),
  })
  .strict()
  .describe("What the operator grants one skill.");

export const ExecSchema = z
  .object({
    sandbox_level: z
      .union([z.literal(1), z.literal(2), z.literal(3)])
      .default(2)
      .describe(
        "1 limits only; 2 OS sandbox + limits; 3 sandbox + limits + static scan refusing critical findings.",
      ),
    allow_unsandboxed: z
      .boolean()
      .default(false)
      .describe("Explicit opt-in to run without the OS sandbox when it is unavailable (warns once)."),
    approve_scan_findings: z
      .array(z.string())
      .default([])
      .describe("Skill ids whose critical scan findings are approved at level 3."),
    timeout_seconds: z
      .number()
      .positive()
      .default(30)
      .describe("Default wall-clock limit of one script run."),
    max_timeout_seconds: z.number().positive().default(600).describe("Hard maximum any override may reach."),
    memory_mb: z.number().int().positive().default(512).describe("Default memory limit (process tree RSS)."),
    output_bytes: z
      .number()
      .int()
      .positive()
      .default(1_048_576)
      .describe("Default stdout+stderr cap in bytes."),
    max_processes: z.number().int().positive().default(256).describe("Processes/threads limit."),
    max_file_size_mb: z.number().int().positive().default(256).describe("Largest file a script may write."),
    max_open_files: z.number().int().positive().default(1024).describe("Open file descriptor limit."),
    workspace_files: z
      .number()
      .int()
      .positive()
      .default(10_000)
      .describe(
        "Most new files, folders and links one script run may add to its writable area (workspace and run temp folder); more stops the run (an inode flood).",
      ),
    workspace_mb: z
      .number()
      .int()
      .positive()
      .default(256)
      .describe(
        "Most MiB one script run may add to its writable area (workspace and run temp folder); more stops the run.",
      ),
    skill_overrides: z
      .record(z.string(), SkillLimitsSchema)
      .default({})
      .describe("Per-skill limit overrides keyed by skill id."),
    grants: z
      .record(z.string(), GrantSchema)
      .default({})
      .describe(
        "Capabilities granted by the operator per skill id (network, host environment variables); a skill's own metadata never grants them.",
      ),
    call_timeout_seconds: z
      .number()
      .positive()
      .default(900)
      .describe("Total time budget of one RunSkillScript call, across all its commands."),
    max_parallel_runs: z
      .union([z.literal("auto"), z.literal("cores"), z.number().int().positive()])
      .default("auto")
      .describe(
        'RunSkillScript calls of one session (every client of a server) that run at once; later calls wait in arrival order. "auto": 4 per processor skillgate may use (a call waits on the sandbox set-up and the ledger more than it computes); "cores": one per processor.',
      ),
    sandbox_uid: z
      .number()
      .int()
      .positive()
      .default(2_147_000_001)
      .describe(
        "Host uid sandboxed runs use when skillgate runs as root (never 0); give it no real user. Ignored for a normal user, whose own uid is used.",
      ),
  })
  .strict()
  .describe("Script run limits and sandbox.");

export const SkillConfigSchema = z
  .object({
    use_skill: z.boolean().default(true).describe("Turn skill support on or off."),
    extra_skill_path: z
      // Users often write a single path as a plain string; accept it and normalise to a list.
      .preprocess((value) => (typeof value === "string" ? [value] : value), z.array(z.string()))
      .default([])
      .describe("Extra skill folders (one path or a list) copied under skills/ext/ at init."),
    max_skill_list_count: z
      .number()
      .int()
      .min(0)
      .default(15)
      .describe("Cap on ListSkill entries (stage skills never capped); 0 = no cap."),
    general_skill_list: z
      .array(z.string())
      .default([])
      .describe("Skills listed in every stage after stage skills."),
    enable_skill_list: z
      .array(z.string())
      .default([])
      .describe("Copy only these skills (id or folder name); wins over disable."),
    disable_skill_list: z
      .array(z.string())
      .default([])
      .describe("Do not copy these skills (id or folder name)."),
    trusted_hooks: z
      .record(
        z.string().describe("skill id"),
        z.string().regex(/^[0-9a-f]{64}$/, "a lowercase sha256 hex digest"),
      )
      .default({})
      .describe(
        "Skills (other than the bundled pack's) whose hooks.ts may load, each with the sha256 of the hooks.ts trusted; hooks run in the server process.",
      ),
    pack_path: z
      .string()
      .optional()
      .describe("Skill pack to copy at init; defaults to the bundled skills/ folder."),
  })
  .strict()
  .describe("Skill support.");

export const ConfigSchema = z
  .object({
    DUT: z.string().default("dut").describe("Design/target under work; workspace-relative or absolute."),
    OUT: z.string().default("out").describe("Output folder; workspace-relative or absolute."),
    write_dirs: z
      .array(z.string())
      .default(["{OUT}"])
      .describe(
        "Folders the file tools (EditTextFile, CopyFile, ...) may write into; workspace-relative, {OUT}/{DUT} allowed. " +
          "Folders outside the workspace are ignored.",
      ),
    un_write_dirs: z
      .array(z.string())
      .default(["{DUT}", "guide_doc"])
      .describe(
        "Folders the file tools never write into, even inside write_dirs (.ucagent/ is always refused).",
      ),
    file_tools: z
      .boolean()
      .default(true)
      .describe(
        "Offer the UCAgent file tools (EditTextFile, ReplaceStringInFile, PathList, ...); false leaves them out, " +
          "like `serve --no-file-tools`, for hosts that bring their own.",
      ),
    skill: SkillConfigSchema.default(SkillConfigSchema.parse({})),
    exec: ExecSchema.default(ExecSchema.parse({})),
    stage: z.array(StageSchema).default([]).describe("The workflow: stages in order."),
  })
  .strict()
  .describe("skillgate configuration.");

export type SkillgateConfig = z.infer<typeof ConfigSchema>;
export type StageConfig = z.infer<typeof StageSchema>;
export type CheckerConfig = z.infer<typeof CheckerSchema>;
export type ExecConfig = z.infer<typeof ExecSchema>;
