// runtime/exec/supervise/memory.ts: a run's memory peak from the sampler's readings and the cgroup's high-water mark, and when it is over the limit.
import { describe, expect, it } from "vitest";
import { memorySampler } from "../../../runtime/exec/supervise/memory.js";

describe("memorySampler", () => {
  it("has no peak before the first sample (a run shorter than the poll)", () => {
    expect(memorySampler(100).peak()).toBeNull();
  });

  it("keeps the highest reading and says when one is over the limit (not at it)", () => {
    const memory = memorySampler(100);
    expect([memory.record(40), memory.record(100), memory.record(70)]).toEqual([false, false, false]);
    expect(memory.peak()).toBe(100);
    expect(memory.record(101)).toBe(true);
    expect(memory.peak()).toBe(101);
  });

  it("ignores a reading of 0 bytes: an exited tree not yet reaped is no sample", () => {
    const memory = memorySampler(100);
    expect(memory.record(0)).toBe(false);
    expect(memory.peak()).toBeNull();
  });

  it("folds in the cgroup's high-water mark, which the poll can miss before an OOM kill", () => {
    const memory = memorySampler(100);
    memory.record(30);
    memory.finish(250);
    expect(memory.peak()).toBe(250);
    const lower = memorySampler(100);
    lower.record(90);
    lower.finish(50);
    expect(lower.peak()).toBe(90);
    const only = memorySampler(100);
    only.finish(null);
    expect(only.peak()).toBeNull();
    only.finish(12);
    expect(only.peak()).toBe(12);
  });
});
