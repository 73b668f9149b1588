// The shared state of one stage engine (options, ledger, warnings, hookable stages) and the lookups every verb uses.
import { relative, sep } from "node:path";
import type { RuntimeConfig, SkillgateConfig, StageConfig } from "../config/index.js";
import { bundledPackRoot, type ToolName, type ToolResult, type WorkspacePaths } from "../contracts/index.js";
import {
  type BindingRefusal,
  bindingRefusal,
  type CurrentBinding,
  EvidenceLedger,
  type EvidenceState,
  evaluateGate,
  type GateVerdict,
  type LedgerKeys,
  type LedgerSnapshot,
  manifestMap,
  type StageSkillInfo,
} from "../evidence/index.js";
import type { CatalogSnapshot, Diagnostic, SkillRecord } from "../skills/index.js";
import { normaliseSkillId } from "../skills/index.js";
import { readManifest, verifyCopiedFile } from "../workspace/index.js";
import { fingerprintOutputs, type OutputFingerprint } from "./fingerprint.js";
import { checkFreshness, usageFreshness } from "./freshness.js";
import {
  applySkillHooks,
  type HookImporter,
  hookTrustProblem,
  importHookFile,
  StageInstance,
} from "./hooks.js";
import { errorResult } from "./results.js";
import { gateApplies, skillEvidence, stageSkillInfo, stageSkillList } from "./stage-skills.js";
import type { SkillEvidence, StageView } from "./types.js";
import { PendingWarnings } from "./warnings.js";
import { validateWorkflow } from "./workflow.js";

export interface StageEngineOptions {
  paths: WorkspacePaths;
  config: SkillgateConfig;
  runtime: RuntimeConfig;
  skillsEnabled: boolean;
  /** Current catalog of the workspace skill copy; null when the skill folder is missing. */
  catalog: () => CatalogSnapshot | null;
  now?: () => Date;
  /** Folder of the ledger signing key (default skillgateHome()). */
  home?: string;
  /**
   * Forget the last Check when this engine starts (UCAgent's `check_pass` starts false after a restart). Off by
   * default because `skillgate call` runs each tool in a new process; the MCP server turns it on.
   */
  resetCheckOnStart?: boolean;
  importHook?: HookImporter;
  /** This process just ran init: a changed workflow or pack is recorded (bind record), not refused. */
  initialised?: boolean;
  /** skill support was set by a command-line flag (operator), so turning it on or off is recorded, not refused. */
  useSkillFromFlag?: boolean;
  /** Key holder of the ledger (default: derived from the master key in `home`). */
  keys?: LedgerKeys;
  /** "inline": run receipts are committed durably in their own transaction, never flushed later (one-shot calls). */
  ledgerDurability?: "deferred" | "inline";
}

export interface CurrentStage {
  index: number;
  config: StageConfig;
}

export class StageContext {
  readonly ledger: EvidenceLedger;
  readonly stages: StageConfig[];
  readonly diagnostics: Diagnostic[];
  readonly warnings = new PendingWarnings();
  readonly bindingNotes: string[] = [];
  /** What this process runs (workflow, pack manifest, skill support); set at start. */
  bound: CurrentBinding | null = null;
  private readonly instances = new Map<number, StageInstance>();

  constructor(readonly o: StageEngineOptions) {
    this.ledger = new EvidenceLedger(o.paths, {
      home: o.home,
      now: o.now,
      keys: o.keys,
      ...(o.ledgerDurability ? { durability: o.ledgerDurability } : {}),
    });
    this.stages = o.config.stage;
    this.diagnostics = validateWorkflow(o.config, o.skillsEnabled ? o.catalog() : null, o.skillsEnabled, {
      rootLabel: relative(o.paths.root, o.paths.skillsDir).split(sep).join("/"),
    }).filter((d) => o.skillsEnabled || d.code !== "SKILL_ROOT_MISSING");
  }

  /** The verified ledger state; its warnings (tampering) are queued for the next result. */
  async load(): Promise<LedgerSnapshot> {
    const snap = await this.ledger.read();
    this.absorb(snap);
    return snap;
  }

  absorb(snap: LedgerSnapshot): void {
    for (const w of snap.warnings) this.warnings.add(w);
  }

  stageAt(state: EvidenceState): CurrentStage | null {
    if (state.finished || state.stageIndex >= this.stages.length) return null;
    const config = this.stages[state.stageIndex]!;
    if (state.stageName && state.stageName !== config.name) {
      this.warnings.addOnce(
        `the workflow changed: progress says stage ${state.stageIndex} is '${state.stageName}' but the config now has '${config.name}' there; continuing with '${config.name}'.`,
      );
    }
    return { index: state.stageIndex, config };
  }

