// Compiles the sandbox's seccomp filter (classic BPF, as bwrap --seccomp reads it): a deny list modelled on Docker's default profile.

/** Syscalls a script never needs and that reach kernel attack surface or other processes; denied with EPERM. */
export const DENIED_SYSCALLS = [
  // keyrings: the host's session keyring would otherwise be reachable (possessed) from inside
  "keyctl",
  "add_key",
  "request_key",
  // other processes and kernel surfaces
  "ptrace",
  "process_vm_readv",
  "process_vm_writev",
  "kcmp",
  "pidfd_getfd",
  "perf_event_open",
  "bpf",
  "userfaultfd",
  "io_uring_setup",
  "io_uring_enter",
  "io_uring_register",
  "fanotify_init",
  "lookup_dcookie",
  "open_by_handle_at",
  "name_to_handle_at",
  // namespaces and mounts
  "unshare",
  "setns",
  "mount",
  "umount2",
  "pivot_root",
  "chroot",
  "fsopen",
  "fsconfig",
  "fsmount",
  "fspick",
  "move_mount",
  "open_tree",
  "open_tree_attr",
  "mount_setattr",
  "statmount",
  "listmount",
  // the machine itself
  "kexec_load",
  "kexec_file_load",
  "init_module",
  "finit_module",
  "delete_module",
  "reboot",
  "swapon",
  "swapoff",
  "acct",
  "quotactl",
  "quotactl_fd",
  "syslog",
  "settimeofday",
  "clock_settime",
  "clock_adjtime",
  "adjtimex",
  "vhangup",
  "nfsservctl",
  "iopl",
  "ioperm",
  "create_module",
  "get_kernel_syms",
  "query_module",
  "uselib",
  "ustat",
  "sysfs",
  "_sysctl",
] as const;

export type DeniedSyscall = (typeof DENIED_SYSCALLS)[number];

interface ArchTable {
  auditArch: number;
  /** Syscalls of this ABI with their numbers; absent ones do not exist on the architecture. */
  numbers: Partial<Record<DeniedSyscall | "clone" | "clone3" | "socket", number>>;
  /** x86_64 only: syscall numbers with this bit set are the x32 ABI, which the list would not cover. */
  x32Bit?: number;
}

/** Syscall numbers as [x86_64, aarch64]; null where the ABI lacks the call (aarch64's asm-generic table has no iopl, uselib, sysfs, …). */
const NUMBERS: Record<DeniedSyscall | "clone" | "clone3" | "socket", [number, number | null]> = {
  keyctl: [250, 219],
  add_key: [248, 217],
  request_key: [249, 218],
  ptrace: [101, 117],
  process_vm_readv: [310, 270],
  process_vm_writev: [311, 271],
  kcmp: [312, 272],
  pidfd_getfd: [438, 438],
  perf_event_open: [298, 241],
  bpf: [321, 280],
  userfaultfd: [323, 282],
  io_uring_setup: [425, 425],
  io_uring_enter: [426, 426],
  io_uring_register: [427, 427],
  fanotify_init: [300, 262],
  lookup_dcookie: [212, 18],
  open_by_handle_at: [304, 265],
  name_to_handle_at: [303, 264],
  unshare: [272, 97],
  setns: [308, 268],
  mount: [165, 40],
  umount2: [166, 39],
  pivot_root: [155, 41],
  chroot: [161, 51],
  fsopen: [430, 430],
  fsconfig: [431, 431],
  fsmount: [432, 432],
  fspick: [433, 433],
  move_mount: [429, 429],
  open_tree: [428, 428],
  open_tree_attr: [467, 467],
  mount_setattr: [442, 442],
  statmount: [457, 457],
  listmount: [458, 458],
  kexec_load: [246, 104],
  kexec_file_load: [320, 294],
  init_module: [175, 105],
  finit_module: [313, 273],
  delete_module: [176, 106],
  reboot: [169, 142],
  swapon: [167, 224],
  swapoff: [168, 225],
  acct: [163, 89],
  quotactl: [179, 60],
  quotactl_fd: [443, 443],
  syslog: [103, 116],
  settimeofday: [164, 170],
  clock_settime: [227, 112],
  clock_adjtime: [305, 266],
  adjtimex: [159, 171],
  vhangup: [153, 58],
  nfsservctl: [180, 42],
  iopl: [172, null],
  ioperm: [173, null],
  create_module: [174, null],
  get_kernel_syms: [177, null],
  query_module: [178, null],
  uselib: [134, null],
  ustat: [136, null],
  sysfs: [139, null],
  _sysctl: [156, null],
  clone: [56, 220],
  clone3: [435, 435],
  socket: [41, 198],
};

function archTable(column: 0 | 1, auditArch: number, x32Bit?: number): ArchTable {
  const numbers: ArchTable["numbers"] = {};
  for (const [name, pair] of Object.entries(NUMBERS)) {
    const nr = pair[column];
    if (nr !== null) numbers[name as keyof typeof NUMBERS] = nr;
  }
  return { auditArch, numbers, ...(x32Bit === undefined ? {} : { x32Bit }) };
}

