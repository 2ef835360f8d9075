perfgate_integration_test(reports_browser reports/browser.sh LABELS browser TIMEOUT 300)
