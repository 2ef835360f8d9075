perfgate_integration_test(style_source_format style/source_format.sh LABELS style TIMEOUT 300)
perfgate_integration_test(style_cuda_call_checks style/cuda_call_checks.sh LABELS style TIMEOUT 60)
