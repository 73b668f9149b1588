// Terminal output for CLI verbs: stdout/stderr writers, JSON mode, colour only on a TTY, exit codes.
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

let pipeGuarded = false;

/** `skillgate catalog … | head`: the reader left, so stop quietly instead of crashing on EPIPE. */
function guardClosedPipes(): void {
  if (pipeGuarded) return;
  pipeGuarded = true;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EPIPE") process.exit(Number(process.exitCode ?? 0));
      throw error;
    });
  }
}

export function processIO(): CliIO {
  guardClosedPipes();
  const useColour = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
  return {
    out: (text) => process.stdout.write(text.endsWith("\n") ? text : `${text}\n`),
    err: (text) => process.stderr.write(text.endsWith("\n") ? text : `${text}\n`),
    colour: (name, text) => {
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
