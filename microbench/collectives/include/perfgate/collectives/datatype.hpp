#pragma once
// Element types of the collectives and their host-side conversions (round to nearest even).
// Narrow floats are handled in software so that checks and the MPI backend need no GPU.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace perfgate::collectives {

enum class DataType { f32, bf16, f16, f8e4m3, f8e5m2 };

std::string_view type_name(
    DataType t);  // nccl-tests spelling: "float", "bfloat16", "half", "f8e4m3", "f8e5m2"
// Spelling in series params (as the operator benchmarks): "f32", "bf16", "f16", "f8e4m3", "f8e5m2".
// The nccl-tests ingester maps nccl-tests' names onto the same spellings.
std::string_view series_dtype(DataType t);
std::size_t type_size(DataType t);
double type_epsilon(DataType t);  // distance from 1 to the next representable value
// Accepts the nccl-tests names and fp32, bf16, fp16, fp8 (= f8e4m3); throws InputError.
DataType datatype_from_string(std::string_view s);
const std::vector<DataType>& all_datatypes();

// One element: `bits` holds the encoded value in its low type_size(t) bytes.
std::uint32_t encode(DataType t, float value);
float decode(DataType t, std::uint32_t bits);

// Whole buffers (raw bytes in host memory, native byte order).
void encode_array(DataType t, std::span<const double> values, std::span<std::byte> out);
std::vector<double> decode_array(DataType t, std::span<const std::byte> in);
// The first out.size() elements of `in`, into a buffer the caller keeps across pieces.
void decode_array(DataType t, std::span<const std::byte> in, std::span<double> out);

}  // namespace perfgate::collectives
