# Resolves PERFGATE_CUDA / PERFGATE_MPI / PERFGATE_NCCL (AUTO|ON|OFF) into
# PERFGATE_HAVE_CUDA / PERFGATE_HAVE_MPI / PERFGATE_HAVE_NCCL. ON fails when the
# toolchain is missing; AUTO quietly builds without it.
include(CheckLanguage)

function(_perfgate_require option found what)
  if(${option} STREQUAL "ON" AND NOT ${found})
    message(FATAL_ERROR "${option}=ON but ${what} was not found")
  endif()
endfunction()

set(PERFGATE_HAVE_CUDA OFF)
if(NOT PERFGATE_CUDA STREQUAL "OFF")
  if(NOT CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
  endif()
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      # Hopper first (sm_90a: wgmma/TMA), Ampere as the floor the code must build for.
      set(CMAKE_CUDA_ARCHITECTURES 80-real 90a-real 90-virtual)
    endif()
    enable_language(CUDA)
    find_package(CUDAToolkit REQUIRED)
    set(PERFGATE_HAVE_CUDA ON)
  endif()
  _perfgate_require(PERFGATE_CUDA PERFGATE_HAVE_CUDA "a CUDA compiler")
endif()

set(PERFGATE_HAVE_MPI OFF)
if(NOT PERFGATE_MPI STREQUAL "OFF")
  find_package(MPI COMPONENTS CXX)
  if(MPI_CXX_FOUND)
    set(PERFGATE_HAVE_MPI ON)
  endif()
  _perfgate_require(PERFGATE_MPI PERFGATE_HAVE_MPI "MPI (OpenMPI)")
endif()

set(PERFGATE_HAVE_NCCL OFF)
if(PERFGATE_HAVE_CUDA AND NOT PERFGATE_NCCL STREQUAL "OFF")
  find_path(NCCL_INCLUDE_DIR nccl.h HINTS ${CUDAToolkit_INCLUDE_DIRS} /usr/local/cuda/include)
  find_library(NCCL_LIBRARY nccl HINTS ${CUDAToolkit_LIBRARY_DIR} /usr/local/cuda/lib64)
  if(NCCL_INCLUDE_DIR AND NCCL_LIBRARY)
    set(PERFGATE_HAVE_NCCL ON)
  endif()
endif()
_perfgate_require(PERFGATE_NCCL PERFGATE_HAVE_NCCL "NCCL (nccl.h and libnccl)")

message(STATUS "perfgate backends: CUDA=${PERFGATE_HAVE_CUDA} MPI=${PERFGATE_HAVE_MPI} NCCL=${PERFGATE_HAVE_NCCL}")

# NVTX 3 is headers only; at run time it loads a profiler's injection library when one is named
# (Nsight Systems and Compute do), and does nothing otherwise. The harness marks its phases with
# it wherever the headers are, GPU or not: the CUDA toolkit has them, at its standard location.
set(PERFGATE_HAVE_NVTX OFF)
find_path(PERFGATE_NVTX3_INCLUDE_DIR nvtx3/nvToolsExt.h
  HINTS ${CUDAToolkit_INCLUDE_DIRS} /usr/local/cuda/include)
if(PERFGATE_NVTX3_INCLUDE_DIR)
  set(PERFGATE_HAVE_NVTX ON)
endif()
message(STATUS "perfgate NVTX phase ranges: ${PERFGATE_HAVE_NVTX}")
