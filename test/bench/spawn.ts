// Plain process baseline for the helper benches: spawn argv (no shell, no sandbox, no limits), wait for it to close.
import { spawn } from "node:child_process";

/**
 * The environment a plain baseline gets: what a sandboxed run gets too (PATH, HOME, LANG). Not process.env: under
 * vitest it carries NODE_EXTRA_CA_CERTS, which makes every node start parse the CA bundle (+85 ms a start on this machine).
 */
export const PLAIN_ENV: NodeJS.ProcessEnv = {
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  HOME: process.env.HOME ?? "/tmp",
  LANG: "C.UTF-8",
};

/** Runs argv to completion; rejects on a non-zero exit so a broken baseline cannot pass as a fast one. */
export function spawnPlain(argv: string[], cwd: string, env: NodeJS.ProcessEnv = PLAIN_ENV): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0] as string, argv.slice(1), { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    child.once("error", reject);
    child.once("close", (code) =>
      code === 0 ? resolve(output) : reject(new Error(`${argv.join(" ")} exited ${code}: ${output}`)),
    );
  });
}
