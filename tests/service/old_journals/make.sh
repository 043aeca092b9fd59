#!/bin/sh
# Writes the journals of this folder with the Roundhouse of commit 1047be3, the last one
# that journaled a game's rules by its preset's name alone:
#   git worktree add /tmp/old1047 1047be3 && tests/service/old_journals/make.sh /tmp/old1047
# Each is a simulated table killed in the middle of a game (random bots make moves the
# current rules may refuse), then checkpointed into one file. The files are kept, not
# remade: they are what an older table left on its disk.
set -e
old=${1:?the checkout of 1047be3}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
make() {  # NAME SECONDS sim-options...
    name=$1 seconds=$2; shift 2
    rm -f "$here/$name.sqlite"
    TMPDIR=$work SDL_VIDEODRIVER=dummy PYTHONPATH=$old timeout -s KILL "$seconds" \
        python -m firmware_py.cli sim --speed 0 --headless --games 0 \
        --db "$work/$name.sqlite" "$@" >/dev/null || true
    python - "$work/$name.sqlite" "$here/$name.sqlite" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
db.execute("VACUUM INTO ?", (sys.argv[2],))
db.close()
PY
}
make classic-open-random 3 --seats 4 --rules classic --bots random --seed 1
make tournament-open-random 3 --seats 4 --rules tournament --bots random --seed 2
make simple-open-random 3 --seats 5 --rules simple --bots random --seed 3
make family-open-greedy 3 --seats 3 --rules family --bots greedy --seed 4
make hub-open-greedy 3 --seats 4 --rules hub --bots greedy --seed 5
make tournament-tracked-random 4 --seats 4 --rules tournament --hand-mode tracked --bots random --seed 6
make classic-tracked-greedy 4 --seats 3 --rules classic --hand-mode tracked --bots greedy --seed 7

played() {  # NAME PRESET PLAYERS MOVES SEED
    name=$1; shift
    rm -f "$here/$name.sqlite" "$work/$name.sqlite"
    PYTHONPATH=$old python "$here/old_games.py" "$work/$name.sqlite" "$@"
    python - "$work/$name.sqlite" "$here/$name.sqlite" <<'PY'
import sqlite3, sys
sqlite3.connect(sys.argv[1]).execute("VACUUM INTO ?", (sys.argv[2],))
PY
}
played classic-tracked-first-draw classic 4 80 2
played tournament-tracked-draw-not-play tournament 4 90 2
