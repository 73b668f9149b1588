// Python semantics UCAgent applies to loaded frontmatter values: truthiness, str() and repr().
import { PY_FLOAT, PY_INT, pyIntValue } from "./pyyaml.js";

/** Python's bool(value) for what safe_load returns (None, bool, int/float, str, list, dict, set, bytes). */
export function pyTruthy(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return value !== 0; // NaN is truthy in Python
  if (typeof value === "string") return value !== "";
  if (Array.isArray(value) || value instanceof Uint8Array) return value.length > 0;
  if (value instanceof Set || value instanceof Map) return value.size > 0;
  if (typeof value === "object") return Object.keys(value).length > 0;
  return true;
}

/** A plain mapping (a Python dict): not a list, set, ordered map (!!omap is a list in PyYAML) or bytes. */
export function isPlainMapping(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * Python's str(value). `source` is the scalar as written, when known: it tells an int from a float
 * (JavaScript has one number type) and keeps big integers exact.
 */
export function pyStr(value: unknown, source?: string): string {
  if (typeof value === "string") return value;
  if (typeof value === "number") return pyNumber(value, source);
  return pyRepr(value);
}

function pyNumber(value: number, source?: string): string {
  if (source !== undefined && PY_INT.test(source)) return pyIntValue(source).toString();
  if (Number.isInteger(value) && !(source !== undefined && PY_FLOAT.test(source))) return String(value);
  return pyFloatRepr(value);
}

/** repr() of a Python float: shortest round-trip digits, exponent form below 1e-4 and from 1e16. */
export function pyFloatRepr(value: number): string {
  if (Number.isNaN(value)) return "nan";
  if (!Number.isFinite(value)) return value > 0 ? "inf" : "-inf";
  if (value === 0) return Object.is(value, -0) ? "-0.0" : "0.0";
  const [mantissa = "", exponentText = "0"] = value.toExponential().split("e");
  const exponent = Number(exponentText);
  const sign = mantissa.startsWith("-") ? "-" : "";
  const digits = mantissa.replace("-", "").replace(".", "");
  if (exponent >= 16 || exponent < -4) {
    const fraction = digits.length > 1 ? `.${digits.slice(1)}` : "";
    const exponentSign = exponent < 0 ? "-" : "+";
    return `${sign}${digits[0]}${fraction}e${exponentSign}${String(Math.abs(exponent)).padStart(2, "0")}`;
  }
  if (exponent < 0) return `${sign}0.${"0".repeat(-exponent - 1)}${digits}`;
  const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, "0");
  const fraction = digits.slice(exponent + 1) || "0";
  return `${sign}${whole}.${fraction}`;
}

/** Python's repr() of a loaded value (str() of containers is the repr of their items). */
export function pyRepr(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "number") return pyNumber(value);
  if (typeof value === "string") return pyStringRepr(value);
  if (value instanceof Uint8Array) {
    let text = "";
    for (const byte of value) {
      if (byte === 0x5c || byte === 0x27) text += `\\${String.fromCharCode(byte)}`;
      else if (byte >= 0x20 && byte < 0x7f) text += String.fromCharCode(byte);
      else text += `\\x${byte.toString(16).padStart(2, "0")}`;
    }
    return `b'${text}'`;
  }
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(", ")}]`;
  if (value instanceof Set) return value.size === 0 ? "set()" : `{${[...value].map(pyRepr).join(", ")}}`;
  // PyYAML builds !!omap as a list of (key, value) tuples.
  if (value instanceof Map)
    return `[${[...value].map(([key, item]) => `(${pyRepr(key)}, ${pyRepr(item)})`).join(", ")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>);
    return `{${entries.map(([key, item]) => `${pyStringRepr(key)}: ${pyRepr(item)}`).join(", ")}}`;
  }
  return String(value);
}

/** repr() of a str: single quotes unless it holds ' and no ", escapes for non-printable characters. */
export function pyStringRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = "";
  for (const char of text) {
    if (char === quote || char === "\\") out += `\\${char}`;
    else if (char === "\n") out += "\\n";
    else if (char === "\r") out += "\\r";
    else if (char === "\t") out += "\\t";
    else if (char !== " " && /[\p{C}\p{Z}]/u.test(char)) {
      const code = char.codePointAt(0) ?? 0;
      out +=
        code < 0x100
          ? `\\x${code.toString(16).padStart(2, "0")}`
          : code < 0x10000
            ? `\\u${code.toString(16).padStart(4, "0")}`
            : `\\U${code.toString(16).padStart(8, "0")}`;
    } else out += char;
  }
  return `${quote}${out}${quote}`;
}
