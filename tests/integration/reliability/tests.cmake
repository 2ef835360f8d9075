# Reliability integration tests: real binaries, real SQLite files, real kills.
perfgate_integration_test(reliability_doctor_cli reliability/doctor_cli.sh LABELS reliability TIMEOUT 60)
perfgate_integration_test(reliability_source_audit reliability/source_audit.sh LABELS reliability TIMEOUT 60)
perfgate_integration_test(reliability_kill_during_ingest reliability/kill_during_ingest.sh
  LABELS reliability TIMEOUT 300)
perfgate_integration_test(reliability_concurrent_store reliability/concurrent_store.sh
  LABELS reliability TIMEOUT 180)
perfgate_integration_test(reliability_disk_full reliability/disk_full.sh LABELS reliability TIMEOUT 120)
perfgate_integration_test(reliability_isolation reliability/isolation.sh LABELS reliability TIMEOUT 120)
perfgate_integration_test(reliability_read_only_cli reliability/read_only_cli.sh LABELS reliability TIMEOUT 120)
