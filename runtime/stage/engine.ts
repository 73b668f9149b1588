// The stage engine: records evidence in the ledger, runs Check, SetSkillUsage and the gated Complete, loads hooks.
import { join, relative, sep } from "node:path";
import type { RuntimeConfig, SkillgateConfig, StageConfig } from "../config/index.js";
import type { ToolResult, WorkspacePaths } from "../contracts/index.js";
import { bundledPackRoot } from "../contracts/index.js";
import { isSkillgateError } from "../errors.js";
import {
  type BindingRefusal,
  bindingChanges,
  bindingRefusal,
  bindRecord,
  boundWorkflow,
  type CompletionGate,
  type CurrentBinding,
  EvidenceLedger,
  type EvidenceState,
  evaluateGate,
  evaluateSkillUsage,
  flagsOf,
  type GateVerdict,
  type LedgerSnapshot,
  ledgerHealthLines,
  manifestMap,
  RESTORE_SKILLS_HINT,
  type StageSkillInfo,
  type UnsignedRecord,
  type UsageClaim,
} from "../evidence/index.js";
import type { CatalogSnapshot, Diagnostic, SkillRecord } from "../skills/index.js";
import { normaliseSkillId } from "../skills/index.js";
import { readManifest, readWorkspaceFile, verifyCopiedFile } from "../workspace/index.js";
import { type CheckerOutcome, runChecker } from "./checkers/index.js";
import { fingerprintOutputs, type OutputFingerprint } from "./fingerprint.js";
import { checkFreshness, usageFreshness } from "./freshness.js";
import {
  applySkillHooks,
  type HookImporter,
  hookTrustProblem,
  importHookFile,
  StageInstance,
} from "./hooks.js";
import { formatStatus } from "./status-text.js";
import type { ReadRange, SkillEvidence, StageEngine, StageView } from "./types.js";
import { assertWorkflowStartable, validateWorkflow } from "./workflow.js";

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
  keys?: import("../evidence/index.js").LedgerKeys;
}

export interface SkillgateStageEngine extends StageEngine {
  /** Warnings not yet shown in a tool result (ledger tampering, hook failures); clears them. */
  drainWarnings(): string[];
  /** Workflow diagnostics computed when the engine was created. */
  readonly diagnostics: Diagnostic[];
  readonly ledger: EvidenceLedger;
  /** The hookable instance of a stage (hooks applied when skills are enabled). */
  stageInstance(index: number): Promise<StageInstance | null>;
  /** What init recorded at this start (changes and reset stages), for the init report. */
  readonly bindingNotes: string[];
  /** skill-relative path → sha256 as bound in the signed ledger (null before the first binding). */
  trustedManifest(): Promise<Record<string, string> | null>;
  /** Records a run receipt of RunSkillScript. */
  recordRun(receipt: Record<string, unknown>): Promise<void>;
  /** Ledger health for status (never throws: a refusal is reported as such). */
  ledgerHealth(): Promise<Record<string, unknown>>;
}

interface CheckRun {
  passed: boolean;
  outcomes: Array<CheckerOutcome & { kind: string }>;
  failedIndex: number | null;
}

const MAX_USE_DETAIL_CHARS = 4000;

export async function createStageEngine(options: StageEngineOptions): Promise<SkillgateStageEngine> {
  const engine = new Engine(options);
  await engine.start();
  return engine;
}

class Engine implements SkillgateStageEngine {
  readonly ledger: EvidenceLedger;
  readonly diagnostics: Diagnostic[];
  private readonly pending: string[] = [];
  private readonly instances = new Map<number, StageInstance>();
  private readonly stages: StageConfig[];
  readonly bindingNotes: string[] = [];
  private bound: CurrentBinding | null = null;

  constructor(private readonly o: StageEngineOptions) {
    this.ledger = new EvidenceLedger(o.paths, { home: o.home, now: o.now, keys: o.keys });
    this.stages = o.config.stage;
    this.diagnostics = validateWorkflow(o.config, o.skillsEnabled ? o.catalog() : null, o.skillsEnabled, {
      rootLabel: relative(o.paths.root, o.paths.skillsDir).split(sep).join("/"),
    }).filter((d) => o.skillsEnabled || d.code !== "SKILL_ROOT_MISSING");
  }

