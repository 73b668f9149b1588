// Pure Markdown link checks for README.md and docs/*.md: relative links, their files and heading anchors.
import { dirname, join, normalize } from "node:path";

/** A document as the checker sees it: its repository-relative path and its text. */
export interface Doc {
  path: string;
  text: string;
}

/** Text outside fenced code blocks and inline code spans, so code that looks like a link is not one. */
function prose(text: string): string {
  return text
    .replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "")
    .replace(/`[^`\n]*`/g, (span) => " ".repeat(span.length));
}

/** GitHub's heading anchor: lower case, punctuation dropped (hyphens and underscores kept), spaces → hyphens. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** Every anchor a document's headings produce, numbered on repeats as GitHub does (`x`, `x-1`, …). */
export function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of prose(text).split("\n")) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = slug(m[1]!.replace(/`/g, ""));
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Relative link targets of a document (`[text](target)`), without absolute URLs and mail links. */
export function relativeLinks(text: string): string[] {
  const out: string[] = [];
  for (const m of prose(text).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = m[1]!;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    out.push(target);
  }
  return out;
}

/**
 * Problems with the relative links of `docs`, one line each: `<doc>: link <target>: <why>`. `rawText(path)`
 * returns the text of any repository file or null when it does not exist (headings are read only for .md files).
 */
export function linkProblems(docs: Doc[], rawText: (path: string) => string | null): string[] {
  const problems: string[] = [];
  for (const doc of docs) {
    for (const target of relativeLinks(doc.text)) {
      const hash = target.indexOf("#");
      const file = hash === -1 ? target : target.slice(0, hash);
      const fragment = hash === -1 ? "" : decodeURIComponent(target.slice(hash + 1));
      const path = file === "" ? doc.path : normalize(join(dirname(doc.path), file));
      if (path.startsWith("..")) {
        problems.push(`${doc.path}: link ${target}: leads out of the repository`);
        continue;
      }
      const text = path === doc.path ? doc.text : rawText(path);
      if (text === null) {
        problems.push(`${doc.path}: link ${target}: ${path} does not exist`);
        continue;
      }
      if (fragment && path.endsWith(".md") && !anchors(text).has(fragment))
        problems.push(`${doc.path}: link ${target}: ${path} has no heading with the anchor #${fragment}`);
    }
  }
  return problems;
}
