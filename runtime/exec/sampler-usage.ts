// Shared statfs readings of the file systems holding runs' writable areas: one reading serves every run that asks while it is fresh.
import { lstat, statfs } from "node:fs/promises";

/** Used inodes and bytes of the file systems holding some roots (each file system once). */
export interface FsUsage {
  inodes: number;
  bytes: number;
  /** statfs counts inodes on every file system involved. */
  inodesCounted: boolean;
}

/** One file system's counters (null: statfs failed there). */
interface FsReading {
  inodes: number;
  bytes: number;
  inodesCounted: boolean;
}

export interface UsageIO {
  /** Device id of a path (null: it does not exist). */
  device(path: string): Promise<number | null>;
  statfs(path: string): Promise<FsReading | null>;
  now(): number;
}

const FS_IO: UsageIO = {
  device: (path) =>
    lstat(path).then(
      (info) => info.dev,
      () => null,
    ),
  statfs: (path) =>
    statfs(path).then(
      (fs) => ({
        inodes: fs.files - fs.ffree,
        bytes: (fs.blocks - fs.bfree) * fs.bsize,
        // btrfs and zfs report 0 inodes: statfs cannot see a file flood there.
        inodesCounted: fs.files !== 0,
      }),
      () => null,
    ),
  now: () => performance.now(),
};

interface Reading {
  started: number;
  reading: Promise<FsReading | null>;
}

/** A run's file systems: the device of each of its roots, looked up once, and one path on each. */
export interface Devices {
  paths: ReadonlyMap<number, string>;
}

/**
 * Why shared: each live run checks its writable area every 100 ms, and with many runs at once their statfs and
 * lstat calls (each a thread-pool round trip) were a tenth of the server's busy time. The device of a run's root
 * does not change while it runs, so it is looked up once; statfs of a file system is read once for every run
 * that asks within its freshness window. A reading is reused only when it *started* at or after the asker's
 * `notBefore`, so a check made after a run ended never gets a reading taken before the run's last writes.
 */
export class SharedUsage {
  private readonly readings = new Map<number, Reading>();

  constructor(private readonly io: UsageIO = FS_IO) {}

  now(): number {
    return this.io.now();
  }

  async devices(roots: readonly string[]): Promise<Devices> {
    const paths = new Map<number, string>();
    for (const root of roots) {
      const device = await this.io.device(root);
      if (device !== null && !paths.has(device)) paths.set(device, root);
    }
    return { paths };
  }

  /**
   * Usage of `devices`, from readings started at or after `notBefore` and strictly after `after` (this.now()
   * scale; a caller passes its last answer's `started`, so it never gets the same reading twice). `started` is
   * when the newest reading used began.
   */
  async usage(
    devices: Devices,
    notBefore: number,
    after = -Infinity,
  ): Promise<FsUsage & { started: number }> {
    const pending = [...devices.paths].map(([device, path]) => this.reading(device, path, notBefore, after));
    const readings = await Promise.all(pending);
    const started = readings.length === 0 ? this.io.now() : Math.max(...readings.map((r) => r.started));
    const usage = { inodes: 0, bytes: 0, inodesCounted: true, started };
    for (const { reading } of readings) {
      if (reading === null) {
        usage.inodesCounted = false;
        continue;
      }
      if (!reading.inodesCounted) usage.inodesCounted = false;
      usage.inodes += reading.inodes;
      usage.bytes += reading.bytes;
    }
    return usage;
  }

  private async reading(
    device: number,
    path: string,
    notBefore: number,
    after: number,
  ): Promise<Omit<Reading, "reading"> & { reading: FsReading | null }> {
    let entry = this.readings.get(device);
    if (entry === undefined || entry.started < notBefore || entry.started <= after) {
      entry = { started: this.io.now(), reading: this.io.statfs(path) };
      this.readings.set(device, entry);
    }
    return { started: entry.started, reading: await entry.reading };
  }
}

/** The process-wide readings every run of this process shares. */
export const sharedUsage = new SharedUsage();
