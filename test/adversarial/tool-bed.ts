// Adversarial test bed at the tool layer: an initialised workspace with hostile extra skills, host canaries and survivor checks.
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";
import type { ToolResult } from "../../runtime/contracts/index.js";
import { callTool } from "../../runtime/tools/registry.js";
import type { CommandRecord } from "../../runtime/tools/run-skill-script.js";
import { type OpenedSession, openSession } from "../../runtime/tools/session.js";
import { sha256 } from "../support/host-probes.js";
import { tempRoot } from "../support/workspace.js";
import { fixtureConfig } from "../tools/helpers.js";

export interface HostileSkill {
  /** Folder name under the extra skill path; its id is ext/<name>. */
  name: string;
  metadata?: Record<string, string>;
  /** scripts/<file> → content. */
  scripts: Record<string, string>;
  /** scripts/script_runner.json, when given. */
  runners?: Record<string, string>;
  /** hooks.ts beside SKILL.md, when given. */
  hooks?: string;
  /** Raw SKILL.md (replaces the generated one). */
  skillMd?: string;
}

export interface BedOptions {
  skills: HostileSkill[];
  /** Merged over the small default exec limits. */
  exec?: Record<string, unknown>;
  skill?: Record<string, unknown>;
  /** Workspace folder (default <dir>/ws). */
  workspace?: (dir: string) => string;
}

export interface Bed {
  dir: string;
  ws: string;
  home: string;
  extra: string;
  session: OpenedSession;
  env: NodeJS.ProcessEnv;
  configFile: string;
  call(tool: string, args: unknown): Promise<ToolResult>;
  /** RunSkillScript of one command of ext/<skill>. */
  run(skill: string, script: string, args?: string): Promise<ToolResult>;
  cleanup(): void;
}

export const SMALL_EXEC = {
  sandbox_level: 2,
  timeout_seconds: 5,
  memory_mb: 128,
  output_bytes: 65_536,
  max_processes: 64,
  max_file_size_mb: 8,
  max_open_files: 64,
};

function skillMd(skill: HostileSkill): string {
  const metadata = Object.entries(skill.metadata ?? {})
    .map(([key, value]) => `  ${key}: ${JSON.stringify(value)}\n`)
    .join("");
  return `---\nname: ${skill.name}\ndescription: A hostile test skill.\n${metadata ? `metadata:\n${metadata}` : ""}---\nRun its scripts.\n`;
}

export async function makeBed(options: BedOptions): Promise<Bed> {
  const temp = tempRoot("sg-sandbox-adv-", { realpath: true });
  const dir = temp.dir;
  const home = join(dir, "home");
  const extra = join(dir, "extra");
  const ws = options.workspace?.(dir) ?? join(dir, "ws");
  mkdirSync(home, { recursive: true });
  for (const skill of options.skills) {
    const root = join(extra, skill.name);
    mkdirSync(join(root, "scripts"), { recursive: true });
    writeFileSync(join(root, "SKILL.md"), skill.skillMd ?? skillMd(skill));
    for (const [file, content] of Object.entries(skill.scripts)) {
      writeFileSync(join(root, "scripts", file), content);
      chmodSync(join(root, "scripts", file), 0o755);
    }
    if (skill.runners)
      writeFileSync(join(root, "scripts", "script_runner.json"), JSON.stringify(skill.runners));
    if (skill.hooks !== undefined) writeFileSync(join(root, "hooks.ts"), skill.hooks);
  }
  const base = fixtureConfig();
  const config = {
    ...base,
    skill: { ...(base.skill as object), ...options.skill },
    exec: { ...SMALL_EXEC, ...options.exec },
  };
  const configFile = join(dir, "config.yaml");
  writeFileSync(configFile, stringify(config));
  const env = { ...process.env, SKILLGATE_HOME: join(home, ".skillgate"), NO_COLOR: "1" };
  const session = await openSession({
    workspace: ws,
    configFile,
    env,
    argvFlags: ["--extra-skill-path", extra],
  });
  return {
    dir,
    ws,
    home,
    extra,
    session,
    env,
    configFile,
    call: (tool, args) => callTool(session, tool, args),
    run: (skill, script, args = "") =>
      callTool(session, "RunSkillScript", { commands: [[`ext/${skill}`, script, args]] }),
    cleanup: temp.cleanup,
  };
}

