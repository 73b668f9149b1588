// Authority mode's rules: who may serve a workspace as its authority, and the state folder only the authority can write.
import { execFileSync } from "node:child_process";
import { lstatSync, readFileSync } from "node:fs";
import { chmod, chown, lstat, mkdir, stat } from "node:fs/promises";
import type { WorkspacePaths } from "../contracts/index.js";
import { SkillgateError } from "../errors.js";

export interface Principal {
  uid: number;
  gid: number;
  user: string;
}

export interface IdentityInput {
  self: Principal;
  workspace: string;
  /** Owner of the workspace folder (the agent's user). */
  ownerUid: number;
  /** Groups the workspace owner belongs to (null when unknown). */
  ownerGroups: number[] | null;
  sameUserOk: boolean;
}

const SETUP_HINT = "docs/authority.md shows how to create the authority user";

/** Pure: refuses an authority that the agent's user could impersonate or read. */
export function checkIdentity(input: IdentityInput): void {
  const { self, workspace, ownerUid } = input;
  if (self.uid === 0) {
    throw new SkillgateError(
      "AUTHORITY_REFUSED",
      `serve --authority runs as root; it must run as a dedicated unprivileged user that holds only the signing key and the state folder; fix: run it as that user (e.g. sudo -u skillgate skillgate serve --authority --workspace ${workspace}); ${SETUP_HINT}`,
      { uid: self.uid },
    );
  }
  if (self.uid === ownerUid && !input.sameUserOk) {
    throw new SkillgateError(
      "AUTHORITY_REFUSED",
      `serve --authority runs as ${self.user} (uid ${self.uid}), the owner of the workspace ${workspace}: an agent running as that user could read the signing key and rewrite the state, so nothing would be enforced; fix: run it as a dedicated user (${SETUP_HINT}), or pass --same-user-ok for tests only`,
      { uid: self.uid, owner: ownerUid },
    );
  }
  if (self.uid !== ownerUid && input.ownerGroups?.includes(self.gid)) {
    throw new SkillgateError(
      "AUTHORITY_REFUSED",
      `the workspace owner (uid ${ownerUid}) is a member of group ${self.gid}, the authority's own group, so it could write the state folder; fix: give the authority user a group of its own (useradd --user-group) that the agent's user is not in`,
      { uid: self.uid, gid: self.gid, owner: ownerUid },
    );
  }
}

