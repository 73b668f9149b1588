// The one "is this path inside that folder" rule (lexical, after path.relative): "..b" is a name inside; only ".." or "../…" leaves.
import { isAbsolute, relative, sep } from "node:path";

/** `child` relative to `parent`, "/"-separated ("" for `parent` itself), or null when `child` lies outside `parent`. */
export function insideRelative(parent: string, child: string): string | null {
  const rel = relative(parent, child);
  if (rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return null;
  return sep === "/" ? rel : rel.split(sep).join("/");
}

/** Is `child` `parent` itself or below it? */
export function isInside(parent: string, child: string): boolean {
  return insideRelative(parent, child) !== null;
}

/** `child` as shown to a user: relative to `parent` when strictly below it, else `child` unchanged (absolute). */
export function shownBelow(parent: string, child: string): string {
  const rel = insideRelative(parent, child);
  return rel === null || rel === "" ? child : rel;
}
