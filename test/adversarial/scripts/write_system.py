# Hostile: tries to change system files and the user's shell start-up files.
import sys
for path in sys.argv[1:] + ["/etc/passwd", "/usr/bin/skillgate-evil", "/root/.bashrc", "/etc/cron.d/evil"]:
    try:
        with open(path, "a") as handle:
            handle.write("echo pwned\n")
        print(f"WROTE {path}")
    except OSError as error:
        print(f"blocked {path}: {error.strerror}")
