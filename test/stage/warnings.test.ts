// Pending warnings: queued in order, a repeated per-call warning once, drained once.
import { describe, expect, it } from "vitest";
import { PendingWarnings } from "../../runtime/stage/warnings.js";

describe("PendingWarnings", () => {
  it("keeps order, dedupes addOnce, and drain empties the queue", () => {
    const w = new PendingWarnings();
    w.add("a");
    w.add("a");
    w.addOnce("b");
    w.addOnce("b");
    w.addOnce("a");
    expect(w.drain()).toEqual(["a", "a", "b"]);
    expect(w.drain()).toEqual([]);
    w.addOnce("b");
    expect(w.drain()).toEqual(["b"]);
  });
});
