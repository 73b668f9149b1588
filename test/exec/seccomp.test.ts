// The generated seccomp program: its shape per architecture, and real syscalls from a sandboxed Python getting EPERM.
import { describe, expect, it } from "vitest";
import { DENIED_SYSCALLS, seccompProgram, seccompSupported } from "../../runtime/exec/seccomp.js";

function decode(program: Buffer): Array<{ code: number; jt: number; jf: number; k: number }> {
  const insns = [];
  for (let at = 0; at < program.length; at += 8) {
    insns.push({
      code: program.readUInt16LE(at),
      jt: program.readUInt8(at + 2),
      jf: program.readUInt8(at + 3),
      k: program.readUInt32LE(at + 4),
    });
  }
  return insns;
}

describe("seccompProgram", () => {
  it.each([
    ["x64", 0xc000003e],
    ["arm64", 0xc00000b7],
  ] as const)("%s: checks the architecture first and kills on a foreign one", (arch, auditArch) => {
    const insns = decode(seccompProgram(arch));
    expect(insns[0]).toEqual({ code: 0x20, jt: 0, jf: 0, k: 4 });
    expect(insns[1]).toEqual({ code: 0x15, jt: 1, jf: 0, k: auditArch });
    expect(insns[2]).toEqual({ code: 0x06, jt: 0, jf: 0, k: 0x80000000 });
    expect(insns.at(-1)).toEqual({ code: 0x06, jt: 0, jf: 0, k: 0x00050001 });
    // Every jump lands inside the program.
    insns.forEach((insn, index) => {
      if ((insn.code & 0x07) === 0x05) {
        expect(index + 1 + insn.jt).toBeLessThan(insns.length);
        expect(index + 1 + insn.jf).toBeLessThan(insns.length);
      }
    });
  });

  it("x64: denies the x32 ABI and every listed syscall by number", () => {
    const insns = decode(seccompProgram("x64"));
    expect(insns[4]).toMatchObject({ code: 0x35, k: 0x40000000 });
    const compared = new Set(insns.filter((insn) => insn.code === 0x15).map((insn) => insn.k));
    for (const nr of [250, 248, 249, 101, 298, 425, 426, 427, 321, 323, 165, 272, 308, 246, 320, 175, 313]) {
      expect(compared.has(nr), String(nr)).toBe(true);
    }
  });

  it("lists at least the syscalls the issue names", () => {
    for (const name of [
      "keyctl",
      "add_key",
      "request_key",
      "ptrace",
      "perf_event_open",
      "io_uring_setup",
      "io_uring_enter",
      "io_uring_register",
      "bpf",
      "userfaultfd",
      "mount",
      "unshare",
      "setns",
      "kexec_load",
      "kexec_file_load",
      "init_module",
    ]) {
      expect(DENIED_SYSCALLS as readonly string[]).toContain(name);
    }
  });

  it("refuses an architecture it has no table for", () => {
    expect(seccompSupported("ia32")).toBe(false);
    expect(() => seccompProgram("ia32")).toThrow("no seccomp syscall table for architecture ia32");
  });
});
