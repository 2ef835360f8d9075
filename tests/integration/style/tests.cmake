perfgate_integration_test(style_source_format style/source_format.sh LABELS style TIMEOUT 300)
