#pragma once
// FLOP and byte models of the CUDA families: the same counting conventions as the CPU
// families (a multiply-add is 2 FLOP; bytes are every input read once and every output
// written once at the storage size). Host-only, unit-tested without a GPU.
#include <cstdint>
#include <string>

namespace perfgate::cuda {

enum class Precision { f32, bf16, f16, fp8 };
Precision precision_from_string(const std::string& text);  // throws InputError
const char* to_string(Precision p);
std::size_t element_bytes(Precision p);

struct Traffic {
  double flops = 0;
  double bytes = 0;
};

struct RowShape {
  std::int64_t rows = 0, hidden = 0;
};
struct AttentionShape {
  std::int64_t batch = 1, heads = 1, kv_heads = 1, seq_q = 1, seq_kv = 1, head_dim = 1;
  bool causal = false;
};
struct GemmShape {
  std::int64_t m = 1, n = 1, k = 1;
};

// Each throws InputError when a dimension is not positive (the message names the field).
Traffic rmsnorm_residual_traffic(RowShape s, Precision p);
Traffic layernorm_residual_traffic(RowShape s, Precision p);
Traffic softmax_traffic(RowShape s, Precision p);
Traffic bias_gelu_traffic(RowShape s, Precision p);
Traffic swiglu_traffic(RowShape s, Precision p);  // hidden = output width; input is 2*hidden
// rows = tokens*heads, hidden = head_dim; the fp32 cos/sin table has `positions` rows.
Traffic rope_traffic(RowShape s, Precision p, std::int64_t positions);
Traffic adamw_traffic(std::int64_t parameters);  // fp32 params, grads, moments
Traffic gemm_traffic(GemmShape s, Precision p, bool bias);
Traffic attention_forward_traffic(AttentionShape s, Precision p);
Traffic attention_backward_traffic(AttentionShape s, Precision p);
// Score entries that attention computes: Sq*Skv, or the kept lower triangle when causal.
double attention_score_count(AttentionShape s);
void validate(AttentionShape s);  // GQA: heads divisible by kv_heads

// The fraction of a ceiling a rate reaches; 0 when the ceiling is unknown (not measured).
double fraction_of(double rate, double ceiling);

}  // namespace perfgate::cuda
