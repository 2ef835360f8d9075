#include "perfgate/cuda/traffic_model.hpp"

#include <algorithm>

#include "perfgate/core/attention_scores.hpp"
#include "perfgate/core/error.hpp"

namespace perfgate::cuda {
namespace {

void require_positive(std::int64_t value, const char* field) {
  if (value <= 0)
    throw InputError(std::string("cuda workload: ") + field + " must be positive, got " +
                     std::to_string(value));
}

double elements(RowShape s) {
  require_positive(s.rows, "rows");
  require_positive(s.hidden, "hidden");
  return double(s.rows) * double(s.hidden);
}

}  // namespace

Precision precision_from_string(const std::string& text) {
  if (text == "f32" || text == "fp32") return Precision::f32;
  if (text == "bf16") return Precision::bf16;
  if (text == "f16" || text == "fp16") return Precision::f16;
  if (text == "fp8" || text == "e4m3") return Precision::fp8;
  throw InputError("cuda dtype: unknown precision '" + text + "' (expected f32, bf16, f16 or fp8)");
}

const char* to_string(Precision p) {
  switch (p) {
    case Precision::f32:
      return "f32";
    case Precision::bf16:
      return "bf16";
    case Precision::f16:
      return "f16";
    case Precision::fp8:
      return "fp8";
  }
  return "?";
}

std::size_t element_bytes(Precision p) {
  switch (p) {
    case Precision::f32:
      return 4;
    case Precision::bf16:
    case Precision::f16:
      return 2;
    case Precision::fp8:
      return 1;
  }
  return 0;
}

Traffic rmsnorm_residual_traffic(RowShape s, Precision p) {
  const double n = elements(s), e = double(element_bytes(p));
  // h = x + r; y = h * rsqrt(mean(h^2)) * w: add, square-accumulate (2), scale, weight.
  return {5 * n, (4 * n + double(s.hidden)) * e};
}

Traffic layernorm_residual_traffic(RowShape s, Precision p) {
  const double n = elements(s), e = double(element_bytes(p));
  // add, mean, centre, square-accumulate (2), scale, gamma, beta.
  return {8 * n, (4 * n + 2 * double(s.hidden)) * e};
}

Traffic softmax_traffic(RowShape s, Precision p) {
  const double n = elements(s), e = double(element_bytes(p));
  return {5 * n, 2 * n * e};  // max, subtract, exp, sum, divide
}

Traffic bias_gelu_traffic(RowShape s, Precision p) {
  const double n = elements(s), e = double(element_bytes(p));
  return {10 * n, (2 * n + double(s.hidden)) * e};  // bias add + tanh-form GeLU
}

Traffic swiglu_traffic(RowShape s, Precision p) {
  const double n = elements(s), e = double(element_bytes(p));
  return {6 * n, 3 * n * e};  // reads gate and up, writes silu(gate) * up
}

Traffic rope_traffic(RowShape s, Precision p, std::int64_t positions) {
  const double n = elements(s), e = double(element_bytes(p));
  if (s.hidden % 2 != 0) throw InputError("cuda workload: rope head_dim must be even");
  require_positive(positions, "positions");
  // The cos/sin table, a float pair per (position, pair of elements), is read once: every head
  // of a token shares its row.
  const double table = double(positions) * double(s.hidden / 2) * 2 * 4;
  return {3 * n, 2 * n * e + table};  // two multiplies and an add per element
}

Traffic adamw_traffic(std::int64_t parameters) {
  require_positive(parameters, "parameters");
  const double n = double(parameters);
  return {12 * n, 7 * 4 * n};  // read p, g, m, v; write p, m, v (fp32)
}

Traffic gemm_traffic(GemmShape s, Precision p, bool bias) {
  require_positive(s.m, "m");
  require_positive(s.n, "n");
  require_positive(s.k, "k");
  const double m = double(s.m), n = double(s.n), k = double(s.k);
  const double in = double(element_bytes(p));
  // fp8 GEMMs write bf16; the others write their input precision.
  const double out = p == Precision::fp8 ? 2.0 : in;
  return {2 * m * n * k, (m * k + k * n) * in + m * n * out + (bias ? n * out : 0.0)};
}

void validate(AttentionShape s) {
  require_positive(s.batch, "batch");
  require_positive(s.heads, "heads");
  require_positive(s.kv_heads, "kv_heads");
  require_positive(s.seq_q, "seq_q");
  require_positive(s.seq_kv, "seq_kv");
  require_positive(s.head_dim, "head_dim");
  if (s.heads % s.kv_heads != 0)
    throw InputError("cuda workload: heads (" + std::to_string(s.heads) +
                     ") must be a multiple of kv_heads (" + std::to_string(s.kv_heads) + ")");
}

double attention_score_count(AttentionShape s) {
  validate(s);
  return double(kept_scores(s.causal, std::size_t(s.seq_q), std::size_t(s.seq_kv)));
}

Traffic attention_forward_traffic(AttentionShape s, Precision p) {
  const double scores = attention_score_count(s);
  const double e = double(element_bytes(p));
  const double bh = double(s.batch) * double(s.heads), d = double(s.head_dim);
  const double q_and_o = 2 * bh * double(s.seq_q) * d;
  const double k_and_v = 2 * double(s.batch) * double(s.kv_heads) * double(s.seq_kv) * d;
  return {4 * bh * scores * d, (q_and_o + k_and_v) * e};  // QK^T and PV, 2 FLOP per MAC each
}

Traffic attention_backward_traffic(AttentionShape s, Precision p) {
  const Traffic fwd = attention_forward_traffic(s, p);
  // Five score-sized products (QK^T recomputed, dV, dP, dQ, dK); reads Q K V O dO, writes dQ dK dV.
  return {2.5 * fwd.flops, fwd.bytes * 2};
}

double fraction_of(double rate, double ceiling) {
  return ceiling > 0 ? rate / ceiling : 0.0;
}

}  // namespace perfgate::cuda
