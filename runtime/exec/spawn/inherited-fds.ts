// Finds descriptors this process holds without close-on-exec (inherited from whoever started it), which every child would get.
import { openSync, readdirSync, readFileSync } from "node:fs";

/** O_CLOEXEC in the octal `flags:` line of /proc/<pid>/fdinfo/<fd>. */
const O_CLOEXEC = 0o2000000;

export interface FdTable {
  /** The descriptor numbers open in this process (names in /proc/self/fd). */
  list(): string[];
  /** The text of /proc/self/fdinfo/<fd>, or null when it is gone. */
  info(fd: number): string | null;
}

const procTable: FdTable = {
  list: () => readdirSync("/proc/self/fd"),
  info: (fd) => {
    try {
      return readFileSync(`/proc/self/fdinfo/${fd}`, "utf8");
    } catch {
      return null;
    }
  },
};

/**
 * Descriptors above stderr that an exec would keep open. Node and libuv open everything close-on-exec, so these
 * were handed to us by our parent (an agent host, a job runner); bwrap passes them on into the sandbox, where a
 * hostile script could write to or read from the host's pipe, socket or file.
 */
export function inheritedDescriptors(table: FdTable = procTable): number[] {
  let names: string[];
  try {
    names = table.list();
  } catch {
    return [];
  }
  const kept: number[] = [];
  for (const name of names) {
    const fd = Number(name);
    if (!Number.isInteger(fd) || fd <= 2) continue;
    const flags = /^flags:\s*([0-7]+)$/m.exec(table.info(fd) ?? "");
    if (flags && (Number.parseInt(flags[1] as string, 8) & O_CLOEXEC) === 0) kept.push(fd);
  }
  return kept.sort((a, b) => a - b);
}

let cover: { fds: number[]; devNull: number } | undefined;

/**
 * The stdio entries that put /dev/null over each inherited descriptor at or past `from` in a child (libuv leaves an
 * "ignore" entry above stderr untouched, so only a descriptor of ours dup2'ed onto that number replaces it). Read
 * once per process: descriptors are inherited at exec, and our own opens are close-on-exec.
 */
export function coverInherited(from: number): Array<"ignore" | number> {
  if (cover === undefined) {
    const fds = inheritedDescriptors();
    cover = { fds, devNull: fds.length > 0 ? openSync("/dev/null", "r") : -1 };
  }
  const { fds, devNull } = cover;
  const last = fds.at(-1);
  if (last === undefined || last < from) return [];
  const entries: Array<"ignore" | number> = [];
  for (let fd = from; fd <= last; fd++) entries.push(fds.includes(fd) ? devNull : "ignore");
  return entries;
}