/** Groups of a uid from `id -G` (null when `id` cannot tell). */
export function groupsOf(uid: number): number[] | null {
  try {
    const out = execFileSync("id", ["-G", String(uid)], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
    return out
      .trim()
      .split(/\s+/)
      .map(Number)
      .filter((gid) => Number.isInteger(gid));
  } catch {
    return null;
  }
}

/** A group name or number to a gid, via /etc/group. */
export function resolveGroup(group: string, groupFile = "/etc/group"): number {
  if (/^\d+$/.test(group)) return Number(group);
  let text = "";
  try {
    text = readFileSync(groupFile, "utf8");
  } catch {
    // Falls through to the not-found error.
  }
  for (const line of text.split("\n")) {
    const [name, , gid] = line.split(":");
    if (name === group && gid !== undefined && /^\d+$/.test(gid)) return Number(gid);
  }
  throw new SkillgateError(
    "USAGE",
    `--socket-group ${group}: no such group in ${groupFile}; fix: give an existing group name or a numeric gid`,
    { group },
  );
}

/** Without protected hard links the agent could link the authority's key into the workspace and read it through the tools. */
export function checkProtectedHardlinks(
  read: (file: string) => string = (f) => readFileSync(f, "utf8"),
  platform: NodeJS.Platform = process.platform,
): void {
  if (platform !== "linux") return;
  let value: string;
  try {
    value = read("/proc/sys/fs/protected_hardlinks").trim();
  } catch {
    return;
  }
  if (value !== "1") {
    throw new SkillgateError(
      "AUTHORITY_REFUSED",
      `fs.protected_hardlinks is ${value}: the agent's user could hard-link the authority's files (its signing key) into the workspace and read them through the tools; fix: sysctl -w fs.protected_hardlinks=1 (and persist it in /etc/sysctl.d)`,
      { protected_hardlinks: value },
    );
  }
}

function foreign(dir: string, problem: string, fix: string): SkillgateError {
  return new SkillgateError("AUTHORITY_STATE_FOREIGN", `state folder ${dir} ${problem}; fix: ${fix}`, {
    dir,
  });
}

/** The state folder is the authority's: a real folder, owned by it, writable by no one else. */
export async function verifyStateFolder(
  paths: Pick<WorkspacePaths, "skillgateDir">,
  self: Principal,
): Promise<void> {
  const dir = paths.skillgateDir;
  let info: Awaited<ReturnType<typeof lstat>>;
  try {
    info = await lstat(dir);
  } catch (error) {
    throw foreign(
      dir,
      `cannot be inspected (${(error as NodeJS.ErrnoException).code}); it was moved or removed while the authority ran`,
      "restore it, or restart the authority (which creates a new one and records it)",
    );
  }
  if (!info.isDirectory() || info.isSymbolicLink()) {
    throw foreign(dir, "is not a folder (replaced by a link or file)", "restore the authority's folder");
  }
  if (info.uid !== self.uid) {
    throw foreign(
      dir,
      `is owned by uid ${info.uid}, not by the authority ${self.user} (uid ${self.uid})`,
      `if this workspace was used before authority mode, move the old folder aside (mv ${dir} ${dir}.before-authority; its evidence was tamper-evident only) and start the authority again, which creates its own; if it was replaced while the authority ran, restore the original`,
    );
  }
  if ((info.mode & 0o022) !== 0) {
    throw foreign(
      dir,
      `is writable by its group or others (mode ${(info.mode & 0o7777).toString(8)})`,
      `chmod 0755 ${dir} as the authority user`,
    );
  }
}

/** Creates (or takes over, when already ours) the state folder: mode 0755, group = the authority's own group. */
export async function prepareStateFolder(paths: WorkspacePaths, self: Principal): Promise<void> {
  try {
    await mkdir(paths.stateDir, { recursive: true });
    await mkdir(paths.skillgateDir, { mode: 0o755 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "EEXIST") {
      const info = await stat(paths.root).catch(() => null);
      throw new SkillgateError(
        "AUTHORITY_REFUSED",
        `the authority ${self.user} cannot create ${paths.skillgateDir} (${code}; workspace owner uid ${info?.uid ?? "?"}, mode ${info ? (info.mode & 0o7777).toString(8) : "?"}); fix: share the workspace with the authority's user through the owner's group: chgrp -R GROUP ${paths.root} && chmod -R g+rwX ${paths.root} && find ${paths.root} -type d -exec chmod g+s {} + (docs/authority.md)`,
        { dir: paths.skillgateDir, errno: code },
      );
    }
  }
  const info = await lstat(paths.skillgateDir);
  if (info.isDirectory() && !info.isSymbolicLink() && info.uid === self.uid) {
    // Inherited setgid/group from the shared workspace would let the agent's group write what the authority creates.
    await chown(paths.skillgateDir, self.uid, self.gid);
    await chmod(paths.skillgateDir, 0o755);
  }
  await verifyStateFolder(paths, self);
}

/**
 * A process that is not the authority must not open a workspace whose state folder an authority owns: it cannot
 * write there anyway, and must go through the authority's socket instead.
 */
export async function refuseForeignState(
  paths: Pick<WorkspacePaths, "root" | "skillgateDir">,
  uid: number,
): Promise<void> {
  // Synchronous: every one-shot call asks this before it starts (a thread-pool round trip costs more than the lstat).
  let info: ReturnType<typeof lstatSync>;
  try {
    info = lstatSync(paths.skillgateDir);
  } catch {
    return;
  }
  if (!info || info.uid === uid) return;
  throw new SkillgateError(
    "AUTHORITY_STATE_FOREIGN",
    `state folder ${paths.skillgateDir} belongs to uid ${info.uid}, not to this user (uid ${uid}): the workspace is kept by a skillgate authority, and its evidence can only be written by it; fix: call the tools through it (skillgate call … --workspace ${paths.root}, or skillgate connect), after the operator starts it (docs/authority.md)`,
    { dir: paths.skillgateDir, owner: info.uid },
  );
}
