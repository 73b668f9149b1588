// Spec-strict loading exactly as the reference skills-ref reads a SKILL.md: universal newlines, split("---", 2), strictyaml.
import { loadStrictYaml } from "./strictyaml.js";
import { pyStrip } from "./text.js";

export type StrictFrontmatter =
  | {
      ok: true;
      value: unknown;
      body: string;
      /** Set when the closing "---" is not a line of its own. */
      earlyEnd?: string;
    }
  | { ok: false; code: string; message: string };

/**
 * skills-ref reads the file in Python text mode (CRLF and lone CR become LF), requires it to start with
 * `---`, and takes the frontmatter as the text up to the next `---` anywhere (even indented or inside a
 * value), like `content.split("---", 2)`.
 */
export function loadStrictFrontmatter(text: string): StrictFrontmatter {
  const content = text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text;
  if (!content.startsWith("---")) {
    const firstLine = content.split("\n", 1)[0] ?? "";
    return {
      ok: false,
      code: "NO_FRONTMATTER",
      message: `SKILL.md must start with YAML frontmatter ("---"), but starts with ${JSON.stringify(firstLine.slice(0, 40))}; start the file with a "---" line`,
    };
  }
  const close = content.indexOf("---", 3);
  if (close === -1) {
    return {
      ok: false,
      code: "UNCLOSED_FRONTMATTER",
      message:
        'the frontmatter opened with "---" is never closed: no second "---" in the file; add a "---" line after the last field',
    };
  }
  const yaml = content.slice(3, close);
  const loaded = loadStrictYaml(yaml);
  if (!loaded.ok) {
    return {
      ok: false,
      code: "YAML_ERROR",
      message: `invalid YAML in the frontmatter at line ${loaded.line}, column ${loaded.column} (as strictyaml reads the text between the first two "---"): ${loaded.message}`,
    };
  }
  const lineStart = content.lastIndexOf("\n", close) + 1;
  const lineEnd = content.indexOf("\n", close);
  const closingLine = content.slice(lineStart, lineEnd === -1 ? undefined : lineEnd);
  const result: StrictFrontmatter = {
    ok: true,
    value: loaded.value,
    body: pyStrip(content.slice(close + 3)),
  };
  if (!/^---[ \t]*$/.test(closingLine)) {
    const line = content.slice(0, close).split("\n").length;
    result.earlyEnd = `the frontmatter ends at the "---" inside line ${line} (${JSON.stringify(closingLine.slice(0, 60))}), as skills-ref reads up to the first "---" after the opening one; put the closing "---" on a line of its own and keep "---" out of values`;
  }
  return result;
}
