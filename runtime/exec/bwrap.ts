// Builds the bubblewrap argv of a sandboxed run (pure) and probes whether bwrap works on this host.
import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, readlinkSync, statSync } from "node:fs";
import { dirname, sep } from "node:path";

export interface BwrapPlan {
  bwrap: string;
  /** The command run inside: runner, script, args. */
  command: string[];
  cwd: string;
  skillDir: string;
  writablePaths: string[];
  persistentPaths: string[];
  /** Extra read-only folders: runner installation prefixes, skillgate's node_modules. */
  readOnlyPaths: string[];
  network: boolean;
  /** The complete environment of the script. */
  env: Record<string, string>;
  tmpSizeBytes: number;
  /** Host paths to hide if they lie inside something bound (see sensitive.ts). */
  sensitivePaths: string[];
  /** Options this bwrap understands (default: all, as in bwrap >= 0.8). */
  features?: BwrapFeatures;
  /** bwrap --info-fd / --block-fd numbers used for the cgroup hand-shake. */
  infoFd?: number;
  blockFd?: number;
}

export interface BwrapFeatures {
  /** --disable-userns (bwrap >= 0.8): no nested user namespaces inside the sandbox. */
  disableUserns: boolean;
  /** --size for --tmpfs (bwrap >= 0.5). */
  tmpfsSize: boolean;
}

const ALL_FEATURES: BwrapFeatures = { disableUserns: true, tmpfsSize: true };

/** Host facts the argv depends on; injectable so the builder stays pure in tests. */
export interface HostView {
  /** "dir" | "file" | "symlink:<target>" | null when missing. */
  kind(path: string): string | null;
}

export const realHost: HostView = {
  kind(path: string): string | null {
    try {
      const info = lstatSync(path);
      if (info.isSymbolicLink()) {
        const target = readlinkSync(path);
        return statSync(path).isDirectory() ? `symlink:${target}` : "file";
      }
      return info.isDirectory() ? "dir" : "file";
    } catch {
      return null;
    }
  },
};

/** Top-level system folders: bound read-only, or recreated as the same symlink (merged /usr layouts). */
const SYSTEM_DIRS = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"];

/**
 * What programs need from /etc. Allow-listed rather than "all minus secrets": /etc also holds
 * shadow, ssh host keys, pip/npm configs with tokens. resolv.conf/hosts only matter with network.
 */
const ETC_ENTRIES = [
  "/etc/alternatives",
  "/etc/ld.so.cache",
  "/etc/ld.so.conf",
  "/etc/ld.so.conf.d",
  "/etc/ssl",
  "/etc/ca-certificates",
  "/etc/pki",
  "/etc/crypto-policies",
  "/etc/passwd",
  "/etc/group",
  "/etc/nsswitch.conf",
  "/etc/host.conf",
  "/etc/gai.conf",
  "/etc/protocols",
  "/etc/services",
  "/etc/localtime",
  "/etc/timezone",
  "/etc/mime.types",
  "/etc/os-release",
  "/etc/locale.alias",
  "/etc/magic",
  "/etc/python3",
  "/etc/python3.11",
];
const ETC_NETWORK_ENTRIES = ["/etc/resolv.conf", "/etc/hosts"];