  async start(): Promise<void> {
    // A broken workflow stops start-up (UCAgent raises while building its stages); a missing skill folder does not.
    assertWorkflowStartable(this.diagnostics, `workspace ${this.o.paths.root}`);
    // What is left is a missing skill folder: the tools answer it themselves, with the fix.
    this.bound = await this.currentBinding();
    try {
      await this.startLedger();
    } catch (error) {
      // A refused ledger (other key or home, moved, replayed, disk full) is reported by every call and by status,
      // so the operator sees what to fix; nothing is written meanwhile.
      if (!isSkillgateError(error)) throw error;
      this.warn(`evidence ledger refused [${error.code}]: ${error.message}`);
    }
  }

  private async startLedger(): Promise<void> {
    const current = this.bound!;
    const { snapshot } = await this.ledger.transact((snap) => {
      const records: UnsignedRecord[] = [];
      if (snap.head.seq === 0 && this.stages.length > 0) {
        records.push({ stage: 0, kind: "stage_enter", data: { name: this.stages[0]!.name } });
      }
      records.push(...this.bindOnStart(snap.state, current));
      if (this.o.resetCheckOnStart && snap.state.check) {
        records.push({
          stage: snap.state.stageIndex,
          kind: "check_reset",
          data: { reason: "engine restart" },
        });
      }
      return { records, result: undefined };
    });
    this.absorb(snapshot);
  }

  private async currentBinding(): Promise<CurrentBinding> {
    return {
      workflow: boundWorkflow(this.o.config, normaliseSkillId),
      manifest: manifestMap(await readManifest(this.o.paths)),
      useSkill: this.o.skillsEnabled,
    };
  }

  /** The bind record this start must append: the first binding, a change init just made, or a flag toggling skills. */
  private bindOnStart(state: EvidenceState, current: CurrentBinding): UnsignedRecord[] {
    if (!state.binding)
      return [bindRecord(state, current, this.o.initialised ? "init" : "first start").record];
    const changes = bindingChanges(state.binding, current);
    const changed = changes.workflow.length > 0 || changes.pack.length > 0;
    let reason: string | null = null;
    if ((changed || changes.useSkill) && this.o.initialised) reason = "init";
    else if (!changed && changes.useSkill && this.o.useSkillFromFlag)
      reason = current.useSkill ? "--use-skill flag" : "--no-use-skill flag";
    if (reason === null) return [];
    const bind = bindRecord(state, current, reason);
    const names = bind.affected.map((i) => `${i} '${this.stages[i]?.name ?? "?"}'`);
    this.bindingNotes.push(
      `${reason === "init" ? "init recorded a change of the workflow or skill pack" : `skill support turned ${current.useSkill ? "on" : "off"} by the ${reason}, recorded in the ledger`}: ${bind.changes.join("; ")}.` +
        (names.length > 0
          ? ` Evidence of stage(s) ${names.join(", ")} was reset${bind.affected.includes(state.stageIndex) ? " (the current stage must collect it again)" : ""}; completed stages stay completed and are marked as completed before the change.`
          : ""),
    );
    for (const note of this.bindingNotes) this.warn(note);
    return [bind.record];
  }

  /** WORKFLOW_CHANGED / PACK_CHANGED when what this process runs is not what the ledger binds. */
  private async bindingGuard(state: EvidenceState): Promise<ToolResult | null> {
    if (!this.bound) return null;
    const current = { ...this.bound, manifest: manifestMap(await readManifest(this.o.paths)) };
    const refusal: BindingRefusal | null = bindingRefusal(state.binding, current, this.o.paths.root);
    if (!refusal) return null;
    return this.result(
      refusal.message,
      { changes: refusal.changes, fix: `skillgate init ${this.o.paths.root}` },
      refusal.code,
    );
  }

  private gateMode(index: number): CompletionGate {
    const raw = this.stages[index]?.skill_list ?? [];
    if (raw.length === 0) return "no_skill_list";
    if (!this.o.skillsEnabled) return "skills_disabled";
    if (!this.stages[index]?.force_use_skill) return "gate_off";
    return "enforced";
  }

