// The stage instance hooks see: configured tasks, description and check hints, whose methods hooks.ts may wrap.
import type { StageConfig } from "../config/index.js";

export const HOOKABLE_METHODS = ["getTasks", "describe", "onCheck"] as const;
export type HookableMethod = (typeof HOOKABLE_METHODS)[number];
// biome-ignore lint/suspicious/noExplicitAny: hooks wrap methods of different signatures
export type HookFunction = (original: (...args: any[]) => any, ...args: any[]) => unknown;

export interface CheckSummary {
  passed: boolean;
  message: string;
}

/** One stage as hooks see it. Hooks may shape guidance (tasks, description, check hints), never requirements. */
export class StageInstance {
  readonly hooksApplied = new Set<string>();
  /** Problems met while running hooked methods (reported once, then the unhooked result is used). */
  readonly runtimeWarnings: string[] = [];

  constructor(
    readonly index: number,
    readonly config: StageConfig,
    readonly skillList: string[],
  ) {}

  get name(): string {
    return this.config.name;
  }

  /** Task lines shown to the agent. */
  getTasks(): string[] {
    return [...this.config.task];
  }

  /** One-line description of the stage. */
  describe(): string {
    return this.config.desc;
  }

  /** Extra hint lines added to a Check result. */
  onCheck(_result: CheckSummary): string[] {
    return [];
  }

  /** Wraps `method` of this instance: later calls run `fn(original, ...args)`. */
  addHook(method: HookableMethod, fn: HookFunction): void {
    if (!HOOKABLE_METHODS.includes(method)) {
      throw new Error(`unknown stage method '${String(method)}' (hookable: ${HOOKABLE_METHODS.join(", ")})`);
    }
    const self = this as unknown as Record<string, (...args: unknown[]) => unknown>;
    const original = self[method]!.bind(this);
    self[method] = (...args: unknown[]) => fn(original, ...args);
  }

  /** Tasks after hooks, falling back to the configured tasks if a hook misbehaves. */
  safeTasks(): string[] {
    return this.safely(
      "getTasks",
      () => this.getTasks(),
      isStringArray,
      () => [...this.config.task],
    );
  }

  safeDescribe(): string {
    return this.safely(
      "describe",
      () => this.describe(),
      (v): v is string => typeof v === "string",
      () => this.config.desc,
    );
  }

  safeOnCheck(result: CheckSummary): string[] {
    return this.safely(
      "onCheck",
      () => this.onCheck(result),
      isStringArray,
      () => [],
    );
  }

  private safely<T>(
    method: string,
    call: () => unknown,
    valid: (v: unknown) => v is T,
    fallback: () => T,
  ): T {
    try {
      const value = call();
      if (valid(value)) return value;
      this.warnOnce(
        `a hook of stage '${this.name}' made ${method}() return ${typeof value}; the unhooked result is used`,
      );
    } catch (error) {
      this.warnOnce(
        `a hook of stage '${this.name}' threw in ${method}(): ${(error as Error).message ?? String(error)}; the unhooked result is used`,
      );
    }
    return fallback();
  }

  private warnOnce(text: string): void {
    if (!this.runtimeWarnings.includes(text)) this.runtimeWarnings.push(text);
  }
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === "string");
}
