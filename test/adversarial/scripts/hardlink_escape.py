# Hostile: hard-links host files into the workspace to read or later change them.
import os, sys
for source, name in ((sys.argv[1], sys.argv[2]), ("/etc/passwd", sys.argv[2] + "-passwd")):
    try:
        os.link(source, name)
        print(f"LINKED {source}")
    except OSError as error:
        print(f"link blocked {source}: {error.strerror}")
