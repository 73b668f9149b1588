// runtime/scan/language.ts: a file's language from its extension, else its shebang; fence tags of Markdown code blocks.
import { describe, expect, it } from "vitest";
import {
  detectSourceKind,
  extensionOf,
  languageFromFenceTag,
  languageFromShebang,
} from "../../runtime/scan/language.js";

describe("extensionOf", () => {
  it.each([
    ["a.py", ".py"],
    ["A.PY", ".py"],
    ["archive.tar.gz", ".gz"],
    [".bashrc", ""],
    ["Makefile", ""],
    ["trailing.", "."],
  ])("%s → %j", (name, extension) => {
    expect(extensionOf(name)).toBe(extension);
  });
});

describe("languageFromShebang", () => {
  it.each([
    ["#!/usr/bin/python3", "python"],
    ["#!/usr/bin/env python3.11", "python"],
    ["#!/usr/bin/env -S python3 -u", "python"],
    ["#!/usr/bin/env -S PYTHONUNBUFFERED=1 python3", "python"],
    ["#! /usr/local/bin/pypy3", "python"],
    ["#!/usr/bin/env node", "javascript"],
    ["#!/usr/bin/env bun", "javascript"],
    ["#!/usr/bin/env -S deno run", "typescript"],
    ["#!/usr/bin/env ts-node", "typescript"],
    ["#!/bin/bash", "shell"],
    ["#!/bin/sh -e", "shell"],
    ["#!/sbin/ash", "shell"],
    ["#!/usr/bin/perl", null],
    ["#!/usr/bin/env", null],
    ["# just a comment", null],
    ["", null],
    ["  #!/bin/sh", null],
  ])("%j → %s", (line, language) => {
    expect(languageFromShebang(line)).toBe(language);
  });
});

describe("detectSourceKind", () => {
  it.each([
    ["x.py", "#!/bin/sh", "python"],
    ["x.MJS", "", "javascript"],
    ["x.cts", "", "typescript"],
    ["x.zsh", "", "shell"],
    ["README.markdown", "", "markdown"],
    ["x.cgi", "#!/usr/bin/env python3", "python"],
    ["tool", "#!/usr/bin/env tsx", "typescript"],
    ["tool", "print('hi')", null],
    ["x.rb", "#!/usr/bin/ruby", null],
    [".profile", "#!/bin/sh", "shell"],
  ])("%s with first line %j → %s", (name, firstLine, kind) => {
    expect(detectSourceKind(name, firstLine)).toBe(kind);
  });
});

describe("languageFromFenceTag", () => {
  it.each([
    ["py", "python"],
    ["Python3", "python"],
    ["console", "shell"],
    ["shell-session", "shell"],
    ["TSX", "typescript"],
    ["node", "javascript"],
    ["markdown", null],
    ["", null],
    ["rust", null],
  ])("%j → %s", (tag, language) => {
    expect(languageFromFenceTag(tag)).toBe(language);
  });
});