  async trustedManifest(): Promise<Record<string, string> | null> {
    return (await this.load()).state.binding?.manifest ?? null;
  }

  async recordRun(receipt: Record<string, unknown>): Promise<void> {
    const { snapshot } = await this.ledger.transact((snap) => ({
      records: [{ stage: snap.state.stageIndex, kind: "run", data: receipt }],
      result: undefined,
    }));
    this.absorb(snapshot);
  }

  async ledgerHealth(): Promise<Record<string, unknown>> {
    try {
      const snap = await this.ledger.read();
      const state = snap.state;
      const refusal = this.bound
        ? bindingRefusal(
            state.binding,
            { ...this.bound, manifest: manifestMap(await readManifest(this.o.paths)) },
            this.o.paths.root,
          )
        : null;
      return {
        health: refusal ? "changed" : state.quarantined.length > 0 ? "quarantined" : "ok",
        records: snap.head.seq,
        fingerprint: state.identity?.fingerprint ?? null,
        workspace: state.identity?.workspace ?? null,
        quarantined: state.quarantined,
        runs: state.runs,
        binding: state.binding
          ? {
              workflow_digest: state.binding.workflowDigest,
              manifest_digest: state.binding.manifestDigest,
              use_skill: state.binding.useSkill,
              reason: state.binding.reason,
              seq: state.binding.seq,
            }
          : null,
        ...(refusal ? { problem: { code: refusal.code, message: refusal.message } } : {}),
        completions: state.completed.map((c) => ({
          index: c.index,
          name: c.name,
          gate: c.gate ?? "unknown",
          ...(c.changedAt !== undefined ? { changed_at: c.changedAt } : {}),
        })),
      };
    } catch (error) {
      const e = error as { code?: string; message?: string };
      return {
        health: "refused",
        problem: { code: e.code ?? "INTERNAL", message: e.message ?? String(error) },
      };
    }
  }

  drainWarnings(): string[] {
    return this.pending.splice(0, this.pending.length);
  }

  // ---- evidence -------------------------------------------------------------------------------------------------

  async current(): Promise<StageView | null> {
    const snap = await this.load();
    const stage = this.stageAt(snap.state);
    if (!stage) return null;
    return this.view(snap.state, stage.index, await this.outputs(stage.config));
  }

  async recordList(skillIds: string[]): Promise<void> {
    await this.recordEvidence(
      "list",
      skillIds,
      (state, ids) => ids.some((id) => !flagsOf(state, id).list),
      {},
    );
  }

  async recordUse(skillIds: string[], detail: Record<string, unknown>): Promise<void> {
    await this.recordEvidence("use", skillIds, () => true, { detail: capDetail(detail) });
  }

  async recordRead(skillId: string, range: ReadRange, content?: { sha256: string }): Promise<boolean> {
    if (!this.o.skillsEnabled) return false;
    const id = normaliseSkillId(skillId);
    if (id === null) return false;
    const zeroLine = range.totalLines <= 0 || range.endLine < range.startLine;
    const bound = (await this.load()).state.binding?.manifest[`${id}/SKILL.md`];
    if (bound !== undefined && !zeroLine) {
      const sha = content?.sha256 ?? (await this.skillFileSha(id));
      if (sha !== bound) {
        this.warn(
          `${id}/SKILL.md differs from the copy init recorded (sha256 ${String(sha).slice(0, 12)} != ${bound.slice(0, 12)}), so this read is not read evidence. Restore the skill with \`skillgate init ${this.o.paths.root}\`, then read it again.`,
        );
        return false;
      }
    }
    const { snapshot } = await this.ledger.transact((snap) => {
      const stage = this.stageAt(snap.state);
      if (!stage || zeroLine || !this.skillList(stage.index).includes(id) || flagsOf(snap.state, id).read) {
        return { records: [], result: undefined };
      }
      const data = {
        skill: id,
        startLine: range.startLine,
        endLine: range.endLine,
        totalLines: range.totalLines,
      };
      return { records: [{ stage: stage.index, kind: "read", data }], result: undefined };
    });
    this.absorb(snapshot);
    return flagsOf(snapshot.state, id).read;
  }

