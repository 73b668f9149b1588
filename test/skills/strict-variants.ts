// Generates SKILL.md variants at the edges of the Agent Skills spec for the skills-ref differential test.

export interface Variant {
  label: string;
  /** The skill folder's name (skills-ref compares it with the name after NFKC). */
  folder: string;
  content: string | Buffer;
}

const NAME = "demo-skill";
const DESCRIPTION = "Checks demo things. Use when a demo needs checking.";

function file(frontmatter: string, body = "# Method\n\nDo the work.\n"): string {
  return `---\n${frontmatter}---\n${body}`;
}

function basic(extra = "", name = NAME, description = DESCRIPTION): string {
  return `name: ${name}\ndescription: ${description}\n${extra}`;
}

export function strictVariants(): Variant[] {
  const variants: Variant[] = [];
  const add = (label: string, content: string | Buffer, folder = NAME): void => {
    variants.push({ label, folder, content });
  };

  add("plain valid", file(basic()));

  // Collections in flow and block style, in every allowed field and an unknown one.
  const collections: Array<[string, string]> = [
    ["flow list", " [a, b]"],
    ["empty flow list", " []"],
    ["empty flow map", " {}"],
    ["flow map", " {a: b}"],
    ["flow list with spaces", " [ Read , Bash ]"],
    ["block list", "\n  - a\n  - b"],
    ["block list at key indent", "\n- a\n- b"],
    ["block map", "\n  a: b\n  c: d"],
    ["nested block map", "\n  a:\n    b: c"],
    ["block list of maps", "\n  - a: b\n    c: d"],
    ["block list holding a flow list", "\n  - [a]"],
    ["block map holding a flow map", "\n  a: {b: c}"],
    ["quoted brackets", ' "[a, b]"'],
    ["single-quoted braces", " '{a: b}'"],
    ["plain text with brackets inside", " use [a] and {b}"],
    ["empty value", ""],
    ["tilde", " ~"],
    ["null word", " null"],
    ["number", " 42"],
    ["boolean", " true"],
    ["literal block", " |\n  line one\n  line two"],
    ["folded block", " >-\n  folded\n  text"],
  ];
  for (const field of ["metadata", "allowed-tools", "license", "compatibility", "x-custom"]) {
    for (const [label, value] of collections) add(`${field}: ${label}`, file(basic(`${field}:${value}\n`)));
  }
  add("flow list in name", file(`name: [${NAME}]\ndescription: ${DESCRIPTION}\n`));
  add("flow map in description", file(`name: ${NAME}\ndescription: {a: b}\n`));
  add("block list description", file(`name: ${NAME}\ndescription:\n  - a\n  - b\n`));
  add("block map name", file(`name:\n  a: b\ndescription: ${DESCRIPTION}\n`));
  add("sibling maps indented differently", file(basic("metadata:\n  a: b\nx-other:\n    c: d\n")));
  add("sibling maps indented alike", file(basic("metadata:\n  a: b\nlicense:\n  c: d\n")));
  add("nested maps indented differently", file(basic("metadata:\n  a:\n    b: c\n  d:\n   e: f\n")));
  add("whole frontmatter is a list", file(`- name: ${NAME}\n- description: ${DESCRIPTION}\n`));
  add("whole frontmatter is a scalar", file("just some text\n"));
  add("frontmatter of comments only", file("# nothing here\n"));
  add("merge key with a mapping", file(basic("<<:\n  license: MIT\n")));
  add("merge key with a scalar", file(basic("<<: MIT\n")));
  add("quoted merge key", file(basic("'<<': MIT\n")));
  add("complex key", file(basic("? - a\n: b\n")));
  add("explicit key", file(basic("? license\n: MIT\n")));
  add("empty key", file(basic(": MIT\n")));

  // Where the frontmatter ends: skills-ref takes the text up to the next "---" anywhere.
  const body = "# Method\n\nDo the work.\n";
  const delimiters: Array<[string, string]> = [
    ["closing delimiter indented", `---\n${basic()}  ---\n${body}`],
    ["closing delimiter after spaces and text", `---\n${basic()}x ---\n${body}`],
    ["dashes inside the description", `---\nname: ${NAME}\ndescription: a---b\n---\n${body}`],
    [
      "dashes at the end of the description",
      `---\nname: ${NAME}\ndescription: ${DESCRIPTION} ---\n---\n${body}`,
    ],
    ["dashes inside a quoted value", `---\nname: ${NAME}\ndescription: "a --- b"\n---\n${body}`],
    ["dashes in the license", `---\n${basic("license: MIT---2\n")}---\n${body}`],
    ["dashes in a comment", `---\n${basic("# see --- below\n")}---\n${body}`],
    ["four dashes to open", `----\n${basic()}---\n${body}`],
    ["five dashes to open", `-----\n${basic()}---\n${body}`],
    ["six dashes to open", `------\n${basic()}---\n${body}`],
    ["opening with trailing spaces", `---   \n${basic()}---\n${body}`],
    ["opening with a tab", `---\t\n${basic()}---\n${body}`],
    ["opening with text", `--- name: ${NAME}\ndescription: ${DESCRIPTION}\n---\n${body}`],
    ["opening glued to a key", `---name: ${NAME}\ndescription: ${DESCRIPTION}\n---\n${body}`],
    ["closing with trailing spaces", `---\n${basic()}---   \n${body}`],
    ["closing with text after", `---\n${basic()}--- trailing words\n${body}`],
    ["closing with four dashes", `---\n${basic()}----\n${body}`],
    ["closing without newline at end of file", `---\n${basic()}---`],
    ["closing glued to the body", `---\n${basic()}---# Method\n`],
    ["no closing delimiter", `---\n${basic()}${body}`],
    ["only an opening delimiter", "---\n"],
    ["only the delimiters", "---\n---\n"],
    ["empty file", ""],
    ["no frontmatter", `${body}`],
    ["leading blank line", `\n---\n${basic()}---\n${body}`],
    ["leading space", ` ---\n${basic()}---\n${body}`],
    ["byte order mark", `\uFEFF---\n${basic()}---\n${body}`],
    ["CRLF endings", `---\r\n${basic().replace(/\n/g, "\r\n")}---\r\n${body.replace(/\n/g, "\r\n")}`],
    ["CR-only endings", `---\r${basic().replace(/\n/g, "\r")}---\r${body.replace(/\n/g, "\r")}`],
    ["mixed CR and LF", `---\r\nname: ${NAME}\rdescription: ${DESCRIPTION}\n---\r${body}`],
    ["document end marker inside", `---\n${basic()}...\n---\n${body}`],
    ["second document inside", `---\nname: ${NAME}\n---\ndescription: ${DESCRIPTION}\n---\n${body}`],
    ["empty block then fields", `---\n---\n${basic()}---\n${body}`],
    ["directive line", `---\n%YAML 1.2\n${basic()}---\n${body}`],
    ["indented first field", `---\n  ${basic()}---\n${body}`],
    ["all fields indented alike", `---\n  name: ${NAME}\n  description: ${DESCRIPTION}\n---\n${body}`],
    ["no newline after opening", `---${basic()}---\n${body}`],
    ["body with more delimiters", `---\n${basic()}---\n${body}---\nmore: yaml\n---\n`],
  ];
  for (const [label, content] of delimiters) add(label, content);

  // Unicode names: letters of other scripts, case, NFKC forms, marks, spaces Python strips and JS does not.
  const names: Array<[string, string, string?]> = [
    ["accented", "café-tool"],
    ["chinese", "技能"],
    ["cyrillic", "проверка"],
    ["greek lowercase", "σκιλ"],
    ["greek uppercase", "ΣΚΙΛ"],
    ["german sharp s", "straße"],
    ["dotted capital I", "İstanbul"],
    ["turkish dotless i", "ıi"],
    ["arabic digits", "أداة-٣"],
    ["devanagari with marks", "कौशल"],
    ["decomposed accent", "cafe\u0301", "café"],
    ["composed accent folder decomposed", "café", "cafe\u0301"],
    ["ligature fi", "\uFB01le", "file"],
    ["fullwidth letters", "ｄｅｍｏ", "demo"],
    ["fullwidth uppercase", "ＤＥＭＯ", "demo"],
    ["superscript two", "tool²", "tool2"],
    ["roman numeral", "tool-Ⅻ", "tool-xii"],
    ["circled digit", "tool①", "tool1"],
    ["emoji", "tool-🙂"],
    ["zero width joiner", "a\u200Db"],
    ["soft hyphen", "a\u00ADb"],
    ["non-breaking hyphen", "a\u2011b"],
    ["en dash", "a\u2013b"],
    ["underscore", "demo_skill"],
    ["dot", "demo.skill"],
    ["space inside", "demo skill"],
    ["uppercase ascii", "Demo-Skill"],
    ["title case dz", "\u01C5ab"],
    ["leading hyphen", "-demo"],
    ["trailing hyphen", "demo-"],
    ["double hyphen", "demo--skill"],
    ["digits only", "123"],
    ["single letter", "a"],
    ["single hyphen", "-"],
    ["trailing NBSP", "demo\u00A0", "demo"],
    ["trailing ideographic space", "demo\u3000", "demo"],
    ["trailing NEL", '"demo\\x85"', "demo"],
    ["leading FEFF", '"\\uFEFFdemo"', "demo"],
    ["leading FEFF folder too", '"\\uFEFFdemo"', "\uFEFFdemo"],
    ["trailing unit separator", '"demo\\x1f"', "demo"],
    ["quoted with spaces", '"  demo  "', "demo"],
    ["mathematical bold", "𝐝𝐞𝐦𝐨", "demo"],
    ["hangul", "기술"],
    ["thai", "ทักษะ"],
    ["hebrew", "כלי"],
  ];
  for (const [label, name, folder] of names) {
    const bare = folder ?? name;
    add(`name ${label}`, file(basic("", name)), bare);
    if (folder !== undefined)
      add(`name ${label}, folder as written`, file(basic("", name)), name.replace(/^"|"$/g, ""));
  }
  add("name differs from folder", file(basic("", "other-skill")));
  add("name number matching folder", file(basic("", "42")), "42");
  add("name boolean word matching folder", file(basic("", "true")), "true");
  add("name empty", file(basic("", "")));
  add("name empty quotes", file(basic("", '""')));
  add("name only spaces", file(basic("", '"   "')));
  add("name only NEL", file(basic("", '"\\x85"')));
  add("description only spaces", file(basic("", NAME, '"   "')));
  add("description only FEFF", file(basic("", NAME, '"\\uFEFF"')));
  add("description only NEL", file(basic("", NAME, '"\\x85"')));
  add("description only ideographic space", file(basic("", NAME, '"\u3000"')));
  add("description empty", file(basic("", NAME, "")));
  add("missing name", file(`description: ${DESCRIPTION}\n`));
  add("missing description", file(`name: ${NAME}\n`));
  add("missing both", file("license: MIT\n"));

  // Lengths at the limits, in code points (astral characters count once).
  const nameOf = (length: number) => `${"a".repeat(length - 2)}-b`.slice(0, length);
  for (const length of [63, 64, 65]) {
    const name = nameOf(length);
    add(`name of ${length}`, file(basic("", name)), name);
  }
  const longUnicode = "é".repeat(64);
  add("name of 64 accented", file(basic("", longUnicode)), longUnicode);
  add("name of 65 accented", file(basic("", `${longUnicode}é`)), `${longUnicode}é`);
  const ligatures = "\uFB01".repeat(32);
  add("name of 32 ligatures = 64 after NFKC", file(basic("", ligatures)), "fi".repeat(32));
  add("name of 33 ligatures = 66 after NFKC", file(basic("", `${ligatures}\uFB01`)), "fi".repeat(33));
  for (const length of [1023, 1024, 1025]) {
    add(`description of ${length}`, file(basic("", NAME, "d".repeat(length))));
    add(`description of ${length} emoji`, file(basic("", NAME, "🙂".repeat(length))));
  }
  add("description of 1024 plus quoted trailing spaces", file(basic("", NAME, `"${"d".repeat(1024)}  "`)));
  add("description of 1023 plus quoted trailing space", file(basic("", NAME, `"${"d".repeat(1023)} "`)));
  add("description of 1024 as a literal block", file(basic("", NAME, `|\n  ${"d".repeat(1023)}`)));
  add(
    "description of 1024 as a literal block with keep",
    file(basic("", NAME, `|+\n  ${"d".repeat(1023)}\n`)),
  );
  add(
    "description of 1025 folded over lines",
    file(basic("", NAME, `>-\n  ${"d".repeat(512)}\n  ${"d".repeat(512)}`)),
  );
  add(
    "description of 1024 folded over lines",
    file(basic("", NAME, `>-\n  ${"d".repeat(511)}\n  ${"d".repeat(512)}`)),
  );
  for (const length of [499, 500, 501]) {
    add(`compatibility of ${length}`, file(basic(`compatibility: ${"c".repeat(length)}\n`)));
  }
  add("compatibility of 500 emoji", file(basic(`compatibility: ${"🙂".repeat(500)}\n`)));
  add("compatibility of 501 emoji", file(basic(`compatibility: ${"🙂".repeat(501)}\n`)));
  add("compatibility empty", file(basic("compatibility:\n")));
  add("compatibility a list", file(basic("compatibility:\n  - node 20\n")));

  // Unknown fields and duplicate keys.
  for (const field of [
    "version",
    "tags",
    "author",
    "Name",
    "DESCRIPTION",
    "allowed_tools",
    "meta-data",
    "x",
  ]) {
    add(`unknown field ${field}`, file(basic(`${field}: something\n`)));
  }
  add("two unknown fields", file(basic("version: 1\ntags: a\n")));
  add("duplicate name", file(`name: ${NAME}\nname: ${NAME}\ndescription: ${DESCRIPTION}\n`));
  add("duplicate description", file(basic(`description: again\n`)));
  add("duplicate license", file(basic("license: MIT\nlicense: MIT\n")));
  add("duplicate metadata key", file(basic("metadata:\n  a: b\n  a: c\n")));
  add("duplicate key quoted and plain", file(basic("metadata:\n  '1': b\n  1: c\n")));
  add("same key in two maps", file(basic("metadata:\n  a: b\nlicense:\n  a: c\n")));
  add("keys differing in case", file(basic("metadata:\n  a: b\n  A: c\n")));

  // Scalar shapes, tags, anchors, tabs and special characters.
  const scalars: Array<[string, string]> = [
    ["single-quoted description", `'${DESCRIPTION}'`],
    ["double-quoted description with escapes", '"tab\\there \\u00e9"'],
    ["double-quoted bad escape", '"bad \\q escape"'],
    ["multi-line plain description", "first line\n  second line"],
    ["multi-line plain at column 0", "first line\nsecond line"],
    ["description with colon space", "Use it: always"],
    ["description with colon", "ratio 1:2"],
    ["description with hash", "issue #12 here"],
    ["description with comment", "text # comment"],
    ["description starting with a quote mark inside", "it's fine"],
    ["tagged description", "!!str tagged"],
    ["custom tag", "!custom text"],
    ["non-specific tag", "! text"],
    ["anchored description", "&d text"],
    ["alias description", "*d"],
    ["description with tab inside", "a\tb"],
    ["description with tab before comment", "text\t# c"],
    ["quoted description with tab", '"a\tb"'],
    ["literal block with tab", "|\n  a\tb"],
    ["description starting with at sign", "@here"],
    ["description starting with backtick", "`code`"],
    ["description starting with percent", "%done"],
    ["description dash", "-"],
    ["description dash text", "- item"],
    ["description with NEL", "a\u0085b"],
    ["description with line separator", "a\u2028b"],
    ["description with C1 control", "a\u0080b"],
    ["description with vertical tab", "a\u000bb"],
    ["description with form feed", "a\u000cb"],
    ["description with DEL", "a\u007fb"],
    ["description with U+FFFE", "a\uFFFEb"],
    ["description with NUL escape", '"a\\0b"'],
    ["description with emoji", "works 🙂"],
    ["description with NBSP after colon", "\u00A0text"],
  ];
  for (const [label, value] of scalars) add(label, file(basic("", NAME, value)));
  add("tab after colon", file(`name:\t${NAME}\ndescription: ${DESCRIPTION}\n`));
  add("tab before colon", file(`name\t: ${NAME}\ndescription: ${DESCRIPTION}\n`));
  add("tab-indented metadata", file(basic("metadata:\n\ta: b\n")));
  add("tab-only line", file(basic("\t\n")));
  add("tab in a comment", file(basic("# a\tcomment\n")));
  add("trailing tab", file(`name: ${NAME}\t\ndescription: ${DESCRIPTION}\n`));
  add("anchor and alias", file(basic("license: &l MIT\ncompatibility: *l\n")));
  add("space before colon", file(`name : ${NAME}\ndescription: ${DESCRIPTION}\n`));
  add("no space after colon", file(`name:${NAME}\ndescription: ${DESCRIPTION}\n`));
  add("key without value line", file(basic("license\n")));
  add("bad indentation", file(`name: ${NAME}\n  description: ${DESCRIPTION}\n`));
  add("metadata values of every kind", file(basic("metadata:\n  n: 1\n  b: true\n  e:\n  s: text\n")));
  add("metadata nested list", file(basic("metadata:\n  tags:\n    - a\n    - b\n")));
  add(
    "not UTF-8",
    Buffer.concat([
      Buffer.from(`---\nname: ${NAME}\ndescription: bad `),
      Buffer.from([0xff, 0xfe]),
      Buffer.from("\n---\n"),
    ]),
  );
  add(
    "latin-1 byte in name",
    Buffer.concat([
      Buffer.from("---\nname: caf"),
      Buffer.from([0xe9]),
      Buffer.from(`\ndescription: ${DESCRIPTION}\n---\n`),
    ]),
    "caf\u00e9",
  );

  // The same checks with the pack's own style (license, metadata, allowed-tools) around them.
  const full = `license: MIT\ncompatibility: node 20\nallowed-tools: Read Bash\nmetadata:\n  owner: team\n`;
  add("full valid", file(basic(full)));
  add("full with flow allowed-tools", file(basic(full.replace("Read Bash", "[Read, Bash]"))));
  add("full with block allowed-tools", file(basic(full.replace(" Read Bash", "\n  - Read\n  - Bash"))));
  add("full with unknown field", file(basic(`${full}version: 2\n`)));
  add("full closing indented", `---\n${basic(full)}    ---\n${body}`);
  return variants;
}
