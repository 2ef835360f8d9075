# Injection audit of the source tree (SQL built at run time, shell strings): first proves the
# audit catches both on a planted tree, then requires the real tree to be clean.
source "$(dirname "$0")/../lib.sh"
HERE="$(dirname "$0")"
ALLOW="$TEST_DATA/reliability/source_audit_allow.tsv"

mkdir -p planted/baselines planted/scaling
cat > planted/baselines/bad.cpp <<'CPP'
void f(Db& db, const std::string& name) {
  db.query("SELECT * FROM runs WHERE suite = '" + name + "'");
  sqlite3_exec(h, fmt::format("DELETE FROM runs WHERE uuid = '{}'", name).c_str(), 0, 0, 0);
}
CPP
cat > planted/scaling/bad.cpp <<'CPP'
void g(const std::string& host) { std::system(("ssh " + host).c_str()); popen(cmd, "r"); }
CPP
expect_exit 1 python3 "$HERE/source_audit.py" planted "$ALLOW"
expect_in out "FINDING sql baselines/bad.cpp:2"
expect_in out "FINDING sql baselines/bad.cpp:3"
expect_in out "FINDING shell scaling/bad.cpp:1"
expect_in out "4 not on the allowlist"

expect_exit 0 python3 "$HERE/source_audit.py" "$SOURCE_DIR" "$ALLOW"
cat "$WORK/out"
echo "source_audit: ok"
