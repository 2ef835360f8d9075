# perfgate_warnings(target): the project's warning set; errors when PERFGATE_WERROR is on.
function(perfgate_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor
      -Wconversion -Wno-sign-conversion -Wimplicit-fallthrough
      $<$<CXX_COMPILER_ID:GNU>:-Wno-restrict>>  # GCC 12 -O3 false positives in std::string
    $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<BOOL:${PERFGATE_WERROR}>>:-Werror>
    # A register spill in a bandwidth-bound kernel is a performance bug: ptxas says so, and with
    # warnings as errors the build stops.
    $<$<COMPILE_LANGUAGE:CUDA>:-Xptxas=--warn-on-spills>
    $<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<BOOL:${PERFGATE_WERROR}>>:--Werror=all-warnings>)
endfunction()
