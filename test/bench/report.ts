// Shared bench reporter: collects samples from performance.now(), prints one table per benchmark, appends JSON lines to $TMPDIR.
import { appendFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";

/** Where every printed row is also appended (one JSON object a line); outside the repo on purpose. */
export const RESULTS_FILE = join(os.tmpdir(), "skillgate-bench-results.jsonl");

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** Nearest-rank percentile (p in 0..100); NaN when there are no samples. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  if (p === 50 && sorted.length % 2 === 0) {
    const middle = sorted.length / 2;
    return ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
  }
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}

/** Named sample series (milliseconds unless the caller says otherwise). */
export class Samples {
  readonly series = new Map<string, number[]>();

  add(key: string, value: number): void {
    const list = this.series.get(key) ?? [];
    list.push(value);
    this.series.set(key, list);
  }

  get(key: string): number[] {
    return this.series.get(key) ?? [];
  }

  median(key: string): number {
    return median(this.get(key));
  }

  time<T>(key: string, run: () => T): T {
    const start = performance.now();
    const result = run();
    this.add(key, performance.now() - start);
    return result;
  }

  async timeAsync<T>(key: string, run: () => Promise<T>): Promise<T> {
    const start = performance.now();
    const result = await run();
    this.add(key, performance.now() - start);
    return result;
  }
}

export interface Row {
  name: string;
  /** Median of our path (or the measured figure: p50, p99, MiB). */
  ours: number;
  /** Median of the baseline measured in the same run; null when the target is absolute. */
  baseline: number | null;
  /** What the baseline is (shown under the table). */
  baselineName?: string;
  /** Overrides ours/baseline (e.g. the median of paired per-iteration ratios). */
  ratio?: number | null;
  /** Human-readable target, e.g. "<= 1.2x" or "< 2 ms"; "" when informational. */
  target: string;
  /** Whether the target is met; null when there is no target. */
  met: boolean | null;
  unit?: "ms" | "MiB" | "%" | "calls";
  samples?: number;
}

export interface TableOptions {
  /** Lines printed under the table: baselines, notes, breakdowns. */
  notes?: string[];
}

function format(value: number | null, unit: string): string {
  if (value === null || Number.isNaN(value)) return "-";
  const digits = Math.abs(value) >= 100 ? 1 : Math.abs(value) >= 10 ? 2 : 3;
  return `${value.toFixed(digits)} ${unit}`;
}

function machine(): string {
  return `${os.cpus().length} cores, Node ${process.versions.node}`;
}

/** Ratio ours / baseline, or the row's own ratio. */
export function ratioOf(row: Row): number | null {
  if (row.ratio !== undefined) return row.ratio;
  if (row.baseline === null || row.baseline === 0) return null;
  return row.ours / row.baseline;
}

/** Renders the table as text (pure; printTable prints it). */
export function renderTable(title: string, rows: Row[], options: TableOptions = {}): string {
  const header = ["name", "ours median", "baseline median", "ratio", "target", "met?"];
  const cells = rows.map((row) => {
    const unit = row.unit ?? "ms";
    const ratio = ratioOf(row);
    return [
      row.name,
      format(row.ours, unit),
      format(row.baseline, unit),
      ratio === null ? "-" : `${ratio.toFixed(2)}x`,
      row.target || "-",
      row.met === null ? "-" : row.met ? "yes" : "NO",
    ];
  });
  const widths = header.map((title, column) =>
    Math.max(title.length, ...cells.map((line) => (line[column] as string).length)),
  );
  const line = (parts: string[]) =>
    `| ${parts.map((part, i) => part.padEnd(widths[i] as number)).join(" | ")} |`;
  const rule = `|${widths.map((width) => "-".repeat(width + 2)).join("|")}|`;
  const baselines = rows
    .filter((row) => row.baselineName)
    .map((row) => `  baseline of "${row.name}": ${row.baselineName}`);
  return [
    "",
    `### ${title} (${machine()})`,
    line(header),
    rule,
    ...cells.map(line),
    ...baselines,
    ...(options.notes ?? []).map((note) => `  ${note}`),
    "",
  ].join("\n");
}

/** Prints the table on stdout and appends one JSON line per row to RESULTS_FILE. */
export function printTable(title: string, rows: Row[], options: TableOptions = {}): void {
  console.log(renderTable(title, rows, options));
  const at = new Date().toISOString();
  const lines = rows.map((row) =>
    JSON.stringify({ at, bench: title, ...row, ratio: ratioOf(row), machine: machine() }),
  );
  try {
    appendFileSync(RESULTS_FILE, `${lines.join("\n")}\n`);
  } catch {
    // The table on stdout is the result; the JSON copy is a convenience.
  }
}
