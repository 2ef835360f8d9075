# The front end: help, unknown commands and flags exit 2 with one clear line.
source "$(dirname "$0")/../lib.sh"

expect_exit 0 "$PERFGATE" --help
expect_in out "compare"
expect_exit 2 "$PERFGATE" frobnicate
expect_in err "frobnicate"
expect_exit 2 "$PERFGATE" --no-such-flag
expect_in err "no-such-flag"
echo "cli_basics: ok"
