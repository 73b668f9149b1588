# Hostile: dumps the environment.
env
