// Runs a command to its end and gives back its exit code, stdout and stderr, whether it succeeded or not.
import { type ExecFileOptions, execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface ProcessOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** A non-zero exit is an outcome to assert on, not a thrown error. */
export async function runProcess(
  file: string,
  args: string[],
  options: ExecFileOptions,
): Promise<ProcessOutcome> {
  try {
    const { stdout, stderr } = await run(file, args, { ...options, encoding: "utf8" });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as ProcessOutcome;
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/**
 * stdio for a child that gets descriptor `fd` at each number in `at`, without close-on-exec: what an agent host or
 * job runner that leaks a descriptor hands to skillgate. (Node marks low inherited numbers close-on-exec at its own
 * start, high ones it keeps, so tests hand high numbers.)
 */
export function handingDescriptor(fd: number, at: number[]): Array<"ignore" | "pipe" | "inherit" | number> {
  const stdio: Array<"ignore" | "pipe" | "inherit" | number> = ["ignore", "pipe", "pipe"];
  for (let n = 3; n <= Math.max(...at); n++) stdio.push(at.includes(n) ? fd : "ignore");
  return stdio;
}