/** The first command record of a RunSkillScript result. */
export function record(result: ToolResult): CommandRecord {
  const commands = result.structured.commands as CommandRecord[] | undefined;
  const first = commands?.[0];
  if (!first) throw new Error(`no command record in: ${result.text}`);
  return first;
}

const SYSCTLS = [
  "kernel/core_pattern",
  "kernel/randomize_va_space",
  "kernel/panic",
  "kernel/hostname",
  "kernel/modprobe",
  "vm/overcommit_memory",
  "fs/protected_symlinks",
  "net/ipv4/ip_forward",
];

function quiet(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): string {
  try {
    return execFileSync(command, args, { encoding: "utf8", env, stdio: ["ignore", "pipe", "pipe"] });
  } catch (error) {
    return `failed: ${(error as { stderr?: string }).stderr ?? String(error)}`;
  }
}

export interface Canaries {
  /** A key in this uid's user keyring, read back through keyctl. */
  keyId: string;
  files: string[];
  snapshot(): Record<string, string>;
}

/** Host state a run must never change: files, sysctls, a keyring key, git config (global and the workspace's). */
export function hostCanaries(bed: Bed, files: string[] = []): Canaries {
  const keyId = execFileSync(
    "keyctl",
    ["add", "user", `sg-sandbox-canary-${process.pid}`, "canary-key-value", "@u"],
    {
      encoding: "utf8",
    },
  ).trim();
  const gitEnv = { ...process.env, HOME: bed.home, GIT_CONFIG_NOSYSTEM: "1" };
  const watched = [
    join(bed.home, ".gitconfig"),
    join(bed.home, ".bashrc"),
    join(bed.ws, ".git", "config"),
    join(bed.ws, "dut", ".git", "config"),
    "/etc/passwd",
    "/etc/hosts",
    ...files,
  ];
  return {
    keyId,
    files: watched,
    snapshot() {
      const state: Record<string, string> = {};
      for (const file of watched) state[file] = sha256(file);
      for (const name of SYSCTLS) state[`sysctl:${name}`] = quiet("cat", [`/proc/sys/${name}`]);
      state.keyring = quiet("keyctl", ["print", keyId]);
      state["git:global"] = quiet("git", ["config", "--global", "--list"], gitEnv);
      for (const repo of [bed.ws, join(bed.ws, "dut")]) {
        state[`git:${repo}`] = existsSync(join(repo, ".git"))
          ? quiet("git", ["-C", repo, "config", "--list", "--local"], gitEnv)
          : "none";
        const hooks = join(repo, ".git", "hooks");
        state[`hooks:${repo}`] = existsSync(hooks) ? readdirSync(hooks).sort().join(",") : "none";
      }
      return state;
    },
  };
}

/** Plants git repositories (top-level and nested) and a global git config in the bed. */
export function plantGit(bed: Bed): void {
  writeFileSync(join(bed.home, ".gitconfig"), "[user]\n\tname = canary\n");
  writeFileSync(join(bed.home, ".bashrc"), "# canary bashrc\n");
  for (const repo of [bed.ws, join(bed.ws, "dut")]) {
    mkdirSync(repo, { recursive: true });
    execFileSync("git", ["init", "-q", repo], { env: { ...process.env, HOME: bed.home } });
  }
}

/**
 * Points this process's SKILLGATE_HOME at the bed's: RunSkillScript reads the host environment (not the session's)
 * for the `.ts` cache, which would otherwise land in the real ~/.skillgate. Returns the restore function.
 */
export function useBedHome(bed: Bed): () => void {
  const saved = process.env.SKILLGATE_HOME;
  process.env.SKILLGATE_HOME = bed.env.SKILLGATE_HOME;
  return () => {
    if (saved === undefined) delete process.env.SKILLGATE_HOME;
    else process.env.SKILLGATE_HOME = saved;
  };
}