  private async skillFileSha(id: string): Promise<string | null> {
    const rel = relative(this.o.paths.root, join(this.o.paths.skillsDir, ...id.split("/"), "SKILL.md"));
    return readWorkspaceFile(this.o.paths.root, rel).then(
      (read) => read.sha256,
      () => null,
    );
  }

  private async recordEvidence(
    kind: "list" | "use",
    skillIds: string[],
    worthRecording: (state: EvidenceState, ids: string[]) => boolean,
    extra: Record<string, unknown>,
  ): Promise<void> {
    if (!this.o.skillsEnabled) return;
    const wanted = skillIds.map((raw) => normaliseSkillId(raw)).filter((id): id is string => id !== null);
    const recordsFor = (snap: LedgerSnapshot): UnsignedRecord[] => {
      const stage = this.stageAt(snap.state);
      if (!stage) return [];
      const list = this.skillList(stage.index);
      const ids = [...new Set(wanted.filter((id) => list.includes(id)))];
      if (ids.length === 0 || !worthRecording(snap.state, ids)) return [];
      return [{ stage: stage.index, kind, data: { skills: ids, ...extra } }];
    };
    // A repeated ListSkill changes no flag: decided on the unchanged verified state, it needs neither lock nor write.
    const unchanged = await this.ledger.readUnchanged();
    if (unchanged && recordsFor(unchanged).length === 0) return;
    const { snapshot } = await this.ledger.transact((snap) => ({
      records: recordsFor(snap),
      result: undefined,
    }));
    this.absorb(snapshot);
  }

  // ---- Check ----------------------------------------------------------------------------------------------------

  async check(): Promise<ToolResult> {
    const snap = await this.load();
    const stage = this.stageAt(snap.state);
    if (!stage) return this.finishedResult("Check");
    const changed = await this.bindingGuard(snap.state);
    if (changed) return changed;
    const instance = await this.instance(stage.index);
    const outputs = await this.outputs(stage.config);
    const evidenceVersion = snap.state.evidenceVersion;
    const run = await this.runCheckers(stage.config);
    const message =
      run.failedIndex === null ? "all checkers passed" : (run.outcomes[run.failedIndex]?.message ?? "");
    const { snapshot } = await this.ledger.transact((fresh) => {
      if (fresh.state.stageIndex !== stage.index || fresh.state.finished)
        return { records: [], result: undefined };
      const data = {
        passed: run.passed,
        evidenceVersion,
        fingerprint: outputs.hash,
        files: outputs.files,
        failedChecker: run.failedIndex,
        message: message.slice(0, 2000),
      };
      return { records: [{ stage: stage.index, kind: "check", data }], result: undefined };
    });
    this.absorb(snapshot);
    const hints = instance.safeOnCheck({ passed: run.passed, message });
    const head = `Stage ${stage.index} ('${stage.config.name}')`;
    const structured: Record<string, unknown> = {
      stage: { index: stage.index, name: stage.config.name },
      check_pass: run.passed,
      checkers: run.outcomes,
      failed_checker: run.failedIndex,
    };
    if (!run.passed) {
      const failed = run.outcomes[run.failedIndex ?? 0]!;
      const text = [
        `${head} check failed at checker ${(run.failedIndex ?? 0) + 1}/${stage.config.checker.length} (${failed.kind}): ${failed.message}`,
        ...hints,
        "Please fix the issues reported above, and then use the `Check` tool again to re-validate your work.",
      ].join("\n");
      return this.result(text, structured, "CHECK_FAILED");
    }
    const lines = [
      `Congratulations! Stage ${stage.index} checks passed successfully, you can use tool 'Complete' to finish this stage.`,
      ...run.outcomes.map((o) => `- ${o.message}`),
      ...hints,
    ];
    const gate = this.gateFor(snapshot.state, stage.index, outputs);
    if (gate && !gate.ok) {
      lines.push(
        gate.nextAction.startsWith("SetSkillUsage(")
          ? `This stage has a skill gate: before \`Complete\`, record skill usage with ${gate.nextAction}`
          : `This stage has a skill gate: before \`Complete\`, gather the missing skill evidence; next: ${gate.nextAction}`,
      );
      structured.next_action = gate.nextAction;
    }
    return this.result(lines.join("\n"), structured);
  }

