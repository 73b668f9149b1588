// What a held sandbox has bound: host bind sources by identity, and the sandbox's own view of them once bwrap has mounted everything.
import { statSync } from "node:fs";

const BIND_FLAGS = new Set([
  "--bind",
  "--ro-bind",
  "--dev-bind",
  "--bind-try",
  "--ro-bind-try",
  "--dev-bind-try",
]);
/** Ops that mount over their destination (hiding what an earlier op put there or below): their dest argument. */
const MOUNT_DEST: Record<string, number> = {
  "--tmpfs": 1,
  "--proc": 1,
  "--dev": 1,
  "--mqueue": 1,
  "--symlink": 2,
  "--ro-bind-data": 2,
  "--bind-data": 2,
  "--file": 2,
  ...Object.fromEntries([...BIND_FLAGS].map((flag) => [flag, 2])),
};
/** How many arguments every other bwrap option takes: an option outside this table makes the argv unreadable. */
const ARITY: Record<string, number> = {
  ...Object.fromEntries(
    [
      "--unshare-user",
      "--unshare-pid",
      "--unshare-ipc",
      "--unshare-uts",
      "--unshare-cgroup-try",
      "--unshare-net",
    ]
      .concat([
        "--unshare-all",
        "--share-net",
        "--die-with-parent",
        "--new-session",
        "--disable-userns",
        "--clearenv",
      ])
      .concat(["--as-pid-1", "--assert-userns-disabled", "--unshare-cgroup", "--unshare-user-try"])
      .map((flag) => [flag, 0]),
  ),
  ...Object.fromEntries(
    ["--cap-drop", "--cap-add", "--uid", "--gid", "--hostname", "--chdir", "--seccomp", "--add-seccomp-fd"]
      .concat(["--info-fd", "--json-status-fd", "--block-fd", "--userns-block-fd", "--sync-fd", "--size"])
      .concat(["--perms", "--remount-ro", "--dir", "--unsetenv", "--lock-file", "--argv0"])
      .map((flag) => [flag, 1]),
  ),
  "--setenv": 2,
  "--chmod": 2,
  ...MOUNT_DEST,
};

/** dev:ino:birth time of a path (followed), or "missing". Birth time too: a folder made again often reuses the inode (ext4). */
export type IdentityOf = (path: string) => string;

export const identityOf: IdentityOf = (path) => {
  try {
    const info = statSync(path, { bigint: true });
    return `${info.dev}:${info.ino}:${info.birthtimeNs}`;
  } catch {
    return "missing";
  }
};

/** Identity of every bind source in `argv`: a path replaced since would bind something else. */
export function bindSources(argv: string[], identity: IdentityOf = identityOf): Map<string, string> {
  const sources = new Map<string, string>();
  argv.forEach((arg, index) => {
    const source = argv[index + 1];
    if (!BIND_FLAGS.has(arg) || source === undefined || sources.has(source)) return;
    sources.set(source, identity(source));
  });
  return sources;
}

interface Bind {
  source: string;
  dest: string;
}

/**
 * The binds whose destination no later op mounts over, at it or above it: what the sandbox shows at each dest.
 * Read with bwrap's own arities from the option after the bwrap binary (`--unshare-user`, bwrapArgv's first)
 * up to `--`, so an environment value spelled like an option is never taken for one; null when unreadable.
 */
export function visibleBinds(argv: string[]): Bind[] | null {
  let index = argv.indexOf("--unshare-user");
  if (index === -1) return null;
  const mounts: { op: string; at: number; dest: string }[] = [];
  while (argv[index] !== "--") {
    const op = argv[index];
    const arity = op === undefined ? undefined : ARITY[op];
    if (op === undefined || arity === undefined || index + arity >= argv.length) return null;
    const destAt = MOUNT_DEST[op];
    if (destAt !== undefined) mounts.push({ op, at: index, dest: argv[index + destAt] as string });
    index += arity + 1;
  }
  const covers = (above: string, dest: string): boolean => dest === above || dest.startsWith(`${above}/`);
  const binds: Bind[] = [];
  for (const { op, at, dest } of mounts) {
    if (!BIND_FLAGS.has(op)) continue;
    if (mounts.some((later) => later.at > at && covers(later.dest, dest))) continue;
    binds.push({ source: argv[at + 1] as string, dest });
  }
  return binds;
}

export type BoundView =
  | { state: "mounted"; sources: Map<string, string> }
  | { state: "mounting" }
  | { state: "differs"; path: string };

/**
 * The sandbox seen through `root` (its /proc/<pid>/root): still "mounting" until its root is no longer the host's
 * and every visible bind is there; then each must show the very file or folder its host source is now, else
 * "differs" (a path swapped while bwrap mounted it). Only then are the recorded identities those bwrap bound.
 */
export function readBoundView(argv: string[], root: string, identity: IdentityOf = identityOf): BoundView {
  const binds = visibleBinds(argv);
  if (binds === null) return { state: "differs", path: "(an argv this reader does not know)" };
  if (identity(`${root}/`) === identity("/")) return { state: "mounting" };
  const sources = bindSources(argv, identity);
  for (const { source, dest } of binds) {
    const host = sources.get(source) as string;
    if (host === "missing") continue; // a -try bind of an absent source mounts nothing
    const seen = identity(`${root}${dest}`);
    if (seen === "missing") return { state: "mounting" };
    if (seen !== host) return { state: "differs", path: dest };
  }
  return { state: "mounted", sources };
}
