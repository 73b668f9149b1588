// The thin IO layer of the scan: walks paths, reads files, picks the language, hands text to the pure matcher.
import type { Stats } from "node:fs";
import { lstat, readdir, readFile, realpath, stat } from "node:fs/promises";
import { basename, dirname, join, normalize } from "node:path";
import { SkillgateError } from "../errors.js";
import { walkTree } from "../walk/index.js";
import { detectSourceKind } from "./language.js";
import { compareFindings, scanMarkdown, scanText } from "./matcher.js";
import { loadRules } from "./rules.js";
import { atLeast } from "./severity.js";
import type { Finding, RuleSet, ScanSeverity } from "./types.js";

/** File-system calls the scan makes; tests and callers may pass their own, the default is node:fs. */
export interface ScanFs {
  stat(path: string): Promise<Stats>;
  lstat(path: string): Promise<Stats>;
  readdir(path: string): Promise<string[]>;
  readFile(path: string): Promise<Buffer>;
  realpath(path: string): Promise<string>;
}

export const nodeScanFs: ScanFs = {
  stat: (path) => stat(path),
  lstat: (path) => lstat(path),
  readdir: (path) => readdir(path),
  readFile: (path) => readFile(path),
  realpath: (path) => realpath(path),
};

export interface ScanOptions {
  /** Compiled rules; default: loadRules(rulesFile). */
  ruleSet?: RuleSet;
  /** Rules file to load when ruleSet is not given; default: the bundled rules.yaml. */
  rulesFile?: string;
  /** Drop findings below this severity (default "info": keep all); `scan.limit` notes are always kept. */
  minSeverity?: ScanSeverity;
  /** Larger files are skipped with an info finding (default 2 MiB). */
  maxFileBytes?: number;
  /** Stop after this many files per call, with an info finding (default 5000). */
  maxFiles?: number;
  /** Folders deeper than this below a given folder are not entered, with an info finding (default 16). */
  maxDepth?: number;
  fs?: ScanFs;
}

export const DEFAULT_MAX_FILE_BYTES = 2 * 1024 * 1024;
export const DEFAULT_MAX_FILES = 5000;
export const DEFAULT_MAX_DEPTH = 16;

/** Folders never entered: VCS data and installed dependencies are not the skill's own code. */
const SKIPPED_FOLDERS = new Set([".git", "node_modules"]);
const BINARY_SNIFF_BYTES = 8192;

const REVIEW_BY_HAND = "Review it by hand; the sandbox still applies when it runs.";

interface WalkState {
  ruleSet: RuleSet;
  rulesFileRealPath: string | null;
  minSeverity: ScanSeverity;
  maxFileBytes: number;
  maxFiles: number;
  maxDepth: number;
  fs: ScanFs;
  filesSeen: number;
  limitReported: boolean;
  findings: Finding[];
}

