// The native tree prefetch (native/tree-prefetch.c) when it was built: folder listings and SKILL.md bytes, read ahead.
import type { Dirent } from "node:fs";
import { nativeModule } from "../contracts/index.js";

/** What the scanner uses of a listing's entry: a Dirent from readdirSync, or one decoded from the prefetch. */
export type DirEntry = Pick<Dirent, "name" | "isFile" | "isDirectory" | "isSymbolicLink">;

interface NativePrefetch {
  start(root: string, maxDepth: number): boolean;
  take(root: string, maxDepth: number): Buffer | undefined;
}

const HEADER_BYTES = 24;
const MAGIC = 0x53475446;
const VERSION = 1;
const NOT_READ = 0xffffffff;
const FILE = 1;
const DIRECTORY = 2;
const SYMLINK = 3;

/** Starts walking `root` on a native thread, for a scan of it that follows soon; false when there is no module. */
export function startTreePrefetch(root: string, maxDepth: number): boolean {
  return nativeModule<NativePrefetch>("tree-prefetch")?.start(root, maxDepth) ?? false;
}

/** The prefetch of `root` (absolute): the one started for it, else one made now; undefined without the module. */
export function takeTreePrefetch(root: string, maxDepth: number): TreePrefetch | undefined {
  const addon = nativeModule<NativePrefetch>("tree-prefetch");
  if (!addon) return undefined;
  let buffer = addon.take(root, maxDepth);
  if (!buffer && addon.start(root, maxDepth)) buffer = addon.take(root, maxDepth);
  if (!buffer || buffer.length < HEADER_BYTES) return undefined;
  if (buffer.readUInt32LE(0) !== MAGIC || buffer.readUInt32LE(4) !== VERSION) return undefined;
  try {
    return new TreePrefetch(root, buffer);
  } catch {
    // A walk result that does not add up: the scan lists the tree itself, as without the module.
    return undefined;
  }
}

class PrefetchedEntry implements DirEntry {
  constructor(
    readonly name: string,
    private readonly type: number,
  ) {}
  isFile(): boolean {
    return this.type === FILE;
  }
  isDirectory(): boolean {
    return this.type === DIRECTORY;
  }
  isSymbolicLink(): boolean {
    return this.type === SYMLINK;
  }
}

interface PrefetchedDir {
  /** Index of the folder's first entry name in `names`, and of its first type in `types`. */
  firstName: number;
  firstType: number;
  /** Entries; -1 once handed out. */
  count: number;
  skillFile: Buffer | undefined;
}

/**
 * One prefetched tree. Each folder's listing and SKILL.md are handed out once (a later look at the same folder is
 * a change to see, so it goes to the disk); a folder the walk did not record is undefined, and the caller lists or
 * reads it itself, with its own errors.
 */
export class TreePrefetch {
  private readonly dirs = new Map<string, PrefetchedDir>();
  private readonly names: string[];
  private readonly types: Uint8Array;

  constructor(root: string, buffer: Buffer) {
    const dirCount = buffer.readUInt32LE(8);
    const stringBytes = buffer.readUInt32LE(12);
    const entryCount = buffer.readUInt32LE(16);
    const contentBytes = buffer.readUInt32LE(20);
    const typesAt = HEADER_BYTES + stringBytes;
    const dirsAt = typesAt + entryCount;
    const contentAt = dirsAt + dirCount * 12;
    if (contentAt + contentBytes !== buffer.length) throw new Error("tree prefetch: inconsistent lengths");
    // One decode and one split for every path and name (names are valid UTF-8, checked by the walk).
    this.names = buffer.toString("utf8", HEADER_BYTES, typesAt).split("\0");
    this.types = buffer.subarray(typesAt, dirsAt);
    const prefix = root.endsWith("/") ? root : `${root}/`;
    let name = 0;
    let type = 0;
    for (let index = 0; index < dirCount; index++) {
      const relative = this.names[name] as string;
      const count = buffer.readUInt32LE(dirsAt + index * 12);
      const offset = buffer.readUInt32LE(dirsAt + index * 12 + 4);
      const length = buffer.readUInt32LE(dirsAt + index * 12 + 8);
      this.dirs.set(relative === "" ? root : prefix + relative, {
        firstName: name + 1,
        firstType: type,
        count,
        skillFile:
          length === NOT_READ ? undefined : buffer.subarray(contentAt + offset, contentAt + offset + length),
      });
      name += count + 1;
      type += count;
    }
  }

  /** The listing of `dir` as readdirSync gives it (sorted by bytes, no "." or ".."), or undefined. */
  entries(dir: string): DirEntry[] | undefined {
    const found = this.dirs.get(dir);
    if (!found || found.count < 0) return undefined;
    const entries: DirEntry[] = new Array(found.count);
    for (let index = 0; index < found.count; index++)
      entries[index] = new PrefetchedEntry(
        this.names[found.firstName + index] as string,
        this.types[found.firstType + index] as number,
      );
    found.count = -1;
    return entries;
  }

  /** SKILL.md's bytes in `dir` when it was a regular file under 64 KiB at the walk, or undefined. */
  skillFile(dir: string): Buffer | undefined {
    const found = this.dirs.get(dir);
    const bytes = found?.skillFile;
    if (found) found.skillFile = undefined;
    return bytes;
  }
}
