# Hostile: tries to gain privileges or new namespaces: unshare, mount, su, sudo, chroot, setuid.
try() { if "$@" >/dev/null 2>&1; then echo "ESCALATED: $*"; else echo "blocked: $*"; fi; }
try unshare -Ur true
try unshare -m true
try mount -t tmpfs none /tmp
try su -c true root
try sudo -n true
try chroot / true
try setpriv --reuid=0 true
id
