// Entry of the small catalog bundle: `skillgate catalog ROOT [--json]` without commander or any other verb's code.
import fs from "node:fs";
import { createRequire } from "node:module";
import { type CliIO, processIO } from "../io.js";
import { runCatalog } from "./catalog-run.js";

export interface CatalogArgvOptions {
  /**
   * End the process as soon as the catalog is written (the launcher's one-shot process): skips Node's teardown
   * of the heap and environment, about a tenth of a cold 2,000-skill catalog's CPU (docs/performance.md). Only
   * when everything went out synchronously; output the fd could not take at once still drains through the stream.
   */
  exitWhenDone?: boolean;
}

/**
 * Runs `catalog` when `args` (what follows the verb) is exactly one root and at most one `--json`, and returns
 * true; returns false for anything else (help, other options, a root starting with "-"), which the full CLI
 * then parses, so its usage errors and help stay the only ones.
 */
export function runCatalogArgv(args: readonly string[], options: CatalogArgvOptions = {}): boolean {
  const json = args.filter((arg) => arg === "--json").length;
  const roots = args.filter((arg) => arg !== "--json");
  const root = roots[0];
  if (json > 1 || roots.length !== 1 || root === undefined || root === "" || root.startsWith("-"))
    return false;
  const io = new FdIO();
  try {
    runCatalog(root, json === 1, io);
  } catch (error) {
    io.err(
      `skillgate: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    io.setExitCode(1);
  }
  io.flush();
  if (options.exitWhenDone && io.synchronous) process.exit();
  return true;
}

/**
 * processIO's output written straight to fds 1 and 2 with writeSync: the catalog is one or a few big writes, and
 * process.stdout would first build a stream (net, stream and tty modules). stdout is held and written at the end or
 * before anything goes to stderr, so the order of the two stays as processIO gives it. A fd that would block
 * (EAGAIN: a non-blocking pipe) hands the rest to processIO's streams; a reader that left (EPIPE) ends the process
 * quietly, as processIO does.
 */
class FdIO implements CliIO {
  /** False once any output went to a stream (it is written asynchronously: the process must not end at once). */
  synchronous = true;
  private held: string[] = [];
  private colourOn: boolean | null = null;
  private viaStreams = false;

  out(text: string): void {
    this.held.push(text.endsWith("\n") ? text : `${text}\n`);
  }

  err(text: string): void {
    this.flush();
    this.write(2, text.endsWith("\n") ? text : `${text}\n`);
  }

  colour(name: keyof typeof ANSI, text: string): string {
    // processIO's rule (a TTY and no NO_COLOR), asked without building process.stdout: that stream would make a
    // pipe's fd non-blocking. node:tty loads only here (text mode, errors): it pulls in the net module.
    this.colourOn ??=
      !process.env.NO_COLOR &&
      (createRequire(import.meta.url)("node:tty") as typeof import("node:tty")).isatty(1);
    const [on, off] = ANSI[name];
    return this.colourOn ? `\u001b[${on}m${text}\u001b[${off}m` : text;
  }

  setExitCode(code: number): void {
    if (code > Number(process.exitCode ?? 0)) process.exitCode = code;
  }

  flush(): void {
    if (this.held.length === 0) return;
    const text = this.held.length === 1 ? (this.held[0] as string) : this.held.join("");
    this.held = [];
    this.write(1, text);
  }

  private write(fd: 1 | 2, text: string): void {
    if (this.viaStreams) {
      (fd === 1 ? process.stdout : process.stderr).write(text);
      return;
    }
    const bytes = Buffer.from(text, "utf8");
    let offset = 0;
    try {
      while (offset < bytes.length) offset += fs.writeSync(fd, bytes, offset, bytes.length - offset);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EPIPE") process.exit(Number(process.exitCode ?? 0));
      if (code !== "EAGAIN") throw error;
      processIO(); // its EPIPE guard on the streams
      this.viaStreams = true;
      this.synchronous = false;
      (fd === 1 ? process.stdout : process.stderr).write(bytes.subarray(offset));
    }
  }
}

/** processIO's colours (runtime/cli/io.ts). */
const ANSI = {
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  dim: [2, 22],
  bold: [1, 22],
} as const;
