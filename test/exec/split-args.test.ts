// splitArgs against Python's shlex.split: a hard-coded table checked live against python3, plus error wording.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { isSkillgateError } from "../../runtime/errors.js";
import { splitArgs } from "../../runtime/exec/index.js";

const TABLE: Array<[string, string[]]> = [
  ["", []],
  ["   ", []],
  ["a b  c", ["a", "b", "c"]],
  ['a "b c" d', ["a", "b c", "d"]],
  ["'single quoted' x", ["single quoted", "x"]],
  ['"a \\"quoted\\" word"', ['a "quoted" word']],
  ["'no \\escape in single'", ["no \\escape in single"]],
  ['"keeps \\$ and \\` and \\d"', ["keeps \\$ and \\` and \\d"]],
  ["a\\ b c", ["a b", "c"]],
  ["\\'x", ["'x"]],
  ["$HOME $" + "{PATH} $(whoami) `id`", ["$HOME", "$" + "{PATH}", "$(whoami)", "`id`"]],
  ["a | b > c ; d && e < f 2>&1", ["a", "|", "b", ">", "c", ";", "d", "&&", "e", "<", "f", "2>&1"]],
  ["a|b>c;d", ["a|b>c;d"]],
  ["*.py ?x [ab] ~/x", ["*.py", "?x", "[ab]", "~/x"]],
  ["héllo wörld 日本 🎉", ["héllo", "wörld", "日本", "🎉"]],
  ['x="1 2"y', ["x=1 2y"]],
  ["''", [""]],
  ['"" a', ["", "a"]],
  ["a#b # c", ["a#b", "#", "c"]],
  ["$'a\\nb'", ["$a\\nb"]],
  ['$"x"', ["$x"]],
  ["\"$'x'\"", ["$'x'"]],
  ["a\tb\nc\r\nd", ["a", "b", "c", "d"]],
  ["--flag=\"with space\" -k 'v'", ["--flag=with space", "-k", "v"]],
  ["\u00a0a", ["\u00a0a"]],
];

/** Python's shlex.split of every text, in one python3 start (the pyenv shim is slow to start). */
function pythonSplitAll(texts: string[]): Array<string[] | string> {
  const program = [
    "import json,shlex,sys",
    "out=[]",
    "for t in json.load(sys.stdin):",
    "    try: out.append(shlex.split(t))",
    "    except ValueError as e: out.append(str(e))",
    "print(json.dumps(out))",
  ].join("\n");
  return JSON.parse(
    execFileSync("python3", ["-c", program], { input: JSON.stringify(texts), encoding: "utf8" }),
  );
}

const ERRORS: Array<[string, string]> = [
  ['"unclosed', "failed to parse args: No closing quotation"],
  ["'unclosed", "failed to parse args: No closing quotation"],
  ['a "b\\" c', "failed to parse args: No closing quotation"],
  ["trailing\\", "failed to parse args: No escaped character"],
];

describe("splitArgs", () => {
  it.each(TABLE)("splits %j like Python shlex", (text, expected) => {
    expect(splitArgs(text)).toEqual(expected);
  });

  it("agrees with the real python3 shlex.split on every table entry", () => {
    const python = pythonSplitAll([...TABLE.map(([text]) => text), ...ERRORS.map(([text]) => text)]);
    for (const [index, [text, expected]] of TABLE.entries()) expect(python[index], text).toEqual(expected);
    for (const [index, [text, message]] of ERRORS.entries()) {
      expect(`failed to parse args: ${python[TABLE.length + index]}`, text).toBe(message);
    }
  });

  it.each(ERRORS)("rejects %j with Python's message", (text, message) => {
    let caught: unknown;
    try {
      splitArgs(text);
    } catch (error) {
      caught = error;
    }
    expect(isSkillgateError(caught)).toBe(true);
    expect((caught as Error).message).toBe(message);
    expect((caught as { code: string }).code).toBe("INVALID_ARGS");
  });
});