  /** The stage's output fingerprint; outputs that could not be hashed are warned about once per result. */
  async outputs(stage: StageConfig): Promise<OutputFingerprint> {
    const outputs = await fingerprintOutputs(stage.output_files, this.o.runtime, this.o.paths.root);
    for (const problem of outputs.problems) this.warnings.addOnce(problem);
    return outputs;
  }

  skillList(index: number): string[] {
    return stageSkillList(this.stages[index], this.o.skillsEnabled);
  }

  skillInfo(ids: string[], catalog: CatalogSnapshot | null): Record<string, StageSkillInfo> {
    return stageSkillInfo(this.o.paths, ids, catalog);
  }

  gateApplies(index: number): boolean {
    return gateApplies(this.stages[index], this.o.skillsEnabled);
  }

  gateFor(state: EvidenceState, index: number, outputs: OutputFingerprint): GateVerdict | null {
    if (!this.gateApplies(index)) return null;
    const skillList = this.skillList(index);
    return evaluateGate({
      stageName: this.stages[index]!.name,
      skillList,
      skills: this.skillInfo(skillList, this.o.catalog()),
      state,
      usage: usageFreshness(state, outputs),
    });
  }

  async trustedManifest(): Promise<Record<string, string> | null> {
    return (await this.load()).state.binding?.manifest ?? null;
  }

  /** What the ledger binds versus what this process runs; null when they agree. */
  async bindingProblem(state: EvidenceState): Promise<BindingRefusal | null> {
    if (!this.bound) return null;
    const current = { ...this.bound, manifest: manifestMap(await readManifest(this.o.paths)) };
    return bindingRefusal(state.binding, current, this.o.paths.root);
  }

  /** WORKFLOW_CHANGED / PACK_CHANGED when what this process runs is not what the ledger binds. */
  async bindingGuard(state: EvidenceState): Promise<ToolResult | null> {
    const refusal = await this.bindingProblem(state);
    if (!refusal) return null;
    return errorResult(refusal.code, refusal.message, {
      changes: refusal.changes,
      fix: `skillgate init ${this.o.paths.root}`,
    });
  }

  finishedResult(tool: ToolName): ToolResult {
    return errorResult(
      "WORKFLOW_FINISHED",
      `${tool}: no more stages to complete; all ${this.stages.length} stage(s) of the workflow are completed. Review your work; call \`Status\` to see the stages.`,
      { finished: true },
    );
  }

  /** The hookable instance of a stage; hooks of its skills and the general skills load once (skills enabled). */
  async instance(index: number): Promise<StageInstance> {
    let instance = this.instances.get(index);
    if (!instance) {
      instance = new StageInstance(index, this.stages[index]!, this.skillList(index));
      this.instances.set(index, instance);
    }
    const catalog = this.o.skillsEnabled ? this.o.catalog() : null;
    if (catalog) {
      const general = this.o.config.skill.general_skill_list
        .map((raw) => normaliseSkillId(raw))
        .filter((id): id is string => id !== null);
      const records = [...new Set([...instance.skillList, ...general])]
        .map((id) => catalog.skills.find((s) => s.id === id))
        .filter((s): s is SkillRecord => s !== undefined);
      const report = await applySkillHooks(instance, records, {
        importer: this.o.importHook ?? importHookFile,
        // Both checks judge the digest of the bytes that will be imported, never the path again.
        verify: async (file, sha256) =>
          verifyCopiedFile(this.o.paths, file, await this.trustedManifest(), sha256),
        // hooks.ts runs in this process: only the bundled pack's own and operator-trusted digests load.
        trust: (skill, _file, sha256) =>
          hookTrustProblem(skill, sha256, this.o.config.skill.trusted_hooks ?? {}, bundledPackRoot()),
      });
      for (const w of report.warnings) this.warnings.add(w);
    }
    return instance;
  }

  /** The current stage as the tools see it: hook-shaped tasks, skill evidence, freshness of Check and usage. */
  async view(state: EvidenceState, index: number, outputs: OutputFingerprint): Promise<StageView> {
    const instance = await this.instance(index);
    const skillList = this.skillList(index);
    const usage = usageFreshness(state, outputs);
    const catalog = this.o.skillsEnabled ? this.o.catalog() : null;
    const info = catalog ? this.skillInfo(skillList, catalog) : {};
    const evidence: Record<string, SkillEvidence> = {};
    for (const id of skillList) {
      evidence[id] = skillEvidence(state, id, info[id], usage.ok ? state.usage?.claims[id] : undefined);
    }
    const tasks = instance.safeTasks();
    for (const w of instance.runtimeWarnings.splice(0)) this.warnings.add(w);
    return {
      index,
      config: this.stages[index]!,
      tasks,
      skillList,
      evidence,
      checkPassed: checkFreshness(state, outputs).ok,
      usageValidated: usage.ok,
    };
  }
}
