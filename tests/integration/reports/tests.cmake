perfgate_integration_test(reports_browser reports/browser.sh LABELS browser TIMEOUT 300)
perfgate_integration_test(reports_gate reports/gate.sh MEASURES LABELS gate TIMEOUT 600)
perfgate_integration_test(reports_nightly reports/nightly.sh MEASURES LABELS gate TIMEOUT 600)
perfgate_integration_test(reports_ci_files reports/ci_files.sh TIMEOUT 60)
