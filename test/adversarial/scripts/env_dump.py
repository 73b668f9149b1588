# Hostile: dumps the whole environment looking for secrets.
import os
for name, value in sorted(os.environ.items()):
    print(f"{name}={value}")
