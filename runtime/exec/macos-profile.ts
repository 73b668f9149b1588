// Generates the deny-by-default macOS sandbox-exec (SBPL) profile of a run; pure, unit-tested, not executed on Linux.

export interface MacosProfileInput {
  /** Folders readable (system folders, runner prefix, skill folder, workspace). */
  readPaths: string[];
  /** Folders readable and writable (workspace or OUT, caches, the run's temp folder). */
  writePaths: string[];
  /** Paths never readable nor writable even inside the folders above. */
  deniedPaths: string[];
  network: boolean;
}

/** System locations every interpreter needs to start on macOS. */
export const MACOS_SYSTEM_READ_PATHS = [
  "/usr",
  "/bin",
  "/sbin",
  "/System",
  "/Library/Frameworks",
  "/Library/Apple",
  "/private/etc",
  "/private/var/db/timezone",
  "/opt/homebrew",
  "/usr/local",
  "/dev",
];

/** SBPL string literal: double quotes with backslash escapes. */
export function sbplString(value: string): string {
  return `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

function subpaths(paths: string[]): string {
  return paths.map((path) => `(subpath ${sbplString(path)})`).join(" ");
}

export function macosSandboxProfile(input: MacosProfileInput): string {
  const lines = [
    "(version 1)",
    "(deny default)",
    "(allow process-fork)",
    "(allow process-exec)",
    "(allow signal (target same-sandbox))",
    "(allow sysctl-read)",
    '(allow mach-lookup (global-name "com.apple.system.opendirectoryd.libinfo"))',
    "(allow file-read-metadata)",
  ];
  const readable = [...MACOS_SYSTEM_READ_PATHS, ...input.readPaths];
  lines.push(`(allow file-read* ${subpaths(readable)})`);
  if (input.writePaths.length > 0) lines.push(`(allow file-read* file-write* ${subpaths(input.writePaths)})`);
  lines.push('(allow file-write* (literal "/dev/null") (literal "/dev/stdout") (literal "/dev/stderr"))');
  if (input.deniedPaths.length > 0)
    lines.push(`(deny file-read* file-write* ${subpaths(input.deniedPaths)})`);
  // With the network declared the run has the whole network: per-domain allow-lists are not enforced.
  if (input.network) lines.push("(allow network*)", "(allow system-socket)");
  return `${lines.join("\n")}\n`;
}
