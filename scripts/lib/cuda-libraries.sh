# Sourced by scripts/device-check and scripts/device-run: where a GPU machine keeps the CUDA,
# cuDNN, NCCL and NVML libraries. Besides the usual CUDA places these may live only in a Python
# environment's site-packages/nvidia/* (the wheels PyTorch installs), so both are searched.

# Directories holding a file matching $1 under the usual CUDA places and Python's nvidia/*.
find_dirs() {
  local pattern="$1"
  local roots=(/usr/local/cuda /usr/local/cuda/lib64 /usr/include /usr/lib/x86_64-linux-gnu /usr/local/lib
               /usr/local/nvidia/lib64 /usr/local/nvidia/lib)
  local py
  for py in /opt/*/.venv/lib/python3*/site-packages /usr/local/lib/python3*/dist-packages \
            /usr/lib/python3/dist-packages "$HOME"/.local/lib/python3*/site-packages \
            /usr/local/lib/python3*/site-packages; do
    [[ -d "$py/nvidia" ]] && roots+=("$py/nvidia")
  done
  if command -v python3 >/dev/null 2>&1; then
    py="$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])' 2>/dev/null || true)"
    [[ -n "$py" && -d "$py/nvidia" ]] && roots+=("$py/nvidia")
  fi
  # `if`, not `&&`: under pipefail a missing last root would fail the whole pipeline.
  for r in "${roots[@]}"; do
    if [[ -d "$r" ]]; then find -L "$r" -maxdepth 4 -name "$pattern" -printf '%h\n' 2>/dev/null || true; fi
  done | awk '!seen[$0]++'
}

# Prepends every directory holding a CUDA-family library to LD_LIBRARY_PATH (each once) and
# leaves the list of those directories in cuda_library_path.
export_cuda_library_path() {
  cuda_library_path=""
  local pattern d
  for pattern in 'libcudnn.so.9*' 'libcublasLt.so*' 'libcudart.so*' 'libnvrtc.so*' 'libnvrtc-builtins.so*' \
                 'libnccl.so*' 'libnvidia-ml.so*'; do
    while read -r d; do
      [[ -n "$d" && ":$cuda_library_path:" != *":$d:"* ]] && cuda_library_path="${cuda_library_path:+$cuda_library_path:}$d"
    done < <(find_dirs "$pattern")
  done
  export LD_LIBRARY_PATH="${cuda_library_path}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
}