const TABLES: Partial<Record<NodeJS.Architecture, ArchTable>> = {
  x64: archTable(0, 0xc000003e, 0x40000000),
  arm64: archTable(1, 0xc00000b7),
};

// Classic BPF opcodes and seccomp return values (linux/filter.h, linux/seccomp.h).
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const JSET_K = 0x45;
const RET_K = 0x06;
const RET_KILL_PROCESS = 0x80000000;
const RET_ALLOW = 0x7fff0000;
const RET_ERRNO = 0x00050000;
const EPERM = 1;
const ENOSYS = 38;
/** seccomp_data: nr at 0, arch at 4, args[0] at 16 (its low 32 bits first on little-endian hosts). */
const OFFSET_NR = 0;
const OFFSET_ARCH = 4;
const OFFSET_ARG0_LOW = 16;
/** CLONE_NEWNS | NEWCGROUP | NEWUTS | NEWIPC | NEWUSER | NEWPID | NEWNET: clone() may not make namespaces. */
const CLONE_NAMESPACE_FLAGS = 0x7e020000;
/** AF_VSOCK ignores network namespaces: it would reach the hypervisor host of a VM. */
const AF_VSOCK = 40;

type Label = "deny" | "allow" | "enosys" | "clone" | "socket";
interface Insn {
  code: number;
  k: number;
  jt?: Label | number;
  jf?: Label | number;
  label?: Label;
}

/** Whether seccomp filters can be compiled for `arch` (x86_64 and aarch64). */
export function seccompSupported(arch: NodeJS.Architecture = process.arch): boolean {
  return TABLES[arch] !== undefined;
}

/**
 * The filter program for `arch`: wrong architecture (e.g. i386 via int 0x80) kills, the x32 ABI and every
 * denied syscall return EPERM, clone() with namespace flags returns EPERM, clone3() returns ENOSYS (its flags
 * sit in memory a filter cannot read, so libc falls back to clone), socket(AF_VSOCK) returns EPERM.
 */
export function seccompProgram(arch: NodeJS.Architecture = process.arch): Buffer {
  const table = TABLES[arch];
  if (table === undefined) throw new Error(`no seccomp syscall table for architecture ${arch}`);
  const insns: Insn[] = [
    { code: LD_W_ABS, k: OFFSET_ARCH },
    { code: JEQ_K, k: table.auditArch, jt: 1, jf: 0 },
    { code: RET_K, k: RET_KILL_PROCESS },
    { code: LD_W_ABS, k: OFFSET_NR },
  ];
  if (table.x32Bit !== undefined) insns.push({ code: JGE_K, k: table.x32Bit, jt: "deny", jf: 0 });
  for (const name of DENIED_SYSCALLS) {
    const nr = table.numbers[name];
    if (nr !== undefined) insns.push({ code: JEQ_K, k: nr, jt: "deny", jf: 0 });
  }
  insns.push({ code: JEQ_K, k: table.numbers.clone3 as number, jt: "enosys", jf: 0 });
  insns.push({ code: JEQ_K, k: table.numbers.clone as number, jt: "clone", jf: 0 });
  insns.push({ code: JEQ_K, k: table.numbers.socket as number, jt: "socket", jf: 0 });
  insns.push({ code: RET_K, k: RET_ALLOW, label: "allow" });
  insns.push({ code: LD_W_ABS, k: OFFSET_ARG0_LOW, label: "clone" });
  insns.push({ code: JSET_K, k: CLONE_NAMESPACE_FLAGS, jt: "deny", jf: 0 });
  insns.push({ code: RET_K, k: RET_ALLOW });
  insns.push({ code: LD_W_ABS, k: OFFSET_ARG0_LOW, label: "socket" });
  insns.push({ code: JEQ_K, k: AF_VSOCK, jt: "deny", jf: 0 });
  insns.push({ code: RET_K, k: RET_ALLOW });
  insns.push({ code: RET_K, k: RET_ERRNO | ENOSYS, label: "enosys" });
  insns.push({ code: RET_K, k: RET_ERRNO | EPERM, label: "deny" });

  const at = new Map<Label, number>();
  insns.forEach((insn, index) => {
    if (insn.label) at.set(insn.label, index);
  });
  const offset = (from: number, target: Label | number | undefined): number => {
    if (target === undefined) return 0;
    if (typeof target === "number") return target;
    const distance = (at.get(target) as number) - from - 1;
    // Classic BPF jumps are forward only and at most 255 instructions long.
    if (distance < 0 || distance > 255) throw new Error(`seccomp jump to ${target} out of range`);
    return distance;
  };
  const out = Buffer.alloc(insns.length * 8);
  insns.forEach((insn, index) => {
    out.writeUInt16LE(insn.code, index * 8);
    out.writeUInt8(offset(index, insn.jt), index * 8 + 2);
    out.writeUInt8(offset(index, insn.jf), index * 8 + 3);
    out.writeUInt32LE(insn.k >>> 0, index * 8 + 4);
  });
  return out;
}