  private async runCheckers(stage: StageConfig): Promise<CheckRun> {
    const ctx = { workspace: this.o.paths.root, runtime: this.o.runtime };
    const outcomes: CheckRun["outcomes"] = [];
    for (const [i, checker] of stage.checker.entries()) {
      const outcome = await runChecker(checker, ctx);
      outcomes.push({ kind: checker.kind, ...outcome });
      if (!outcome.ok) return { passed: false, outcomes, failedIndex: i };
    }
    return { passed: true, outcomes, failedIndex: null };
  }

  // ---- SetSkillUsage --------------------------------------------------------------------------------------------

  async setSkillUsage(input: unknown): Promise<ToolResult> {
    if (!this.o.skillsEnabled) {
      return this.result(
        "SetSkillUsage: skill support is disabled (skill.use_skill is false, or --no-use-skill was given), so there is nothing to record. Work from the stage task and its guide_doc, then call `Check` and `Complete`.",
        { accepted: false, disabled: true, reason: "skill support is disabled" },
      );
    }
    const snap = await this.load();
    const stage = this.stageAt(snap.state);
    if (!stage) return this.finishedResult("SetSkillUsage");
    const changed = await this.bindingGuard(snap.state);
    if (changed) return changed;
    const skillList = this.skillList(stage.index);
    if (skillList.length === 0) {
      return this.result(
        `No skill need be used in current stage: stage '${stage.config.name}' has no skill_list, so there is nothing to record. Next: call \`Check\`, then \`Complete\`.`,
        { accepted: false, nothing_to_record: true, stage: { index: stage.index, name: stage.config.name } },
      );
    }
    const catalog = this.o.catalog();
    if (!catalog) return this.skillRootMissing(stage.config.name, "SetSkillUsage");
    const skills = this.skillInfo(skillList, catalog);
    const outputs = await this.outputs(stage.config);
    const { snapshot, result } = await this.ledger.transact((fresh) => {
      const verdict = evaluateSkillUsage(input, {
        stageName: stage.config.name,
        stageIndex: stage.index,
        skillList,
        skills,
        state: fresh.state,
        check: checkFreshness(fresh.state, outputs),
        fingerprint: outputs.hash,
        normaliseId: normaliseSkillId,
        optional: !stage.config.force_use_skill,
      });
      const data: Record<string, unknown> = verdict.accepted
        ? {
            accepted: true,
            claims: verdict.claims,
            evidenceVersion: fresh.state.evidenceVersion,
            fingerprint: outputs.hash,
            files: outputs.files,
          }
        : { accepted: false, problems: verdict.problems.map((p) => p.text) };
      return { records: [{ stage: stage.index, kind: "set_skill_usage", data }], result: verdict };
    });
    this.absorb(snapshot);
    const base = { stage: { index: stage.index, name: stage.config.name } };
    if (!result.accepted) {
      return this.result(
        result.message,
        { ...base, accepted: false, problems: result.problems, next_tool: result.problems[0]?.next },
        "SKILL_USAGE_REJECTED",
      );
    }
    return this.result(result.message, {
      ...base,
      accepted: true,
      skill_usage: result.claims,
      next_tool: "Complete",
    });
  }

  // ---- Complete -------------------------------------------------------------------------------------------------

