// Host-side preparation of one bwrap run: unprivileged identity, ACL grants, read-only git metadata and installation, seccomp and bind descriptors.

import type { Stats } from "node:fs";
import { closeSync } from "node:fs";
import { access, lstat, readFile, realpath, stat } from "node:fs/promises";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { type BwrapPlan, boundSources, isUnder } from "./bwrap.js";
import { type GrantCache, openGrantCache } from "./grant-cache.js";
import {
  grantOnce,
  grantTmpDir,
  grantTraverse,
  grantWritable,
  type SandboxIdentity,
  sandboxIdentity,
} from "./identity.js";
import { USER_NET_RESOLV_CONF } from "./netns.js";
import { findExecutable, ownPackageRoot } from "./runner.js";
import { seccompProgram, seccompSupported } from "./seccomp.js";
import {
  areaSkip,
  newGitPaths,
  removePlanted,
  scanWritableArea,
  type WritableScan,
} from "./writable-area.js";

export interface SetupInput {
  writablePaths: string[];
  persistentPaths: string[];
  tmpDir?: string;
  sensitivePaths: string[];
  sandboxUid: number;
  /** Network granted: the run gets the user-mode network's resolver as /etc/resolv.conf. */
  network: boolean;
  /** Where the ACL grants made for the sandbox uid are remembered (grant-cache.ts); none: every grant is made. */
  grantCacheFile?: string;
  /** Descriptor number the first extra descriptor gets in bwrap (after stdio and the hand-shake pair). */
  firstFd: number;
}

export interface SandboxSetup {
  identity: SandboxIdentity;
  /** The walk of the writable paths made for the grants (reused as the workspace budget's baseline). */
  scan: WritableScan;
  /** Argv before bwrap: setpriv (root only), then keyctl for a fresh session keyring when available. */
  prefix: string[];
  /** Fields merged into the bwrap plan. */
  plan: Pick<BwrapPlan, "protectedPaths" | "seccompFd" | "resolvConfFd">;
  /** What bwrap gets from `firstFd` on, in order: bytes to read from a pipe (the seccomp program). */
  fds: Array<number | Buffer>;
  warnings: string[];
  /** What the keyctl wrapper prints first on stderr. */
  stderrPreamble?: RegExp;
  /** Closes the descriptors (call once spawned). */
  release(): void;
  /** After the run: removes `.git` entries the run created (seen in `after` when given); returns the removed paths. */
  removePlantedGit(after?: WritableScan): Promise<string[]>;
}

const SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
let programCache: Buffer | null = null;

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/** skillgate's installation parts that must stay read-only wherever the workspace is. */
async function installationPaths(writable: string[]): Promise<string[]> {
  const root = ownPackageRoot();
  if (root === null) return [];
  const parts = ["dist", "runtime", "node_modules", "skills", "scripts", "package.json"].map((name) =>
    join(root, name),
  );
  // The whole package when a writable folder contains it; its parts when the workspace lies inside it.
  const inside = writable.some((path) => isUnder(path, root) && path !== root);
  const candidates = writable.some((path) => isUnder(root, path)) && !inside ? [root] : parts;
  const inWritable = candidates.filter((path) => writable.some((w) => isUnder(path, w)));
  const present = await Promise.all(inWritable.map(exists));
  return inWritable.filter((_, index) => present[index]);
}

/** A `.git` file or symlink names the real git folder (and a worktree's common folder): those must be read-only too. */
async function gitTargets(gitPath: string, info: Stats | null): Promise<string[]> {
  const targets: string[] = [];
  const add = async (path: string): Promise<void> => {
    try {
      targets.push(await realpath(path));
    } catch {
      // dangling: nothing to protect
    }
  };
  if (!info) return targets;
  if (info.isSymbolicLink()) await add(gitPath);
  else if (info.isFile() && info.size < 4096) {
    const match = /^gitdir:\s*(.+?)\s*$/m.exec(await readFile(gitPath, "utf8").catch(() => ""));
    if (match?.[1]) {
      const gitDir = isAbsolute(match[1]) ? match[1] : resolve(dirname(gitPath), match[1]);
      await add(gitDir);
      const common = await readFile(join(gitDir, "commondir"), "utf8").catch(() => null);
      if (common !== null) await add(resolve(gitDir, common.trim()));
    }
  }
  return targets;
}

