# Hostile: fills the private /tmp and the workspace.
dd if=/dev/zero of=/tmp/fill.bin bs=1M count=100 2>&1
dd if=/dev/zero of="$1" bs=1M count=100 2>&1
