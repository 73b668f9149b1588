// Terminal output for CLI verbs: stdout/stderr writers, JSON mode, colour only on a TTY, exit codes.
import { writeSync } from "node:fs";
import { isatty } from "node:tty";
import { type ErrorCode, isSkillgateError } from "../errors.js";

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

export interface CliIO {
  out(text: string): void;
  err(text: string): void;
  /** Wraps text in an ANSI colour when stdout is a TTY and NO_COLOR is unset. */
  colour(name: "red" | "green" | "yellow" | "dim" | "bold", text: string): string;
  /** Sets the process exit code (never lowers a worse one). */
  setExitCode(code: number): void;
}

const ANSI: Record<string, [number, number]> = {
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  dim: [2, 22],
  bold: [1, 22],
};

/** `skillgate catalog … | head`: the reader left, so stop quietly instead of crashing on EPIPE. */
function guardClosedPipe(stream: NodeJS.WriteStream): NodeJS.WriteStream {
  if (guarded.has(stream)) return stream;
  guarded.add(stream);
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(Number(process.exitCode ?? 0));
    throw error;
  });
  return stream;
}
const guarded = new Set<NodeJS.WriteStream>();
let streamsWatched = false;

/**
 * Writes `text` to fd 1 or 2 with write(2), as long as the descriptor takes it whole: a one-shot verb then never
 * creates process.stdout / process.stderr (for a pipe that loads net and the stream stack, a few ms of every
 * start). What Node does for pipes, files and terminals on Linux is a synchronous write too, so the order of the
 * output is the same. A descriptor that cannot take it now (EAGAIN: a non-blocking pipe that is full) gets the rest
 * through the stream, and so does every later write to it (as does any other error: the stream handles closed or
 * odd descriptors as before); EPIPE (the reader left) ends the process quietly.
 */
function writer(fd: 1 | 2, stream: () => NodeJS.WriteStream): (text: string) => void {
  let streamed = false;
  return (text) => {
    if (streamed) {
      guardClosedPipe(stream()).write(text);
      return;
    }
    let rest = Buffer.from(text, "utf8");
    try {
      while (rest.length > 0) rest = rest.subarray(writeSync(fd, rest));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EPIPE") process.exit(Number(process.exitCode ?? 0));
      streamed = true;
      guardClosedPipe(stream()).write(rest);
    }
  };
}

/**
 * Whoever creates process.stdout or process.stderr (our fallback, commander's help, connect's relay) gets it with
 * the EPIPE guard, as before, while a verb that never needs the stream never creates it.
 */
function guardStreamsOnCreation(): void {
  for (const name of ["stdout", "stderr"] as const) {
    const own = Object.getOwnPropertyDescriptor(process, name);
    const create = own?.get;
    if (!own?.configurable || create === undefined) {
      guardClosedPipe(process[name]);
      continue;
    }
    Object.defineProperty(process, name, { ...own, get: () => guardClosedPipe(create.call(process)) });
  }
}

export function processIO(): CliIO {
  if (!streamsWatched) {
    streamsWatched = true;
    guardStreamsOnCreation();
  }
  const out = writer(1, () => process.stdout);
  const err = writer(2, () => process.stderr);
  let useColour: boolean | undefined;
  return {
    out: (text) => out(text.endsWith("\n") ? text : `${text}\n`),
    err: (text) => err(text.endsWith("\n") ? text : `${text}\n`),
    colour: (name, text) => {
      // isatty(1) is what process.stdout.isTTY reports, without creating the stream (the bundle loads tty on use).
      useColour ??= isatty(1) && !process.env.NO_COLOR;
      const codes = ANSI[name];
      return useColour && codes ? `\u001b[${codes[0]}m${text}\u001b[${codes[1]}m` : text;
    },
    setExitCode: (code) => {
      if (code > Number(process.exitCode ?? 0)) process.exitCode = code;
    },
  };
}

/** Codes that mean the command line itself is wrong (exit 2) in every verb; everything else is failed work (1). */
const USAGE_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>(["USAGE", "FLAG_CONFLICT", "PATH_NOT_FOUND"]);

export function exitCodeFor(code: ErrorCode): number {
  return USAGE_CODES.has(code) ? EXIT_USAGE : EXIT_FAILED;
}

/** Prints an error the user can act on; the exit code follows exitCodeFor. */
export function reportError(io: CliIO, error: unknown, json: boolean): void {
  if (isSkillgateError(error)) {
    if (json) io.out(JSON.stringify({ ok: false, error: error.toJSON() }, null, 2));
    else io.err(`${io.colour("red", "error")} [${error.code}]: ${error.message}`);
    io.setExitCode(exitCodeFor(error.code));
    return;
  }
  throw error;
}
