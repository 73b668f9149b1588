// Splits a RunSkillScript args string into argv with Python `shlex.split` semantics (posix, no comments).
import { split } from "shlex";
import { SkillgateError } from "../errors.js";

/**
 * The npm `shlex` lexer also understands bash `$'...'` and `$"..."` quoting, which Python's shlex
 * does not. Escaping every unquoted `$` keeps Python's result (outside quotes `\$` is `$`) and
 * switches those bash extensions off.
 */
function escapeUnquotedDollars(text: string): string {
  let out = "";
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < text.length; i++) {
    const char = text.charAt(i);
    if (quote === "'") {
      if (char === "'") quote = null;
      out += char;
    } else if (char === "\\" && i + 1 < text.length) {
      out += char + text.charAt(i + 1);
      i++;
    } else if (quote === '"') {
      if (char === '"') quote = null;
      out += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      out += char;
    } else if (char === "$") {
      out += "\\$";
    } else {
      out += char;
    }
  }
  return out;
}

const PYTHON_MESSAGES: Record<string, string> = {
  "Got EOF while in a quoted string": "No closing quotation",
  "Got EOF while in an escape sequence": "No escaped character",
};

// Why a shim over npm `shlex`: alone it accepts bash `$'...'`/`$"..."` and words errors its own way; the escape and PYTHON_MESSAGES give Python's result and message.
/** Python `shlex.split(text)`; throws INVALID_ARGS with Python's wording on a lexing error. */
export function splitArgs(text: string): string[] {
  try {
    return split(escapeUnquotedDollars(text));
  } catch (error) {
    const raw = error instanceof Error ? error.message : String(error);
    const reason = PYTHON_MESSAGES[raw] ?? raw;
    throw new SkillgateError("INVALID_ARGS", `failed to parse args: ${reason}`, { args: text });
  }
}
