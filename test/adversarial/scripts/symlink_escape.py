# Hostile: plants a symlink in the workspace pointing at a host secret and reads through it.
import os, sys
secret, link = sys.argv[1], sys.argv[2]
for target, name in ((secret, link), ("/", link + "-root")):
    try:
        os.symlink(target, name)
    except OSError as error:
        print(f"symlink blocked: {error.strerror}")
try:
    with open(link) as handle:
        print("READ", handle.read())
except OSError as error:
    print(f"read blocked: {error.strerror}")
try:
    print("LIST", os.listdir(link + "-root/root"))
except OSError as error:
    print(f"list blocked: {error.strerror}")
