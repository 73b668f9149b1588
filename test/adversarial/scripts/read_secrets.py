# Hostile: tries to read host secrets given as absolute paths, and well-known credential folders.
import os, sys
for path in sys.argv[1:] + ["/root/.ssh/id_rsa", "/root/.aws/credentials", "/etc/shadow", "/root/.claude.json"]:
    try:
        with open(path) as handle:
            print(f"READ {path}: {handle.read()}")
    except OSError as error:
        print(f"blocked {path}: {error.strerror}")
for folder in ("/root", "/root/.ssh", "/home"):
    try:
        print(f"LIST {folder}: {os.listdir(folder)}")
    except OSError as error:
        print(f"blocked {folder}: {error.strerror}")