export async function prepareSandbox(input: SetupInput, planBase: BwrapPlan): Promise<SandboxSetup> {
  const identity = sandboxIdentity(input.sandboxUid);
  const warnings: string[] = [];
  const roots = input.writablePaths;
  const skip = areaSkip(roots, input.sensitivePaths);
  const scan = await scanWritableArea(roots, { skip });
  if (scan.truncated) {
    warnings.push(
      `the writable area has more than ${scan.entries.length} entries; git metadata beyond them is not protected; fix: run scripts with a smaller workspace`,
    );
  }
  const gitProtected = await Promise.all(
    scan.gitPaths.map(async (path) => {
      const kind = await lstat(path).catch(() => null);
      const own = kind?.isSymbolicLink() ? [] : [path];
      const targets = await gitTargets(path, kind);
      return [...own, ...targets.filter((target) => roots.some((root) => isUnder(target, root)))];
    }),
  );
  const protectedPaths = [...new Set([...gitProtected.flat(), ...(await installationPaths(roots))])];

  let cache: GrantCache | undefined;
  if (identity.dropped) {
    if (input.grantCacheFile !== undefined) cache = await openGrantCache(input.grantCacheFile);
    const owner = (await stat(roots[0] ?? "/")).uid;
    await grantWritable(scan, identity.uid, owner, cache);
    await grantOnce(input.persistentPaths, identity.uid, cache);
    if (input.tmpDir !== undefined) await grantTmpDir(input.tmpDir, identity.uid, cache);
  }

  const fds: Array<number | Buffer> = [];
  let seccompFd: number | undefined;
  if (seccompSupported()) {
    // Through a pipe, not a file: no file a script could reach can change the next run's filter.
    programCache ??= seccompProgram();
    seccompFd = input.firstFd + fds.length;
    fds.push(programCache);
  } else {
    warnings.push(
      `no seccomp filter: architecture ${process.arch} has no syscall table (x86_64 and aarch64 do)`,
    );
  }
  let resolvConfFd: number | undefined;
  if (input.network) {
    resolvConfFd = input.firstFd + fds.length;
    fds.push(Buffer.from(USER_NET_RESOLV_CONF));
  }
  // bwrap, started as the sandbox uid, must be able to walk to every source it binds.
  if (identity.dropped) {
    const writable = [
      ...roots,
      ...input.persistentPaths,
      ...(input.tmpDir === undefined ? [] : [input.tmpDir]),
    ];
    await grantTraverse(boundSources({ ...planBase, protectedPaths }), identity.uid, writable, cache);
    await cache?.commit();
  }
  const keyctl = findExecutable("keyctl", SYSTEM_PATH);
  if (keyctl === null) {
    warnings.push(
      "the sandbox keeps skillgate's session keyring (keyctl of keyutils is missing); keyring syscalls are denied by seccomp all the same",
    );
  }
  return {
    identity,
    scan,
    prefix: [...identity.prefix, ...(keyctl === null ? [] : [keyctl, "session", "-"])],
    plan: {
      protectedPaths,
      ...(seccompFd === undefined ? {} : { seccompFd }),
      ...(resolvConfFd === undefined ? {} : { resolvConfFd }),
    },
    fds,
    warnings,
    ...(keyctl === null ? {} : { stderrPreamble: /^Joined session keyring: \d+\n/ }),
    release() {
      for (const fd of fds) {
        if (typeof fd !== "number") continue;
        try {
          closeSync(fd);
        } catch {
          // closed already
        }
      }
      fds.length = 0;
    },
    async removePlantedGit(after?: WritableScan) {
      const planted = await newGitPaths(roots, scan.gitPaths, skip, after);
      const left = await removePlanted(planted);
      return planted.filter((path) => !left.includes(path));
    },
  };
}