  async complete(): Promise<ToolResult> {
    const snap = await this.load();
    const stage = this.stageAt(snap.state);
    if (!stage) return this.finishedResult("Complete");
    const changed = await this.bindingGuard(snap.state);
    if (changed) return changed;
    const base = { stage: { index: stage.index, name: stage.config.name } };
    const gated = this.gateApplies(stage.index);
    if (gated && !this.o.catalog()) {
      await this.logComplete(stage.index, { passed: false, gate: "SKILL_ROOT_MISSING" });
      return this.skillRootMissing(stage.config.name, "Complete");
    }
    const outputs = await this.outputs(stage.config);
    const gate = gated ? this.gateFor(snap.state, stage.index, outputs) : null;
    if (gate && !gate.ok) {
      await this.logComplete(stage.index, { passed: false, gate: gate.code });
      return this.gateResult(gate, base);
    }
    const run = await this.runCheckers(stage.config);
    if (!run.passed) {
      const failed = run.outcomes[run.failedIndex ?? 0]!;
      await this.logComplete(stage.index, { passed: false, failedChecker: run.failedIndex });
      return this.result(
        [
          `Stage ${stage.index} not completed. Please check the task requirements.`,
          `Checker ${(run.failedIndex ?? 0) + 1}/${stage.config.checker.length} (${failed.kind}) failed: ${failed.message}`,
          "Please fix the issues reported above, and then use the `Complete` tool again to complete this stage.",
        ].join("\n"),
        { ...base, complete: false, checkers: run.outcomes, failed_checker: run.failedIndex },
        "CHECK_FAILED",
      );
    }
    const nextIndex = stage.index + 1;
    const finished = nextIndex >= this.stages.length;
    type Outcome = { ok: true } | { ok: false; gate: Exclude<GateVerdict, { ok: true }> | null };
    const { snapshot, result } = await this.ledger.transact<Outcome>(async (fresh) => {
      if (fresh.state.stageIndex !== stage.index || fresh.state.finished) {
        return { records: [], result: { ok: false, gate: null } };
      }
      if (gated) {
        const again = this.gateFor(fresh.state, stage.index, await this.outputs(stage.config));
        if (again && !again.ok) {
          const record = {
            stage: stage.index,
            kind: "complete" as const,
            data: { passed: false, gate: again.code },
          };
          return { records: [record], result: { ok: false, gate: again } };
        }
      }
      const data = {
        passed: true,
        gate: this.gateMode(stage.index),
        name: stage.config.name,
        next: nextIndex,
        nextName: this.stages[nextIndex]?.name ?? null,
        finished,
      };
      return { records: [{ stage: stage.index, kind: "complete", data }], result: { ok: true } };
    });
    this.absorb(snapshot);
    if (!result.ok) {
      if (result.gate) return this.gateResult(result.gate, base);
      return this.result(
        `Stage ${stage.index} ('${stage.config.name}') is no longer the current stage: another process completed it. Call \`Status\` to see where the workflow is.`,
        { ...base, complete: false },
        "STAGE_INVALID",
      );
    }
    if (finished) {
      return this.result(
        "All stages completed successfully. Now you should review your work to check if everything is correct and all the users needs are matched.",
        { ...base, complete: true, finished: true, checkers: run.outcomes },
      );
    }
    const next = await this.instance(nextIndex);
    const tasks = next.safeTasks();
    const nextSkills = this.skillList(nextIndex);
    const lines = [
      `Stage ${stage.index} completed successfully. Current stage index is now ${nextIndex}: '${next.name}'.`,
      next.safeDescribe() ? `Description: ${next.safeDescribe()}` : "",
      tasks.length > 0 ? `Tasks:\n${tasks.map((t) => `- ${t}`).join("\n")}` : "",
      nextSkills.length > 0
        ? `Stage skills: ${nextSkills.join(", ")}. Use \`ListSkill\` and read each SKILL.md with \`ReadTextFile\` first.`
        : "",
    ].filter((l) => l.length > 0);
    return this.result(lines.join("\n"), {
      ...base,
      complete: true,
      finished: false,
      checkers: run.outcomes,
      next_stage: { index: nextIndex, name: next.name, tasks, skill_list: nextSkills },
    });
  }

  private async logComplete(stageIndex: number, data: Record<string, unknown>): Promise<void> {
    const { snapshot } = await this.ledger.transact((fresh) =>
      fresh.state.stageIndex === stageIndex && !fresh.state.finished
        ? { records: [{ stage: stageIndex, kind: "complete", data }], result: undefined }
        : { records: [], result: undefined },
    );
    this.absorb(snapshot);
  }

