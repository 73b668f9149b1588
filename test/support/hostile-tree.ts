// A skill tree with every shape a scan must survive (bad names, FIFOs, symlinks, sizes, depth), for scanner tests.
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const skill = (name: string, extra = "") =>
  `---\nname: ${name}\ndescription: Scans hostile trees. Use when testing.\n${extra}---\nBody of ${name}.\n`;

/** SKILL.md of exactly `bytes` bytes (frontmatter, then a padded body). */
function sized(name: string, bytes: number): string {
  const head = skill(name);
  return `${head}${"x".repeat(bytes - head.length - 1)}\n`;
}

/** Raw bytes of a path component that is not valid UTF-8 (the scanner decodes it with U+FFFD). */
const badName = (prefix: string, bytes: number[]) => Buffer.concat([Buffer.from(prefix), Buffer.from(bytes)]);

/** Writes the tree under `root` (an existing empty folder); `siblings` skill folders go side by side in many/. */
export function writeHostileTree(root: string, options: { siblings?: number } = {}): void {
  const put = (relative: string, content: string | Buffer) => {
    mkdirSync(join(root, relative, ".."), { recursive: true });
    writeFileSync(join(root, relative), content);
  };
  for (const name of ["alpha", "beta", "gamma"]) {
    put(`plain/${name}/SKILL.md`, skill(name, "metadata:\n  author: tests\n"));
    put(`plain/${name}/scripts/check.py`, "print('ok')\n");
    put(`plain/${name}/scripts/report.sh`, "echo ok\n");
  }
  put("bom/SKILL.md", `\ufeff${skill("bom")}`);
  put("crlf/SKILL.md", skill("crlf").replaceAll("\n", "\r\n"));
  put("emoji-\u{1f600}/SKILL.md", skill("emoji"));
  put("under64k/SKILL.md", sized("under64k", 65_535));
  put("exact64k/SKILL.md", sized("exact64k", 65_536));
  put("big/SKILL.md", "");
  truncateSync(join(root, "big", "SKILL.md"), 10 * 1024 * 1024 + 1);
  put("nobody/SKILL.md", "no frontmatter here\n");
  // Names that are not UTF-8: a skill folder, a folder with a surrogate encoded in it, a script name.
  const invalid = badName(`${root}/bad-`, [0xff]);
  mkdirSync(invalid);
  writeFileSync(Buffer.concat([invalid, Buffer.from("/SKILL.md")]), skill("bad-name"));
  const cesu = badName(`${root}/cesu-`, [0xed, 0xa0, 0x80]);
  mkdirSync(cesu);
  writeFileSync(Buffer.concat([cesu, Buffer.from("/SKILL.md")]), skill("cesu"));
  put("badscript/SKILL.md", skill("badscript"));
  mkdirSync(join(root, "badscript", "scripts"));
  writeFileSync(badName(`${root}/badscript/scripts/x-`, [0xfe, 0x2e, 0x70, 0x79]), "print(1)\n");
  // SKILL.md that is not a regular file.
  mkdirSync(join(root, "fifo"));
  execFileSync("mkfifo", [join(root, "fifo", "SKILL.md")]);
  mkdirSync(join(root, "folder-skill", "SKILL.md"), { recursive: true });
  mkdirSync(join(root, "link-in"));
  symlinkSync("../plain/alpha/SKILL.md", join(root, "link-in", "SKILL.md"));
  mkdirSync(join(root, "link-out"));
  symlinkSync("/etc/hostname", join(root, "link-out", "SKILL.md"));
  symlinkSync("plain", join(root, "dirlink-in"));
  symlinkSync("/etc", join(root, "dirlink-out"));
  // Scripts: a Python hook, a symlinked and a dangling script.
  put("hooked/SKILL.md", skill("hooked"));
  put("hooked/scripts/__init__.py", "def setup_vstage(stage): pass\n");
  put("hooked/scripts/real.py", "print(1)\n");
  symlinkSync("real.py", join(root, "hooked", "scripts", "linked.py"));
  symlinkSync("missing.py", join(root, "hooked", "scripts", "dangling.py"));
  // Depth: a skill below the default limit of 8 levels, a nested skill, skipped folders.
  put("d1/d2/d3/d4/d5/d6/d7/d8/d9/deep/SKILL.md", skill("deep"));
  put("outer/SKILL.md", skill("outer"));
  put("outer/inner/SKILL.md", skill("inner"));
  put(".git/hidden/SKILL.md", skill("hidden"));
  put("node_modules/dep/SKILL.md", skill("dep"));
  // More sub-folders in one folder than the native walk queues (256): the rest are walked in place.
  for (let index = 0; index < (options.siblings ?? 300); index++)
    put(`many/s-${String(index).padStart(3, "0")}/SKILL.md`, skill(`s-${index}`));
  // A folder nobody else may list (an unprivileged scan reports it; root reads it).
  put("locked/secret/SKILL.md", skill("secret"));
  chmodSync(join(root, "locked"), 0o000);
}
