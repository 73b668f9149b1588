// Builds the bubblewrap argv of a sandboxed run (pure) and probes whether bwrap works on this host.
import { lstatSync, readlinkSync, statSync } from "node:fs";
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
  /**
   * Paths inside writable binds that must stay read-only: every `.git` (folder or file) found there and
   * skillgate's own installation. Bound after the writable binds, so they win.
   */
  protectedPaths?: string[];
  network: boolean;
  /** The complete environment of the script. */
  env: Record<string, string>;
  tmpSizeBytes: number;
  /** Size of the writable /dev/shm (the rest of /dev is read-only). */
  shmSizeBytes?: number;
  /** Host paths to hide if they lie inside something bound (see sensitive.ts). */
  sensitivePaths: string[];
  /** Options this bwrap understands (default: all, as in bwrap >= 0.8). */
  features?: BwrapFeatures;
  /** bwrap --info-fd / --block-fd numbers used for the cgroup hand-shake. */
  infoFd?: number;
  blockFd?: number;
  /** Descriptor holding the compiled seccomp program (seccomp.ts). */
  seccompFd?: number;
  /** uid/gid inside (default 65534). */
  innerId?: { uid: number; gid: number };
  /** Replaces /etc/resolv.conf with this descriptor's content (the user-mode network's resolver). */
  resolvConfFd?: number;
  /** The Python hook's host folder, bound read-only at PYTHON_HOOK_MOUNT (not at its own path: no host path shows). */
  pythonHook?: string;
}

/** Where a Python run sees the hook's folder (exec/prepared/python-hook.ts). */
export const PYTHON_HOOK_MOUNT = "/run/skillgate-python";

export interface BwrapFeatures {
  /** --disable-userns (bwrap >= 0.8): no nested user namespaces inside the sandbox. */
  disableUserns: boolean;
  /** --size for --tmpfs (bwrap >= 0.5). */
  tmpfsSize: boolean;
}

export const ALL_FEATURES: BwrapFeatures = { disableUserns: true, tmpfsSize: true };

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

/** /proc entries hidden (files: /dev/null over them; folders: an empty read-only tmpfs), as Docker masks them. */
const PROC_MASKED = [
  "/proc/sysrq-trigger",
  "/proc/kcore",
  "/proc/keys",
  "/proc/key-users",
  "/proc/kallsyms",
  "/proc/kmsg",
  "/proc/latency_stats",
  "/proc/timer_list",
  "/proc/timer_stats",
  "/proc/sched_debug",
  "/proc/acpi",
  "/proc/asound",
  "/proc/scsi",
];
/** /proc entries bound read-only over themselves: kernel settings must not be writable from inside. */
const PROC_READ_ONLY = ["/proc/sys", "/proc/fs", "/proc/irq", "/proc/bus"];

/** Every host path the argv of `plan` bind-mounts from outside the system folders. */
export function boundSources(plan: BwrapPlan, host: HostView = realHost): string[] {
  const sources = [
    ...plan.writablePaths,
    ...plan.persistentPaths,
    ...plan.readOnlyPaths,
    ...(plan.writablePaths.some((path) => isUnder(plan.cwd, path)) ? [] : [plan.cwd]),
    ...innerReadOnly(plan, host),
    ...(plan.protectedPaths ?? []),
    plan.skillDir,
    ...(plan.pythonHook === undefined ? [] : [plan.pythonHook]),
  ];
  return [...new Set(sources)];
}

/** skillgate state and git metadata directly under each writable root. */
function innerReadOnly(plan: BwrapPlan, host: HostView): string[] {
  const inner: string[] = [];
  for (const root of plan.writablePaths) {
    for (const path of [`${root}/.git`, `${root}/.ucagent`]) {
      if (host.kind(path) !== null) inner.push(path);
    }
  }
  return inner;
}

