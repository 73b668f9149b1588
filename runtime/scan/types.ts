// Data shapes of the static scan: severities, languages, compiled rules and findings.

/** Ordered from least to most serious; only `critical` ever blocks anything (level-3 runs, CLI exit 1). */
export const SEVERITIES = ["info", "low", "medium", "high", "critical"] as const;
export type ScanSeverity = (typeof SEVERITIES)[number];

export const LANGUAGES = ["python", "javascript", "typescript", "shell"] as const;
export type ScanLanguage = (typeof LANGUAGES)[number];

/** A rule from rules.yaml with its pattern compiled. */
export interface ScanRule {
  id: string;
  /** Global + multiline regex run over the whole file text. */
  pattern: RegExp;
  /** When set, the rule only fires if this also matches somewhere in the same file. */
  requires: RegExp | null;
  languages: ScanLanguage[];
  severity: ScanSeverity;
  /** What was found, why it matters, what to do. Whitespace collapsed to single spaces. */
  message: string;
}

export interface RuleSet {
  /** Absolute path of the rules file the set was loaded from. */
  source: string;
  rules: ScanRule[];
}

export interface Finding {
  ruleId: string;
  severity: ScanSeverity;
  message: string;
  /** Path as reached from the scanned input (relative inputs stay relative), "/" separated. */
  file: string;
  /** 1-based; 0 when the finding is about the whole file (skipped, unreadable). */
  line: number;
  /** 1-based UTF-16 column; 0 for whole-file findings. */
  column: number;
  /** The matched line, trimmed and shortened to at most 160 characters. */
  excerpt: string;
  /** null when the language could not be told (whole-file findings only). */
  language: ScanLanguage | null;
}
