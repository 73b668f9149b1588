// Who a sandboxed run is on the host: root drops to a dedicated unprivileged uid (setpriv) that POSIX ACLs let into the writable area only.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import type { BigIntStats, Stats } from "node:fs";
import { chmod, lstat, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { SkillgateError } from "../errors.js";
import type { GrantCache } from "./grant-cache.js";
import { findExecutable } from "./runner.js";
import { scanWritableArea, type WritableScan } from "./writable-area.js";

/** Default host uid of sandboxed runs started by root: high, outside every distribution's user and subuid ranges. */
export const DEFAULT_SANDBOX_UID = 2_147_000_001;

export interface SandboxIdentity {
  /** Host uid (and gid) the sandbox runs as. */
  uid: number;
  /** Argv prefix that switches to it (empty when skillgate already runs as that uid). */
  prefix: string[];
  /** True when root dropped to `uid`, so the writable area needs ACLs for it. */
  dropped: boolean;
}

const SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/**
 * Root runs the sandbox as `sandboxUid` (never host uid 0: bwrap would map the sandbox user onto it); anyone else
 * runs it as themselves, which is already unprivileged.
 */
export function sandboxIdentity(sandboxUid: number, uid = process.getuid?.() ?? -1): SandboxIdentity {
  if (uid !== 0) return { uid, prefix: [], dropped: false };
  if (!Number.isInteger(sandboxUid) || sandboxUid <= 0) {
    throw new SkillgateError(
      "CONFIG_INVALID",
      `exec.sandbox_uid is ${sandboxUid}; the sandbox must run as an unprivileged host uid; fix: set exec.sandbox_uid to a positive uid no real user has (default ${DEFAULT_SANDBOX_UID})`,
    );
  }
  const setpriv = findExecutable("setpriv", SYSTEM_PATH);
  if (setpriv === null) {
    throw new SkillgateError(
      "SANDBOX_UNAVAILABLE",
      "skillgate runs as root and needs setpriv (util-linux) to start the sandbox as an unprivileged uid; fix: apt-get install util-linux",
    );
  }
  const id = String(sandboxUid);
  return {
    uid: sandboxUid,
    prefix: [setpriv, `--reuid=${id}`, `--regid=${id}`, "--clear-groups", "--no-new-privs", "--"],
    dropped: true,
  };
}

/** Runs setfacl with the paths on stdin (never through a shell), or returns why it failed. */
function setfacl(args: string[], paths: string[]): Promise<string | null> {
  if (paths.length === 0) return Promise.resolve(null);
  const setfaclPath = findExecutable("setfacl", SYSTEM_PATH);
  if (setfaclPath === null) return Promise.resolve("setfacl (package acl) is not installed");
  return new Promise((resolve) => {
    const child = spawn(setfaclPath, [...args, "-"], { stdio: ["pipe", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.once("error", (error) => {
      clearTimeout(timer);
      resolve(`setfacl could not run: ${error.message}`);
    });
    child.once("close", (status, signal) => {
      clearTimeout(timer);
      if (status === 0) resolve(null);
      else
        resolve(
          `setfacl failed: ${stderr.trim().split("\n").slice(0, 3).join("; ") || `exit ${status ?? signal}`}`,
        );
    });
    child.stdin.on("error", () => undefined);
    child.stdin.end(`${paths.join("\n")}\n`);
  });
}

/** setfacl for the paths the cache has no record of (all of them without a cache); records what it granted. */
async function grant(args: string[], paths: string[], cache: GrantCache | undefined): Promise<string | null> {
  if (cache === undefined) return setfacl(args, paths);
  const spec = args.join(" ");
  const todo = await cache.missing(spec, paths);
  const problem = await setfacl(args, todo);
  if (problem === null) cache.granted(spec, todo);
  return problem;
}

/**
 * Lets `uid` read and write the writable area (existing entries, and through default ACLs what is created
 * later) while the owner keeps full use of what the run creates. Skips symlinks, hard-linked files and the
 * entries `scan` excluded (git metadata, skillgate state, sensitive paths): an ACL follows the inode.
 */
export async function grantWritable(
  scan: WritableScan,
  uid: number,
  owner: number,
  cache?: GrantCache,
): Promise<void> {
  const dirs = scan.entries.filter((entry) => entry.dir).map((entry) => entry.path);
  const files = scan.entries.filter((entry) => !entry.dir).map((entry) => entry.path);
  const problem =
    (await grant(["-m", `u:${uid}:rwX,m::rwX`], [...dirs, ...files], cache)) ??
    (await grant(["-d", "-m", `u:${uid}:rwx,u:${owner}:rwx,m::rwx`], dirs, cache));
  if (problem !== null) {
    throw new SkillgateError(
      "SANDBOX_UNAVAILABLE",
      `cannot give the sandbox uid ${uid} access to the writable area ${scan.roots.join(", ")}: ${problem}; fix: apt-get install acl and use a file system with POSIX ACLs, or run skillgate as a normal user`,
    );
  }
}

const granted = new Set<string>();

function traverseKey(uid: number, bits: number, path: string, info: BigIntStats): string {
  return `${uid}\0${bits}\0${path}\0${info.dev}:${info.ino}:${info.birthtimeNs}`;
}

/**
 * Search (x) on every ancestor of `paths` and read+search on the read-only sources themselves, where the
 * sandbox uid lacks them (e.g. /root, mkdtemp folders). Search alone lists nothing: inside the sandbox only
 * the bound folders exist, so this opens no other host file to a script.
 */
export async function grantTraverse(
  paths: string[],
  uid: number,
  writable: readonly string[] = [],
  cache?: GrantCache,
): Promise<void> {
  const searchOnly = new Set<string>();
  const readable = new Set<string>();
  for (const path of paths) {
    let dir = dirname(path);
    while (dir !== dirname(dir)) {
      searchOnly.add(dir);
      dir = dirname(dir);
    }
    if (!writable.includes(path)) readable.add(path);
  }
  // Keyed by the folder's identity too: one removed and made again at the same path has lost its ACL.
  const keyOf = new Map<string, string>();
  const lacking = async (path: string, bits: number): Promise<boolean> => {
    const info = await lstat(path, { bigint: true }).catch(() => null);
    if (info === null) return false;
    const key = traverseKey(uid, bits, path, info);
    keyOf.set(`${bits}\0${path}`, key);
    if (granted.has(key)) return false;
    return info.isDirectory() && info.uid !== BigInt(uid) && (info.mode & BigInt(bits)) !== BigInt(bits);
  };
  const keep = async (paths: string[], bits: number): Promise<string[]> => {
    const verdicts = await Promise.all(paths.map((path) => lacking(path, bits)));
    return paths.filter((_, index) => verdicts[index]);
  };
  const search = await keep(
    [...searchOnly].filter((path) => !readable.has(path) && !writable.includes(path)),
    0o001,
  );
  const read = await keep([...readable], 0o005);
  const problem =
    (await grant(["-m", `u:${uid}:x`], search, cache)) ?? (await grant(["-m", `u:${uid}:rx`], read, cache));
  if (problem !== null) {
    throw new SkillgateError(
      "SANDBOX_UNAVAILABLE",
      `cannot let the sandbox uid ${uid} reach ${[...search, ...read].join(", ")}: ${problem}; fix: apt-get install acl, or run skillgate as a normal user`,
    );
  }
  for (const path of search) granted.add(keyOf.get(`${0o001}\0${path}`) as string);
  for (const path of read) granted.add(keyOf.get(`${0o005}\0${path}`) as string);
}

/** grantWritable for folders skillgate owns (caches): walked once per process, default ACLs cover the rest. */
export async function grantOnce(dirs: string[], uid: number, cache?: GrantCache): Promise<void> {
  const keys = await Promise.all(
    dirs.map(async (dir) => {
      const info = await lstat(dir, { bigint: true }).catch(() => null);
      return `${uid}\0${dir}\0${info === null ? "missing" : `${info.dev}:${info.ino}:${info.birthtimeNs}`}`;
    }),
  );
  const fresh = dirs.filter((_, index) => !granted.has(keys[index] as string));
  if (fresh.length === 0) return;
  await grantWritable(await scanWritableArea(fresh, { skip: () => false }), uid, 0, cache);
  for (const [index, dir] of dirs.entries()) if (fresh.includes(dir)) granted.add(keys[index] as string);
}

function checkOwnedFolder(path: string, info: Stats, uid: number): void {
  if (info.isSymbolicLink() || !info.isDirectory() || info.uid !== uid || (info.mode & 0o007) !== 0) {
    const what = info.isSymbolicLink()
      ? "a symlink"
      : !info.isDirectory()
        ? "not a folder"
        : info.uid !== uid
          ? `owned by uid ${info.uid}`
          : `mode ${(info.mode & 0o777).toString(8)}`;
    throw new SkillgateError(
      "SANDBOX_UNAVAILABLE",
      `the run temp folder ${path} is ${what}, expected a folder of uid ${uid} that others cannot enter (mode 700); fix: remove it (someone else may have planted it) and retry`,
    );
  }
}

async function ensurePrivateFolder(path: string, uid: number): Promise<void> {
  try {
    await mkdir(path, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  const info = await lstat(path);
  // Group bits may be the ACL mask of the sandbox uid's entry (root only); others never get in.
  if (info.uid === uid && info.isDirectory() && !info.isSymbolicLink() && (info.mode & 0o007) !== 0) {
    await chmod(path, 0o700);
    checkOwnedFolder(path, await lstat(path), uid);
    return;
  }
  checkOwnedFolder(path, info, uid);
}

/**
 * The host-visible temp folder of runs in `workspace`: `<tmp>/skillgate-<uid>/<workspace hash>`, both levels
 * mode 0700 and checked with lstat (owner, no symlink), never a fixed shared name another user could plant.
 */
export async function privateTmpDir(
  workspace: string,
  base = tmpdir(),
  uid = process.getuid?.() ?? 0,
): Promise<string> {
  const user = join(base, `skillgate-${uid}`);
  await ensurePrivateFolder(user, uid);
  const dir = join(user, createHash("sha256").update(workspace).digest("hex").slice(0, 16));
  await ensurePrivateFolder(dir, uid);
  return dir;
}

/** Traverse-only ACL for the sandbox uid on the per-user temp parent, full access on the run folder. */
export async function grantTmpDir(dir: string, uid: number, cache?: GrantCache): Promise<void> {
  // The folder is skillgate's own (privateTmpDir) and keeps its ACLs: granted once per uid and inode.
  const key = `${uid}\0tmp\0${dir}\0${(await lstat(dir)).ino}`;
  if (granted.has(key)) return;
  const parent = dirname(dir);
  // The parent's ctime moves whenever any workspace's temp folder is made in it: its record is kept by identity.
  const search = ["-m", `u:${uid}:x`];
  const todo = cache === undefined ? [parent] : await cache.missingOwn(search.join(" "), [parent], 0o010);
  const searchProblem = await setfacl(search, todo);
  if (searchProblem === null) cache?.grantedOwn(search.join(" "), todo);
  const problem =
    searchProblem ??
    (await grant(["-m", `u:${uid}:rwx,m::rwx`], [dir], cache)) ??
    (await grant(["-d", "-m", `u:${uid}:rwx,u:${process.getuid?.() ?? 0}:rwx,m::rwx`], [dir], cache));
  if (problem !== null) {
    throw new SkillgateError(
      "SANDBOX_UNAVAILABLE",
      `cannot give the sandbox uid ${uid} access to the run temp folder ${dir}: ${problem}; fix: apt-get install acl`,
    );
  }
  granted.add(key);
  // grantTraverse (bwrap must reach the folder) finds the parent granted rather than asking setfacl again.
  const parentInfo = await lstat(parent, { bigint: true });
  granted.add(traverseKey(uid, 0o001, parent, parentInfo));
}