// Why hand-built: no library covers bwrap's flags, whose order matters (later mounts shadow earlier ones); a pure builder is table-tested and free next to bwrap's ~7 ms (docs/performance.md).
/** The bwrap argv (bwrap binary first) for `plan`. */
export function bwrapArgv(plan: BwrapPlan, host: HostView = realHost): string[] {
  const argv = [
    plan.bwrap,
    "--unshare-user",
    "--unshare-pid",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-cgroup-try",
    // Always a network namespace of its own: a network grant attaches user-mode networking to it
    // (netns.ts), so the host's loopback services and abstract unix sockets stay out of reach either way.
    "--unshare-net",
  ];
  const features = plan.features ?? ALL_FEATURES;
  argv.push("--die-with-parent", "--new-session", "--cap-drop", "ALL");
  if (features.disableUserns) argv.push("--disable-userns");
  const inner = plan.innerId ?? { uid: 65534, gid: 65534 };
  argv.push("--uid", String(inner.uid), "--gid", String(inner.gid), "--hostname", "skillgate");
  argv.push("--clearenv");
  for (const [name, value] of Object.entries(plan.env)) argv.push("--setenv", name, value);

  for (const dir of SYSTEM_DIRS) {
    const kind = host.kind(dir);
    if (kind === null) continue;
    if (kind.startsWith("symlink:")) argv.push("--symlink", kind.slice("symlink:".length), dir);
    else argv.push("--ro-bind", dir, dir);
  }
  for (const entry of [...ETC_ENTRIES, ...(plan.network ? ETC_NETWORK_ENTRIES : [])]) {
    if (entry === "/etc/resolv.conf" && plan.resolvConfFd !== undefined) continue;
    if (host.kind(entry) !== null) argv.push("--ro-bind", entry, entry);
  }
  if (plan.network && plan.resolvConfFd !== undefined) {
    argv.push("--ro-bind-data", String(plan.resolvConfFd), "/etc/resolv.conf");
  }
  argv.push("--proc", "/proc");
  for (const path of PROC_READ_ONLY) if (host.kind(path) !== null) argv.push("--ro-bind", path, path);
  for (const path of PROC_MASKED) {
    const kind = host.kind(path);
    if (kind === "dir") argv.push("--tmpfs", path, "--remount-ro", path);
    else if (kind !== null) argv.push("--ro-bind", "/dev/null", path);
  }
  argv.push("--dev", "/dev");
  if (features.tmpfsSize) argv.push("--size", String(plan.shmSizeBytes ?? plan.tmpSizeBytes));
  argv.push("--tmpfs", "/dev/shm");
  if (features.tmpfsSize) argv.push("--size", String(plan.tmpSizeBytes));
  argv.push("--tmpfs", "/tmp", "--dir", "/tmp/home");

  const bound: string[] = [];
  const bind = (path: string, readOnly: boolean): void => {
    argv.push(readOnly ? "--ro-bind" : "--bind", path, path);
    bound.push(path);
  };
  // A read-only cwd holding the writable folders (only OUT writable) goes first; then the writable binds;
  // then every other read-only one: a later mount wins, so nothing read-only can be re-exposed writable by a
  // writable folder that happens to contain it.
  if (!plan.writablePaths.some((path) => isUnder(plan.cwd, path))) bind(plan.cwd, true);
  for (const path of [...plan.writablePaths, ...plan.persistentPaths]) bind(path, false);
  for (const path of plan.readOnlyPaths) bind(path, true);
  // Workspace state the script must not change: git metadata (hooks and config run on the host later)
  // and skillgate's own state.
  for (const path of innerReadOnly(plan, host)) bind(path, true);
  for (const root of plan.writablePaths) {
    if (host.kind(`${root}/.git/hooks`) === "dir") {
      argv.push("--tmpfs", `${root}/.git/hooks`, "--remount-ro", `${root}/.git/hooks`);
    }
  }
  for (const path of plan.protectedPaths ?? []) if (!bound.includes(path)) bind(path, true);
  bind(plan.skillDir, true);
  if (plan.pythonHook !== undefined) argv.push("--ro-bind", plan.pythonHook, PYTHON_HOOK_MOUNT);
  for (const path of plan.sensitivePaths) {
    if (!bound.some((dir) => isUnder(path, dir))) continue;
    const kind = host.kind(path);
    if (kind === "dir" || kind?.startsWith("symlink:")) argv.push("--tmpfs", path, "--remount-ro", path);
    else if (kind === "file") argv.push("--ro-bind", "/dev/null", path);
  }
  // bwrap's root is a tmpfs; left writable, folders created for the binds above (e.g. /root for a
  // pyenv prefix) would accept writes that look like host writes. /tmp and /dev/shm stay writable tmpfs;
  // device nodes stay usable on a read-only /dev, new files there do not.
  argv.push("--remount-ro", "/dev", "--remount-ro", "/");
  if (plan.seccompFd !== undefined) argv.push("--seccomp", String(plan.seccompFd));
  if (plan.infoFd !== undefined) argv.push("--info-fd", String(plan.infoFd));
  if (plan.blockFd !== undefined) argv.push("--block-fd", String(plan.blockFd));
  argv.push("--chdir", plan.cwd, "--", ...plan.command);
  return argv;
}

/** Home folders of this host: a toolchain bind never exposes one, nor a folder directly inside one. */
export function isHomeFolder(dir: string, home: string): boolean {
  return dir === home || dir === "/root" || dirname(dir) === "/home";
}

/**
 * Read-only path that makes `executable` runnable inside the sandbox, or null when system dirs cover it: the
 * node_modules folder of a package, the installation prefix (bin/, lib/, share/) of an interpreter, or only
 * the executable itself when that prefix would be "/", a home folder or a folder directly inside one
 * (~/.local, ~/.cargo hold far more than one tool: credentials, keyrings, other programs' data).
 */
export function installationPrefix(executable: string, home: string): string | null {
  if (SYSTEM_DIRS.some((dir) => isUnder(executable, dir))) return null;
  const parts = executable.split(sep);
  const modules = parts.indexOf("node_modules");
  if (modules > 0) return parts.slice(0, modules + 1).join(sep);
  const prefix = dirname(dirname(executable));
  const exposed = (dir: string): boolean =>
    dir === "/" || isHomeFolder(dir, home) || isHomeFolder(dirname(dir), home);
  return exposed(prefix) ? executable : prefix;
}
