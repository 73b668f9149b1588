// Split a SKILL.md into frontmatter and body and parse the frontmatter YAML, standalone (no skillgate runtime).
// Uses the `yaml` package when it can be imported; otherwise a small parser for the subset skill frontmatter uses.

let yamlModule;
try {
  yamlModule = await import("yaml");
} catch {
  yamlModule = null;
}

/** { ok: true, yamlText, body } or { ok: false, message } for a SKILL.md text. */
export function splitFrontmatter(text) {
  if (text.charCodeAt(0) === 0xfeff) return { ok: false, message: "file starts with a BOM: save it as UTF-8 without BOM" };
  const lines = text.split("\n");
  if ((lines[0] ?? "").replace(/\r$/, "") !== "---") {
    return { ok: false, message: 'frontmatter missing: the first line must be "---"' };
  }
  for (let index = 1; index < lines.length; index++) {
    if (lines[index].replace(/\r$/, "") === "---") {
      if (index === lines.length - 1) return { ok: false, message: 'the closing "---" line must end with a newline' };
      return {
        ok: true,
        yamlText: lines.slice(1, index).join("\n").replace(/\r/g, ""),
        body: lines.slice(index + 1).join("\n"),
      };
    }
  }
  return { ok: false, message: 'frontmatter not closed: add a line "---" after it' };
}

/** { ok: true, value } or { ok: false, message } */
export function parseYaml(text) {
  if (yamlModule) {
    try {
      return { ok: true, value: yamlModule.parse(text) ?? null };
    } catch (error) {
      return { ok: false, message: `invalid YAML in frontmatter: ${String(error.message).split("\n")[0]}` };
    }
  }
  try {
    return { ok: true, value: parseYamlSubset(text) };
  } catch (error) {
    return { ok: false, message: `invalid YAML in frontmatter: ${error.message}` };
  }
}

function plainScalar(raw) {
  const value = raw.replace(/\s+#.*$/, "").trim();
  if (value === "" || value === "~" || value === "null") return null;
  if (value === "true") return true;
  if (value === "false") return false;
  if (/^[-+]?\d+(\.\d+)?$/.test(value)) return Number(value);
  return value;
}

function scalar(raw, lineNo) {
  const value = raw.trim();
  if (value.startsWith('"')) {
    if (!/^"(?:[^"\\]|\\.)*"\s*(#.*)?$/.test(value)) throw new Error(`line ${lineNo}: unterminated double-quoted string`);
    return JSON.parse(value.replace(/\s*#.*$/, (m) => (m.includes('"') ? m : "")));
  }
  if (value.startsWith("'")) {
    const match = /^'((?:[^']|'')*)'\s*(#.*)?$/.exec(value);
    if (!match) throw new Error(`line ${lineNo}: unterminated single-quoted string`);
    return match[1].replace(/''/g, "'");
  }
  if (/^[[{&*!|>@`]/.test(value)) throw new Error(`line ${lineNo}: unsupported YAML syntax "${value}"`);
  if (/: /.test(value)) throw new Error(`line ${lineNo}: a plain value contains ": ", quote it`);
  return plainScalar(value);
}

function blockScalar(indicator, lines, start) {
  const folded = indicator[0] === ">";
  const chomp = indicator.includes("-") ? "strip" : indicator.includes("+") ? "keep" : "clip";
  const collected = [];
  let index = start;
  let indent = null;
  while (index < lines.length) {
    const line = lines[index];
    if (line.trim() === "") {
      collected.push("");
      index++;
      continue;
    }
    const lead = line.length - line.trimStart().length;
    if (lead === 0) break;
    if (indent === null) indent = lead;
    if (lead < indent) break;
    collected.push(line.slice(indent));
    index++;
  }
  let trailing = 0;
  while (collected.length > 0 && collected[collected.length - 1] === "") {
    collected.pop();
    trailing++;
  }
  let text = folded
    ? collected.reduce((acc, line, i) => (i === 0 ? line : acc + (line === "" ? "\n" : acc.endsWith("\n") ? line : ` ${line}`)), "")
    : collected.join("\n");
  if (chomp === "clip" && collected.length > 0) text += "\n";
  if (chomp === "keep") text += "\n".repeat(trailing + 1);
  return { value: text, next: index };
}

/** Top-level `key: value` pairs; values are scalars, block scalars, or one nested level of `key: value` / `- item`. */
function parseYamlSubset(text) {
  const lines = text.split("\n");
  const result = {};
  let index = 0;
  while (index < lines.length) {
    const line = lines[index];
    if (line.trim() === "" || line.trimStart().startsWith("#")) {
      index++;
      continue;
    }
    if (/^\s/.test(line)) throw new Error(`line ${index + 1}: unexpected indentation`);
    const match = /^([A-Za-z0-9_-]+):(?:\s+(.*))?$/.exec(line);
    if (!match) throw new Error(`line ${index + 1}: expected "key: value", got "${line}"`);
    const key = match[1];
    if (Object.hasOwn(result, key)) throw new Error(`line ${index + 1}: duplicate key "${key}"`);
    const rest = (match[2] ?? "").trim();
    index++;
    if (/^[|>][+-]?$/.test(rest)) {
      const block = blockScalar(rest, lines, index);
      result[key] = block.value;
      index = block.next;
      continue;
    }
    if (rest !== "" && !rest.startsWith("#")) {
      let value = rest;
      // A plain scalar may continue on more-indented lines; YAML folds them with single spaces.
      if (!/^['"]/.test(rest)) {
        while (index < lines.length && /^\s+\S/.test(lines[index]) && !lines[index].trim().startsWith("#")) {
          value += ` ${lines[index].trim()}`;
          index++;
        }
      }
      result[key] = scalar(value, index);
      continue;
    }
    const nested = [];
    while (index < lines.length && (lines[index].trim() === "" || /^\s/.test(lines[index]))) {
      if (lines[index].trim() !== "" && !lines[index].trim().startsWith("#")) nested.push([index + 1, lines[index].trim()]);
      index++;
    }
    if (nested.length === 0) {
      result[key] = null;
    } else if (nested.every(([, item]) => item.startsWith("- ") || item === "-")) {
      result[key] = nested.map(([lineNo, item]) => scalar(item.slice(1), lineNo));
    } else {
      const mapping = {};
      for (const [lineNo, item] of nested) {
        const pair = /^([^:#'"]+|"[^"]*"|'[^']*'):(?:\s+(.*))?$/.exec(item);
        if (!pair) throw new Error(`line ${lineNo}: expected "key: value" under "${key}", got "${item}"`);
        const nestedKey = pair[1].replace(/^["']|["']$/g, "").trim();
        if (Object.hasOwn(mapping, nestedKey)) throw new Error(`line ${lineNo}: duplicate key "${nestedKey}"`);
        mapping[nestedKey] = scalar(pair[2] ?? "", lineNo);
      }
      result[key] = mapping;
    }
  }
  return result;
}
