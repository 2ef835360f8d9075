#pragma once
// CUDA_VISIBLE_DEVICES as CUDA reads it: the GPUs a process sees, in the order it numbers them
// (its device 0 is the first entry). nvidia-smi ignores the variable, so whatever asks nvidia-smi
// about "this process's GPU" matches the entries against nvidia-smi's index and UUID columns.
#include <string>
#include <vector>

namespace perfgate {

// $CUDA_VISIBLE_DEVICES, or empty when it is not set.
std::string visible_devices_from_environment();

// The entries of the variable's value, trimmed; none for an empty value.
std::vector<std::string> visible_device_entries(const std::string& value);

// Whether `entry` (an index, or a UUID or a prefix of one, "GPU-…") names the GPU nvidia-smi
// lists with `index` and `uuid`. A MIG instance's UUID ("MIG-…") names no GPU here.
bool entry_names_gpu(const std::string& entry, const std::string& index, const std::string& uuid);

}  // namespace perfgate