  private gateResult(gate: Exclude<GateVerdict, { ok: true }>, base: Record<string, unknown>): ToolResult {
    return this.result(
      gate.message,
      {
        ...base,
        complete: false,
        skills: gate.skills.map((s) => ({
          id: s.id,
          listed: s.list,
          read: s.read,
          used: s.use,
          not_applicable: s.notApplicable,
          missing: s.missing,
        })),
        next_action: gate.nextAction,
        checkers_run: 0,
      },
      gate.code,
    );
  }

  // ---- Status ---------------------------------------------------------------------------------------------------

  async status(): Promise<ToolResult> {
    const snap = await this.load();
    const stage = this.stageAt(snap.state);
    const outputs = stage ? await this.outputs(stage.config) : null;
    const view = stage && outputs ? await this.view(snap.state, stage.index, outputs) : null;
    const gate =
      stage && outputs && this.gateApplies(stage.index)
        ? this.gateFor(snap.state, stage.index, outputs)
        : null;
    const catalog = this.o.skillsEnabled ? this.o.catalog() : null;
    const description = stage ? (await this.instance(stage.index)).safeDescribe() : "";
    const health = await this.ledgerHealth();
    const formatted = formatStatus({
      description,
      stages: this.stages,
      state: snap.state,
      view,
      gateApplies: stage ? this.gateApplies(stage.index) : false,
      gate,
      skillsEnabled: this.o.skillsEnabled,
      skillRootMissing: this.o.skillsEnabled && catalog === null,
      checkReason: stage && outputs ? checkFreshness(snap.state, outputs).reason : "",
      usageReason: stage && outputs ? usageFreshness(snap.state, outputs).reason : "",
      skills: stage && catalog ? this.skillInfo(this.skillList(stage.index), catalog) : {},
    });
    return this.result([formatted.text, ...ledgerHealthLines(health)].join("\n"), {
      ...formatted.structured,
      ledger: health,
    });
  }

  // ---- shared ---------------------------------------------------------------------------------------------------

  async stageInstance(index: number): Promise<StageInstance | null> {
    return index >= 0 && index < this.stages.length ? this.instance(index) : null;
  }

  private async instance(index: number): Promise<StageInstance> {
    let instance = this.instances.get(index);
    if (!instance) {
      instance = new StageInstance(index, this.stages[index]!, this.skillList(index));
      this.instances.set(index, instance);
    }
    if (this.o.skillsEnabled) {
      const catalog = this.o.catalog();
      if (catalog) {
        const general = this.o.config.skill.general_skill_list
          .map((raw) => normaliseSkillId(raw))
          .filter((id): id is string => id !== null);
        const order = [...new Set([...instance.skillList, ...general])];
        const records = order
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
        for (const w of report.warnings) this.warn(w);
      }
    }
    return instance;
  }