export function isUnder(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

/** The bwrap argv (bwrap binary first) for `plan`. */
export function bwrapArgv(plan: BwrapPlan, host: HostView = realHost): string[] {
  const argv = [
    plan.bwrap,
    "--unshare-user",
    "--unshare-pid",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-cgroup-try",
  ];
  // Network off unless declared. With it on the run shares the host network: per-domain
  // allow-lists are NOT enforced (that would need a filtering proxy).
  if (!plan.network) argv.push("--unshare-net");
  const features = plan.features ?? ALL_FEATURES;
  argv.push("--die-with-parent", "--new-session", "--cap-drop", "ALL");
  if (features.disableUserns) argv.push("--disable-userns");
  argv.push("--uid", "65534", "--gid", "65534", "--hostname", "skillgate");
  argv.push("--clearenv");
  for (const [name, value] of Object.entries(plan.env)) argv.push("--setenv", name, value);

  for (const dir of SYSTEM_DIRS) {
    const kind = host.kind(dir);
    if (kind === null) continue;
    if (kind.startsWith("symlink:")) argv.push("--symlink", kind.slice("symlink:".length), dir);
    else argv.push("--ro-bind", dir, dir);
  }
  for (const entry of [...ETC_ENTRIES, ...(plan.network ? ETC_NETWORK_ENTRIES : [])]) {
    if (host.kind(entry) !== null) argv.push("--ro-bind", entry, entry);
  }
  argv.push("--proc", "/proc", "--dev", "/dev");
  if (features.tmpfsSize) argv.push("--size", String(plan.tmpSizeBytes));
  argv.push("--tmpfs", "/tmp", "--dir", "/tmp/home");

  const bound: string[] = [];
  const bindReadOnly = (path: string): void => {
    argv.push("--ro-bind", path, path);
    bound.push(path);
  };
  for (const path of plan.readOnlyPaths) bindReadOnly(path);
  if (!plan.writablePaths.some((path) => isUnder(plan.cwd, path))) bindReadOnly(plan.cwd);
  for (const path of [...plan.writablePaths, ...plan.persistentPaths]) {
    argv.push("--bind", path, path);
    bound.push(path);
  }
  // Workspace state the script must not change: git metadata (hooks run on the host later) and skillgate's own state.
  for (const root of plan.writablePaths) {
    for (const inner of [`${root}/.git`, `${root}/.ucagent`]) {
      if (host.kind(inner) === "dir") argv.push("--ro-bind", inner, inner);
    }
    if (host.kind(`${root}/.git/hooks`) === "dir") {
      argv.push("--tmpfs", `${root}/.git/hooks`, "--remount-ro", `${root}/.git/hooks`);
    }
  }
  bindReadOnly(plan.skillDir);
  for (const path of plan.sensitivePaths) {
    if (!bound.some((dir) => isUnder(path, dir))) continue;
    const kind = host.kind(path);
    if (kind === "dir" || kind?.startsWith("symlink:")) argv.push("--tmpfs", path, "--remount-ro", path);
    else if (kind === "file") argv.push("--ro-bind", "/dev/null", path);
  }
  // bwrap's root is a tmpfs; left writable, folders created for the binds above (e.g. /root for a
  // pyenv prefix) would accept writes that look like host writes. /tmp stays its own writable tmpfs.
  argv.push("--remount-ro", "/");
  if (plan.infoFd !== undefined) argv.push("--info-fd", String(plan.infoFd));
  if (plan.blockFd !== undefined) argv.push("--block-fd", String(plan.blockFd));
  argv.push("--chdir", plan.cwd, "--", ...plan.command);
  return argv;
}

/** Read-only folder that makes `executable` runnable inside the sandbox, or null when system dirs cover it. */
export function installationPrefix(executable: string, home: string): string | null {
  if (SYSTEM_DIRS.some((dir) => isUnder(executable, dir))) return null;
  const parts = executable.split(sep);
  const modules = parts.indexOf("node_modules");
  if (modules > 0) return parts.slice(0, modules + 1).join(sep);
  const binDir = dirname(executable);
  const prefix = dirname(binDir);
  // Never expose the home folder (or "/") because an interpreter happens to live one level below it.
  if (prefix === "/" || isUnder(home, prefix)) return isUnder(home, binDir) ? null : binDir;
  return prefix;
}

export type BwrapProbe = { ok: true; features: BwrapFeatures } | { ok: false; reason: string };

const probeCache = new Map<string, BwrapProbe>();

/** Which optional options `bwrap --help` lists. */
function readFeatures(bwrap: string): BwrapFeatures {
  const help = spawnSync(bwrap, ["--help"], { encoding: "utf8", timeout: 10_000 });
  const text = `${help.stdout ?? ""}${help.stderr ?? ""}`;
  return { disableUserns: text.includes("--disable-userns"), tmpfsSize: text.includes("--size") };
}

/** Whether `bwrap` can build the sandbox here, with its optional features, or the reason (cached per path). */
export function probeBwrap(bwrap: string): BwrapProbe {
  const cached = probeCache.get(bwrap);
  if (cached !== undefined) return cached;
  let reason: string | null = null;
  let features = ALL_FEATURES;
  if (!existsSync(bwrap)) {
    reason = `bubblewrap not found at ${bwrap}`;
  } else {
    features = readFeatures(bwrap);
    const probe = spawnSync(
      bwrap,
      [
        "--unshare-user",
        "--unshare-pid",
        "--unshare-net",
        "--unshare-ipc",
        "--unshare-uts",
        "--die-with-parent",
        "--new-session",
        "--cap-drop",
        "ALL",
        ...(features.disableUserns ? ["--disable-userns"] : []),
        "--ro-bind",
        "/",
        "/",
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--tmpfs",
        "/tmp",
        "--",
        "true",
      ],
      { encoding: "utf8", timeout: 10_000, stdio: ["ignore", "ignore", "pipe"] },
    );
    if (probe.error) reason = `${bwrap} could not start: ${probe.error.message}`;
    else if (probe.status !== 0) {
      reason = `${bwrap} failed its probe (exit ${probe.status ?? probe.signal}): ${probe.stderr.trim() || "no message"}`;
    }
  }
  const probe: BwrapProbe = reason === null ? { ok: true, features } : { ok: false, reason };
  probeCache.set(bwrap, probe);
  return probe;
}
