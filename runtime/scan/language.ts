// Tells a file's language from its extension, or from its shebang line when it has no extension.
import type { ScanLanguage } from "./types.js";

/** Markdown is not a rule language: only its fenced code blocks with a known language tag are scanned. */
export type SourceKind = ScanLanguage | "markdown";

const BY_EXTENSION: Record<string, SourceKind> = {
  ".py": "python",
  ".pyw": "python",
  ".js": "javascript",
  ".mjs": "javascript",
  ".cjs": "javascript",
  ".jsx": "javascript",
  ".ts": "typescript",
  ".mts": "typescript",
  ".cts": "typescript",
  ".tsx": "typescript",
  ".sh": "shell",
  ".bash": "shell",
  ".zsh": "shell",
  ".ksh": "shell",
  ".dash": "shell",
  ".md": "markdown",
  ".markdown": "markdown",
};

const BY_INTERPRETER: Record<string, ScanLanguage> = {
  python: "python",
  pypy: "python",
  node: "javascript",
  nodejs: "javascript",
  bun: "javascript",
  tsx: "typescript",
  "ts-node": "typescript",
  deno: "typescript",
  sh: "shell",
  bash: "shell",
  zsh: "shell",
  ksh: "shell",
  dash: "shell",
  ash: "shell",
};

const FENCE_TAGS: Record<string, ScanLanguage> = {
  python: "python",
  py: "python",
  python3: "python",
  js: "javascript",
  javascript: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  jsx: "javascript",
  node: "javascript",
  ts: "typescript",
  typescript: "typescript",
  tsx: "typescript",
  sh: "shell",
  bash: "shell",
  shell: "shell",
  zsh: "shell",
  console: "shell",
  "shell-session": "shell",
};

/** Lower-cased extension including the dot, or "" (a leading dot alone, as in ".bashrc", is not an extension). */
export function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf(".");
  return dot > 0 ? fileName.slice(dot).toLowerCase() : "";
}

/** `#!/usr/bin/env -S python3 -u` → python; null when the first line is not a known interpreter. */
export function languageFromShebang(firstLine: string): ScanLanguage | null {
  const match = /^#!\s*(\S+)(.*)$/.exec(firstLine);
  if (!match) return null;
  let program = match[1]!.split("/").pop() ?? "";
  if (program === "env") {
    const words = match[2]!
      .trim()
      .split(/\s+/)
      .filter((word) => !word.startsWith("-") && !word.includes("="));
    program = words[0] ?? "";
  }
  const name = program.replace(/[\d.]+$/, "");
  return BY_INTERPRETER[name] ?? null;
}

/** A known extension decides; otherwise (no extension, or an unknown one) the shebang does. */
export function detectSourceKind(fileName: string, firstLine: string): SourceKind | null {
  return BY_EXTENSION[extensionOf(fileName)] ?? languageFromShebang(firstLine);
}

export function languageFromFenceTag(tag: string): ScanLanguage | null {
  return FENCE_TAGS[tag.toLowerCase()] ?? null;
}
