#pragma once
// Element types of the collectives and their host-side conversions (round to nearest even).
// Narrow floats are handled in software so that checks and the MPI backend need no GPU.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace perfgate::collectives {

// The training types first (their indices are the narrow types' table slots), then nccl-tests'
// double and integer types.
enum class DataType { f32, bf16, f16, f8e4m3, f8e5m2, f64, i8, u8, i32, u32, i64, u64 };

// nccl-tests spelling: "float", "bfloat16", "half", "f8e4m3", "f8e5m2", "double", "int8",
// "uint8", "int32", "uint32", "int64", "uint64".
std::string_view type_name(DataType t);
// Spelling in series params (as the operator benchmarks): "f32", "bf16", "f16", "f8e4m3",
// "f8e5m2", "f64", "i8", "u8", "i32", "u32", "i64", "u64". The nccl-tests ingester maps
// nccl-tests' names onto the same spellings.
std::string_view series_dtype(DataType t);
std::size_t type_size(DataType t);
bool is_integer(DataType t);
// u8, u32 and u64: no negative values.
bool is_unsigned(DataType t);
// bf16, f16 and the fp8 types: converted in software (narrow_codec.hpp), reduced by MPI through
// operators of perfgate's own.
bool is_narrow_float(DataType t);
// The distance from 1 to the next representable value (1 for the integer types).
double type_epsilon(DataType t);
// The smallest positive value of a floating-point type (a subnormal's spacing); 1 for the
// integer types.
double type_smallest_subnormal(DataType t);
// Accepts the nccl-tests names and fp32, bf16, fp16, fp8 (= f8e4m3), fp64 and the series
// spellings; throws InputError.
DataType datatype_from_string(std::string_view s);
// In nccl-tests' order of -d all: int8, uint8, int32, uint32, int64, uint64, half, float, double,
// bfloat16, f8e4m3, f8e5m2.
const std::vector<DataType>& all_datatypes();

// One element of a floating-point type other than f64: `bits` holds the encoded value in its low
// type_size(t) bytes.
std::uint32_t encode(DataType t, float value);
float decode(DataType t, std::uint32_t bits);

// Whole buffers (raw bytes in host memory, native byte order). Into an integer type a value is
// truncated toward zero and wraps modulo the type's range, as the integer arithmetic of a
// reduction would (values beyond 2^63 saturate first; NaN is 0).
void encode_array(DataType t, std::span<const double> values, std::span<std::byte> out);
std::vector<double> decode_array(DataType t, std::span<const std::byte> in);
// The first out.size() elements of `in`, into a buffer the caller keeps across pieces.
void decode_array(DataType t, std::span<const std::byte> in, std::span<double> out);

}  // namespace perfgate::collectives
