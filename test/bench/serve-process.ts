// Bench helper: a built `skillgate serve --http` child (this build or another checkout's), its CPU from /proc, its stop.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { listeningUrl } from "../support/serve-listening.js";

const TICKS_PER_SECOND = 100;

/** `dist/runtime/cli/main.js` of another checkout and what it is (its git commit, when it is one). */
export function builtAt(dir: string, envName: string): { main: string; label: string } {
  const main = join(dir, "dist", "runtime", "cli", "main.js");
  if (!existsSync(main))
    throw new Error(`${envName}=${dir}: no ${main}; run npm ci && npm run build there first`);
  let commit = "not a git checkout";
  try {
    commit = execFileSync("git", ["-C", dir, "rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
  } catch {
    // the label says so
  }
  return { main, label: `the build at ${dir} (${commit}), its defaults` };
}

/** Spawns `node [nodeArgs] main serve --http 127.0.0.1:0 --json [args]`; resolves with its URL once it listens. */
export async function startServe(options: {
  main: string;
  nodeArgs: string[];
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
}): Promise<{ url: string; child: ChildProcess }> {
  const { main, nodeArgs, args, cwd, env } = options;
  const child = spawn(
    process.execPath,
    [...nodeArgs, main, "serve", "--http", "127.0.0.1:0", "--json", ...args],
    { cwd, env, stdio: ["ignore", "pipe", "pipe"] },
  );
  let log = "";
  let announce: ((url: string) => void) | undefined;
  const announcedOnStderr = new Promise<string>((resolve) => {
    announce = resolve;
  });
  // One log line per call: drained so the pipe never fills; the tail is kept for a failure message.
  child.stderr?.on("data", (chunk: Buffer) => {
    log = (log + chunk.toString("utf8")).slice(-4000);
    // Builds before the announcement moved to stdout (another checkout) printed it here.
    const line =
      announce &&
      log
        .split("\n")
        .slice(0, -1)
        .find((text) => text.startsWith('{"event":"listening"'));
    if (line) {
      announce?.((JSON.parse(line) as { url: string }).url);
      announce = undefined;
    }
  });
  const url = await Promise.race([listeningUrl(child, () => log), announcedOnStderr]);
  return { url, child };
}

export async function stopServe(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

/** CPU seconds of a process itself and of its reaped children (every run's bwrap and script), from /proc. */
export function cpuOf(pid: number): { self: number; children: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat
    .slice(stat.lastIndexOf(")") + 2)
    .split(" ")
    .map(Number);
  // Fields 14-17 of proc(5) (utime stime cutime cstime) are 11-14 after the command name.
  const [utime, stime, cutime, cstime] = fields.slice(11, 15) as [number, number, number, number];
  return { self: (utime + stime) / TICKS_PER_SECOND, children: (cutime + cstime) / TICKS_PER_SECOND };
}
