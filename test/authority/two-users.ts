// Two real OS users for authority-mode tests: a copy of skillgate they can run, a shared workspace, their homes, and runners.
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { findExecutable, resolveShim } from "../../runtime/exec/runner.js";
import { prepareDefaultWorkspace } from "../../runtime/mcp/default-workspace.js";
import { tempRoot } from "../support/workspace.js";
import { REPO_ROOT } from "../tools/helpers.js";
import { type Outcome, type Runner, run } from "./helpers.js";

export const AUTHORITY = "sg-auth-a";
export const AGENT = "sg-auth-b";
export const OUTSIDER = "sg-auth-c";

export interface Principal {
  name: string;
  uid: number;
  gid: number;
}

export interface TwoUsers {
  base: string;
  /** The copy of skillgate every user can read and execute. */
  app: string;
  authority: Principal;
  agent: Principal;
  outsider: Principal;
  homeA: string;
  homeB: string;
  envA: NodeJS.ProcessEnv;
  envB: NodeJS.ProcessEnv;
  envC: NodeJS.ProcessEnv;
  runner(user: Principal): Runner;
  /** A fresh workspace owned by the agent, shared with the authority through the agent's group (setgid). */
  workspace(name: string): Promise<string>;
  /** Runs argv as `user` with `env`. */
  as(user: Principal, argv: string[], env: NodeJS.ProcessEnv, input?: string): Promise<Outcome>;
  cleanup(): void;
}

function principal(name: string): Principal {
  const uid = Number(execFileSync("id", ["-u", name], { encoding: "utf8" }).trim());
  const gid = Number(execFileSync("id", ["-g", name], { encoding: "utf8" }).trim());
  return { name, uid, gid };
}

function asUser(user: Principal): string[] {
  return ["setpriv", `--reuid=${user.name}`, `--regid=${user.name}`, "--init-groups", "--"];
}

function copy(from: string, to: string, hardLinks: boolean): void {
  // Hard links make the 300 MB node_modules copy instant; across file systems a real copy is made.
  if (hardLinks && spawnSync("cp", ["-al", from, to]).status === 0) return;
  execFileSync("cp", ["-a", from, to]);
}

/**
 * Needs root (CI runs as root): creates the users (scripts/authority-test-users.sh, also run by .ci/run), then a
 * world-readable copy of this checkout, because a clean clone under /root is not reachable by other users.
 */
export function setupTwoUsers(): TwoUsers {
  const uid = process.getuid?.();
  if (uid !== 0) {
    throw new Error(
      `the authority tests need root to create OS users and run processes as them (CI runs as root); got uid ${uid}`,
    );
  }
  execFileSync(join(REPO_ROOT, "scripts", "authority-test-users.sh"), { stdio: "inherit" });
  const authority = principal(AUTHORITY);
  const agent = principal(AGENT);
  const outsider = principal(OUTSIDER);

  // /tmp, not $TMPDIR: the other users must reach it.
  const temp = tempRoot("sg-auth-", { parent: "/tmp" });
  const base = temp.dir;
  chmodSync(base, 0o755);
  const app = join(base, "app");
  mkdirSync(app);
  for (const entry of ["package.json", "tsconfig.json", "runtime", "skills", "guide_doc", "examples"]) {
    copy(join(REPO_ROOT, entry), join(app, entry), false);
  }
  copy(join(REPO_ROOT, "node_modules"), join(app, "node_modules"), true);
  // uv may live under /root (pyenv): a copy in its own folder (never a folder holding a home or a key).
  const tools = join(base, "tools", "bin");
  mkdirSync(tools, { recursive: true });
  const uv = findExecutable("uv");
  if (uv === null) throw new Error("uv is not on PATH; .ci/run installs it");
  copyFileSync(realpathSync(resolveShim(uv)), join(tools, "uv"));
  chmodSync(join(tools, "uv"), 0o755);

  const home = (name: string, owner: Principal, config?: string): string => {
    const dir = join(base, name);
    mkdirSync(join(dir, "tmp"), { recursive: true, mode: 0o700 });
    if (config !== undefined) {
      mkdirSync(join(dir, ".skillgate"), { recursive: true, mode: 0o700 });
      writeFileSync(join(dir, ".skillgate", "config.yaml"), config);
    }
    chmodSync(dir, 0o700);
    execFileSync("chown", ["-R", `${owner.uid}:${owner.gid}`, dir]);
    return dir;
  };
  // The authority is a normal user, and where the kernel refuses it a user-mode network (a /dev/net/tun only root
  // may open, as on this CI image) a network grant fails closed; so its operator config drops the runner skills'
  // grants. The workflow's reproductions are stdlib-only (`dependencies = []`) and need no network.
  const homeA = home(
    "home-a",
    authority,
    "exec:\n  grants:\n    runners/python-runner:\n      network: false\n    runners/js-runner:\n      network: false\n",
  );
  const homeB = home("home-b", agent);
  const homeC = home("home-c", outsider);
  // Each user gets a private TMPDIR: a temp folder shared between users (e.g. one root made) is not writable by them.
  const env = (dir: string): NodeJS.ProcessEnv => ({
    PATH: `${tools}:/usr/local/bin:/usr/bin:/bin`,
    HOME: dir,
    TMPDIR: join(dir, "tmp"),
    SKILLGATE_HOME: join(dir, ".skillgate"),
    LANG: "C.UTF-8",
    NO_COLOR: "1",
  });
  const tsx = join(app, "node_modules", ".bin", "tsx");
  const main = join(app, "runtime", "cli", "main.ts");
  return {
    base,
    app,
    authority,
    agent,
    outsider,
    homeA,
    homeB,
    envA: env(homeA),
    envB: env(homeB),
    envC: env(homeC),
    runner: (user) => ({ prefix: asUser(user), tsx, main, cwd: base }),
    async workspace(name) {
      const ws = join(base, name);
      await prepareDefaultWorkspace(ws);
      // What docs/authority.md tells the operator to do: the agent owns it, the authority writes through the group.
      execFileSync("chown", ["-R", `${agent.uid}:${agent.gid}`, ws]);
      execFileSync("chmod", ["-R", "g+rwX", ws]);
      execFileSync("find", [ws, "-type", "d", "-exec", "chmod", "g+s", "{}", "+"]);
      return ws;
    },
    as: (user, argv, env, input) => run([...asUser(user), ...argv], env, base, input),
    cleanup: () => temp.cleanup(),
  };
}