  private async view(state: EvidenceState, index: number, outputs: OutputFingerprint): Promise<StageView> {
    const instance = await this.instance(index);
    const skillList = this.skillList(index);
    const usage = usageFreshness(state, outputs);
    const catalog = this.o.skillsEnabled ? this.o.catalog() : null;
    const info = catalog ? this.skillInfo(skillList, catalog) : {};
    const evidence: Record<string, SkillEvidence> = {};
    for (const id of skillList) {
      const flags = flagsOf(state, id);
      const claim: UsageClaim | undefined = usage.ok ? state.usage?.claims[id] : undefined;
      const textMethod = (info[id]?.scripts.length ?? 0) === 0;
      evidence[id] = {
        list: flags.list,
        read: flags.read,
        use: flags.use || (textMethod && claim?.use === true),
        ...(claim?.use === false && claim.reason ? { notApplicableReason: claim.reason } : {}),
      };
    }
    const tasks = instance.safeTasks();
    for (const w of instance.runtimeWarnings.splice(0)) this.warn(w);
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

  private gateApplies(index: number): boolean {
    const stage = this.stages[index];
    return Boolean(
      stage && this.o.skillsEnabled && stage.force_use_skill && this.skillList(index).length > 0,
    );
  }

  private gateFor(state: EvidenceState, index: number, outputs: OutputFingerprint): GateVerdict | null {
    if (!this.gateApplies(index)) return null;
    const catalog = this.o.catalog();
    const skillList = this.skillList(index);
    return evaluateGate({
      stageName: this.stages[index]!.name,
      skillList,
      skills: this.skillInfo(skillList, catalog),
      state,
      usage: usageFreshness(state, outputs),
    });
  }

  /** Normalised, de-duplicated skill ids of a stage; empty when skills are disabled. */
  private skillList(index: number): string[] {
    if (!this.o.skillsEnabled) return [];
    const raw = this.stages[index]?.skill_list ?? [];
    return [...new Set(raw.map((r) => normaliseSkillId(r)).filter((id): id is string => id !== null))];
  }

  private skillInfo(ids: string[], catalog: CatalogSnapshot | null): Record<string, StageSkillInfo> {
    const out: Record<string, StageSkillInfo> = {};
    for (const id of ids) {
      const skill = catalog?.skills.find((s) => s.id === id);
      const file = skill?.skillFile ?? join(this.o.paths.skillsDir, ...id.split("/"), "SKILL.md");
      out[id] = {
        skillFile: relative(this.o.paths.root, file).split(sep).join("/"),
        scripts: skill?.scripts ?? [],
        present: skill !== undefined,
      };
    }
    return out;
  }

  private stageAt(state: EvidenceState): { index: number; config: StageConfig } | null {
    if (state.finished || state.stageIndex >= this.stages.length) return null;
    const config = this.stages[state.stageIndex]!;
    if (state.stageName && state.stageName !== config.name) {
      this.warnOnce(
        `the workflow changed: progress says stage ${state.stageIndex} is '${state.stageName}' but the config now has '${config.name}' there; continuing with '${config.name}'.`,
      );
    }
    return { index: state.stageIndex, config };
  }

  private async load(): Promise<LedgerSnapshot> {
    const snap = await this.ledger.read();
    this.absorb(snap);
    return snap;
  }

  private absorb(snap: LedgerSnapshot): void {
    for (const w of snap.warnings) this.warn(w);
  }

  private async outputs(stage: StageConfig): Promise<OutputFingerprint> {
    const outputs = await fingerprintOutputs(stage.output_files, this.o.runtime, this.o.paths.root);
    for (const problem of outputs.problems) this.warnOnce(problem);
    return outputs;
  }

  private warn(text: string): void {
    this.pending.push(text);
  }

  private warnOnce(text: string): void {
    if (!this.pending.includes(text)) this.pending.push(text);
  }

  private finishedResult(tool: string): ToolResult {
    return this.result(
      `${tool}: no more stages to complete; all ${this.stages.length} stage(s) of the workflow are completed. Review your work; call \`Status\` to see the stages.`,
      { finished: true },
      "WORKFLOW_FINISHED",
    );
  }

  private skillRootMissing(stageName: string, tool: string): ToolResult {
    const shown = relative(this.o.paths.root, this.o.paths.skillsDir).split(sep).join("/");
    return this.result(
      `${tool}: stage '${stageName}' names skills, but the workspace skill folder ${shown} is missing. ${RESTORE_SKILLS_HINT} Check still works meanwhile.`,
      { skill_root: shown },
      "SKILL_ROOT_MISSING",
    );
  }

  /** Builds a result and attaches pending warnings (text and structured). */
  private result(text: string, structured: Record<string, unknown>, code?: ToolResult["code"]): ToolResult {
    const warnings = this.drainWarnings();
    const fullText =
      warnings.length > 0 ? `${text}\n${warnings.map((w) => `Warning: ${w}`).join("\n")}` : text;
    const body: Record<string, unknown> = { ...structured, ...(warnings.length > 0 ? { warnings } : {}) };
    if (code)
      return { text: fullText, structured: { error: { code, message: text }, ...body }, isError: true, code };
    return { text: fullText, structured: body, isError: false };
  }
}

function capDetail(detail: Record<string, unknown>): Record<string, unknown> {
  const text = JSON.stringify(detail);
  return text.length <= MAX_USE_DETAIL_CHARS ? detail : { truncated: text.slice(0, MAX_USE_DETAIL_CHARS) };
}
