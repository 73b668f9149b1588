// Lenient-mode repair: quotes plain YAML values that contain ": " (a common hand-written frontmatter mistake).

export interface ColonFix {
  key: string;
  value: string;
  /** 1-based line inside the YAML block. */
  line: number;
}

// `key: value` where value is a plain scalar (not quoted, not a flow/block indicator) containing ": ".
const PLAIN_PAIR = /^(\s*)([^\s#'"[\]{},:][^:]*?):[ \t]+([^'"[{|>&*!%@`\s].*)$/;

export function quoteColonValues(yaml: string): { yaml: string; fixes: ColonFix[] } {
  const fixes: ColonFix[] = [];
  const lines = yaml.split("\n");
  for (let index = 0; index < lines.length; index++) {
    const raw = lines[index] as string;
    const carriageReturn = raw.endsWith("\r") ? "\r" : "";
    const line = carriageReturn ? raw.slice(0, -1) : raw;
    const match = PLAIN_PAIR.exec(line);
    if (!match) continue;
    const [, indent, key, rest] = match as unknown as [string, string, string, string];
    const value = rest.trimEnd();
    if (!value.includes(": ")) continue;
    lines[index] = `${indent}${key}: ${JSON.stringify(value)}${carriageReturn}`;
    fixes.push({ key, value, line: index + 1 });
  }
  return { yaml: lines.join("\n"), fixes };
}