function wholeFileFinding(ruleId: string, file: string, message: string): Finding {
  return { ruleId, severity: "info", message, file, line: 0, column: 0, excerpt: "", language: null };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function isBinary(buffer: Buffer): boolean {
  if (buffer.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return true;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(buffer);
    return false;
  } catch {
    return true;
  }
}

/**
 * Scans files and folders (folders recursively, skipping .git and node_modules, not following folder symlinks).
 * Paths are reported as reached from the given inputs. Advisory: only `critical` findings are meant to block.
 * Throws PATH_NOT_FOUND when an input does not exist; everything else becomes a finding.
 */
export async function scanFiles(paths: readonly string[], options: ScanOptions = {}): Promise<Finding[]> {
  const fs = options.fs ?? nodeScanFs;
  const ruleSet = options.ruleSet ?? (await loadRules(options.rulesFile));
  const state: WalkState = {
    ruleSet,
    rulesFileRealPath: await fs.realpath(ruleSet.source).catch(() => null),
    minSeverity: options.minSeverity ?? "info",
    maxFileBytes: options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
    maxFiles: options.maxFiles ?? DEFAULT_MAX_FILES,
    maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH,
    fs,
    filesSeen: 0,
    limitReported: false,
    findings: [],
  };
  for (const path of paths) {
    let info: Stats;
    try {
      info = await fs.stat(path);
    } catch (error) {
      throw new SkillgateError(
        "PATH_NOT_FOUND",
        `cannot scan ${path}: ${errorText(error)}. Fix: pass an existing file, skill folder or skill root.`,
        { path },
      );
    }
    if (info.isDirectory()) await scanFolder(path, state);
    else if (info.isFile()) await scanOneFile(path, info, true, state);
    else
      state.findings.push(
        wholeFileFinding("scan.not-regular", path, `not scanned: not a regular file. ${REVIEW_BY_HAND}`),
      );
  }
  // A truncated scan is never silent: scan.limit survives any minimum severity.
  return state.findings
    .filter((finding) => finding.ruleId === "scan.limit" || atLeast(finding.severity, state.minSeverity))
    .sort(compareFindings);
}

/** Scans one skill folder (SKILL.md fenced code, scripts/, hooks.ts and every other source file in it). */
export async function scanSkill(dir: string, options: ScanOptions = {}): Promise<Finding[]> {
  const fs = options.fs ?? nodeScanFs;
  const skillFile = join(dir, "SKILL.md");
  const isSkill = await fs.stat(skillFile).then(
    (info) => info.isFile(),
    () => false,
  );
  if (!isSkill) {
    throw new SkillgateError(
      "SKILL_NOT_FOUND",
      `cannot scan skill ${dir}: ${skillFile} is missing. Fix: pass the folder that holds SKILL.md, or use scanFiles for other paths.`,
      { dir },
    );
  }
  return scanFiles([dir], options);
}

function scanFolder(dir: string, state: WalkState): Promise<unknown> {
  // Normalised once as join() would per level; root-level notes keep the path as given.
  const shown = (entry: { path: string; rel: string }) => (entry.rel === "" ? dir : entry.path);
  return walkTree(
    normalize(dir),
    {
      fs: state.fs,
      stat: "all",
      maxDepth: state.maxDepth,
      skip: (entry) => SKIPPED_FOLDERS.has(entry.name),
      onDepthLimit: (entry) =>
        void state.findings.push(
          wholeFileFinding(
            "scan.limit",
            shown(entry),
            `not scanned: folder is more than ${state.maxDepth} levels deep. ${REVIEW_BY_HAND}`,
          ),
        ),
      onUnreadable: (path, rel, error) =>
        void state.findings.push(
          wholeFileFinding(
            "scan.unreadable",
            shown({ path, rel }),
            `not scanned: cannot list folder: ${errorText(error)}.`,
          ),
        ),
      onStatError: (entry, error) =>
        void state.findings.push(
          wholeFileFinding("scan.unreadable", entry.path, `not scanned: ${errorText(error)}.`),
        ),
    },
    async (entry) => {
      const { path, stats } = entry;
      if (entry.kind === "file") await scanOneFile(path, stats as Stats, false, state);
      else if (entry.kind === "symlink") {
        const target = await state.fs.stat(path).catch(() => null);
        if (target?.isFile()) await scanOneFile(path, target, false, state);
        else {
          state.findings.push(
            wholeFileFinding(
              "scan.not-regular",
              path,
              `not scanned: symbolic link to ${target?.isDirectory() ? "a folder (not followed)" : "a missing or special file"}. ${REVIEW_BY_HAND}`,
            ),
          );
        }
      }
    },
  );
}

async function scanOneFile(path: string, info: Stats, explicit: boolean, state: WalkState): Promise<void> {
  if (state.rulesFileRealPath !== null) {
    // The rules file is full of the very patterns it looks for; never report it against itself.
    const real = await state.fs.realpath(path).catch(() => null);
    if (real === state.rulesFileRealPath) return;
  }
  if (state.filesSeen >= state.maxFiles) {
    if (!state.limitReported) {
      state.limitReported = true;
      state.findings.push(
        wholeFileFinding(
          "scan.limit",
          path,
          `scan stopped at ${state.maxFiles} files; this file and the rest were not scanned. ${REVIEW_BY_HAND}`,
        ),
      );
    }
    return;
  }
  state.filesSeen += 1;
  const name = basename(path);
  // Same notion of "a script" as skill discovery: script_runner.json and dotfiles in scripts/ are not scripts.
  const inScriptsFolder =
    basename(dirname(path)) === "scripts" && name !== "script_runner.json" && !name.startsWith(".");
  const extensionKind = detectSourceKind(name, "");
  // Files with no scannable extension are only worth a note when someone would expect them scanned.
  const reportSkips = explicit || inScriptsFolder || extensionKind !== null;
  const skip = (ruleId: string, message: string): void => {
    if (reportSkips) state.findings.push(wholeFileFinding(ruleId, path, message));
  };
  if (info.size > state.maxFileBytes) {
    skip(
      "scan.too-large",
      `not scanned: ${info.size} bytes, over the ${state.maxFileBytes}-byte scan limit. ${REVIEW_BY_HAND}`,
    );
    return;
  }
  let buffer: Buffer;
  try {
    buffer = await state.fs.readFile(path);
  } catch (error) {
    state.findings.push(
      wholeFileFinding("scan.unreadable", path, `not scanned: cannot read: ${errorText(error)}.`),
    );
    return;
  }
  if (isBinary(buffer)) {
    skip("scan.binary", `not scanned: binary or not UTF-8 text. ${REVIEW_BY_HAND}`);
    return;
  }
  const text = buffer.toString("utf8");
  const firstLine = text
    .slice(0, text.indexOf("\n") === -1 ? text.length : text.indexOf("\n"))
    .replace(/\r$/, "");
  const kind = detectSourceKind(name, firstLine);
  if (kind === null) {
    skip(
      "scan.unsupported",
      `not scanned: no rules for this file type (extension or shebang); supported: Python, JavaScript, TypeScript, shell, and fenced code blocks in Markdown. ${REVIEW_BY_HAND}`,
    );
    return;
  }
  const matchOptions = { file: path, ruleSet: state.ruleSet, minSeverity: state.minSeverity };
  state.findings.push(
    ...(kind === "markdown"
      ? scanMarkdown(text, matchOptions)
      : scanText(text, { ...matchOptions, language: kind })),
  );
}
