// Small text helpers for skill validation: code point lengths, truncation, and showing bad values in messages.

const SURROGATE = /[\ud800-\udfff]/;

/** Length in Unicode code points (an emoji is one character), not UTF-16 units. */
export function codePointLength(text: string): number {
  // No surrogate means one unit per code point; the scan is native and spares the JS loop.
  if (!SURROGATE.test(text)) return text.length;
  let count = 0;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) index++;
    }
    count++;
  }
  return count;
}

export function truncateCodePoints(text: string, max: number): string {
  if (text.length <= max) return text;
  return Array.from(text).slice(0, max).join("");
}

/** Compares two strings by Unicode code point (JS `<` compares UTF-16 units, which misorders astral characters). */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index++) {
    const x = a.charCodeAt(index);
    const y = b.charCodeAt(index);
    if (x !== y) return codeUnitRank(x) - codeUnitRank(y);
  }
  return a.length - b.length;
}

/**
 * Sorts names by code point in place. Without surrogates UTF-16 order is code point order, so the default sort
 * (native, no JS comparator per comparison) gives the same order; a cold 2,000-skill catalog sorted ~9,000 pairs
 * through compareCodePoints.
 */
export function sortCodePoints(names: string[]): string[] {
  for (const name of names) if (SURROGATE.test(name)) return names.sort(compareCodePoints);
  return names.sort();
}

// Surrogates (astral code points) must sort after U+E000..U+FFFF: shift them up, shift those down.
function codeUnitRank(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  if (unit >= 0xe000) return unit - 0x800;
  return unit;
}

export function kindOf(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value)) return "a list";
  if (value instanceof Set) return "a set (!!set)";
  if (value instanceof Map) return "an ordered mapping (!!omap)";
  if (value instanceof Uint8Array) return "binary data (!!binary)";
  if (typeof value === "object") return "a mapping";
  if (typeof value === "string") return "a string";
  if (typeof value === "boolean") return "a boolean";
  return "a number";
}

/** "a number (123)", "null", "a list ([1,2])" — the kind plus the bad value. */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return "null";
  return `${kindOf(value)} (${showValue(value)})`;
}

/** The value as JSON, cut to 80 characters so one bad field cannot flood a message. */
export function showValue(value: unknown): string {
  let text: string;
  try {
    const plain =
      value instanceof Set ? [...value] : value instanceof Map ? Object.fromEntries(value) : value;
    text =
      typeof plain === "number" && !Number.isFinite(plain)
        ? String(plain)
        : (JSON.stringify(plain) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** Python's str.isspace() code points: what str.strip() removes and what `re`'s `\s` matches in a str pattern. */
export const PY_SPACE_CLASS =
  "\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";

/** isPySpace of one UTF-16 unit: the set of PY_SPACE_CLASS as numbers (a regex call per character cost more). */
export function isPySpaceCode(unit: number): boolean {
  if (unit <= 0x20) return unit >= 0x1c || (unit >= 0x09 && unit <= 0x0d) || unit === 0x20;
  if (unit < 0x85) return false;
  return (
    unit === 0x85 ||
    unit === 0xa0 ||
    unit === 0x1680 ||
    (unit >= 0x2000 && unit <= 0x200a) ||
    unit === 0x2028 ||
    unit === 0x2029 ||
    unit === 0x202f ||
    unit === 0x205f ||
    unit === 0x3000
  );
}

export function isPySpace(char: string): boolean {
  return char.length === 1 && isPySpaceCode(char.charCodeAt(0));
}

/** Python's str.strip() (unlike JS trim(), it keeps U+FEFF and removes U+001C..U+001F and U+0085). */
export function pyStrip(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isPySpaceCode(text.charCodeAt(start))) start++;
  while (end > start && isPySpaceCode(text.charCodeAt(end - 1))) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}
