#pragma once
// Predictable inputs and the outputs they must produce, so every rank can count wrong elements
// of its own output without moving data (the nccl-tests data check, on the host).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

#include "perfgate/collectives/collective.hpp"
#include "perfgate/collectives/datatype.hpp"
#include "perfgate/collectives/reduce_op.hpp"

namespace perfgate::collectives {

struct CaseShape {
  Collective collective = Collective::all_reduce;
  DataType dtype = DataType::f32;
  ReduceOp op = ReduceOp::sum;
  int root = 0;
  int ranks = 1;
  std::size_t count = 0;  // the table count
  // Which of the pattern's input sets: the same values in other places (each chunk of the
  // buffer starts elsewhere), so that repeated checks (-c N) see N different inputs.
  std::uint32_t draw = 0;
};

// Bytes one rank allocates for `shape`: its send buffer and a receive buffer big enough for the
// in-place form too (the larger of the two placements of a case). In double: a size near the
// largest accepted would wrap a 64-bit count.
double case_buffer_bytes(const CaseShape& shape);

// Element `index` of the send buffer of `rank`: values chosen so that every expected value is
// exact in every datatype, fp8 included, whatever the number of ranks (a sum's or product's
// small integers, signed and scaled by powers of two; a copy's, min's or max's 64 distinct
// values).
double input_value(const CaseShape& shape, int rank, std::size_t index);
// What `rank` multiplies its input by before a reduction: 1 on even ranks and 2 on odd ones
// with mulsum (nccl-tests' PreMulSum scalar), 1 for every other op and collective.
double premul_scalar(const CaseShape& shape, int rank);
// Element `index` of the receive buffer of `rank` after the collective.
double expected_value(const CaseShape& shape, int rank, std::size_t index);
// True when `rank` has an output to check (reduce, gather: only the root).
bool has_output(const CaseShape& shape, int rank);
// Elements of `output` (the receive buffer of `rank`) not equal to the expected value; a float
// average over a rank count that is not a power of two may differ by its roundings (1/n's and
// the result's, as NCCL and MPI compute it).
// `first`: the index in the receive buffer of output[0] (a buffer checked piece by piece).
std::size_t count_wrong(const CaseShape& shape, int rank, std::span<const double> output,
                        std::size_t first = 0);

// Buffers are encoded and checked through doubles a piece at a time, so that the staging memory
// stays a few MiB whatever the buffer's size (a whole 4 GiB bf16 buffer would take 16 GiB).
inline constexpr std::size_t kPatternPieceElements = std::size_t{1} << 20;

// Calls f(first, n) for consecutive pieces [first, first + n) of [0, count).
template <class F>
void for_each_piece(std::size_t count, F&& f) {
  for (std::size_t first = 0; first < count; first += kPatternPieceElements)
    f(first, std::min(kPatternPieceElements, count - first));
}

// Writes elements [first, first + out.size() / type size) of the send buffer of `rank`, encoded.
void encode_input(const CaseShape& shape, int rank, std::size_t first, std::span<std::byte> out);
// count_wrong on encoded elements [first, ...) of the receive buffer of `rank`.
std::size_t count_wrong_encoded(const CaseShape& shape, int rank, std::size_t first,
                                std::span<const std::byte> out);

}  // namespace perfgate::collectives
