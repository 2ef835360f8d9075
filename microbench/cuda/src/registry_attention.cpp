// Attention forward on the GPU for the `attention` family, three implementations on the
// family's packed layout (Q, O [b·sq, h, d]; K, V [b·sk, hkv, d], which is [B, S, H, D] when
// every sequence has the same length): cuDNN's fused SDPA ("cudnn", varlen batches through its
// ragged offsets and padding mask), batched cuBLAS + masked softmax + batched cuBLAS ("unfused",
// per sequence for varlen batches), and the own FlashAttention-2-style kernel ("flash", varlen
// batches through its packed instantiation).
// A case an implementation cannot do is skipped with the reason, never failed.
#include "perfgate/cuda/attention.hpp"
#include "perfgate/microbench/families/attention.hpp"
#include "registry_attention_shape.hpp"
#include "registry_device.hpp"

namespace perfgate::microbench {
namespace {

using namespace cuda_backend;

// Q, K, V uploaded once; O is the output. shape_: the batch's (a varlen batch's longest lengths,
// or its first sequence for the unfused path).
class AttentionInstance : public CudaInstance {
 public:
  AttentionInstance(const AttentionProblem& p, pc::AttentionShape s)
      : CudaInstance(precision(p.dtype), {p.q.size()}),
        shape_(s),
        q_(upload(p.q, precision_)),
        k_(upload(p.k, precision_)),
        v_(upload(p.v, precision_)) {}

 protected:
  pc::AttentionShape shape_;
  Tensor q_, k_, v_;
};

class CudnnInstance final : public AttentionInstance {
 public:
  CudnnInstance(const AttentionProblem& p, const CaseParams& params)
      : AttentionInstance(p, attention_shape(p, "attention/cudnn")),
        sdpa_(shape_, precision_, pc::CudnnSdpa::Direction::forward, packed_sequences(p, params)),
        stats_(std::size_t(shape_.batch * shape_.heads * shape_.seq_q)) {}

 private:
  void launch(cudaStream_t s, int) override {
    sdpa_.forward(q_.get(), k_.get(), v_.get(), outputs_[0].get(), stats_.get(), s);
  }
  nlohmann::json notes() const override {
    nlohmann::json n = AttentionInstance::notes();
    add_cudnn_notes(n, sdpa_);
    return n;
  }
  pc::CudnnSdpa sdpa_;
  pc::DeviceBuffer<float> stats_;
};

// Packed variable-length batches run one sequence at a time (each its own batched GEMMs and
// softmax), as a framework without a varlen kernel would; uniform batches in one call.
class UnfusedInstance final : public AttentionInstance {
 public:
  UnfusedInstance(const AttentionProblem& p, const CaseParams& params)
      : AttentionInstance(p, per_sequence_shape(p, params, 0)) {
    const std::size_t e = pc::element_bytes(precision_);
    const bool varlen = is_varlen(params);
    const std::size_t parts = varlen ? p.cu_q.size() - 1 : 1;
    for (std::size_t i = 0; i < parts; ++i) {
      const std::size_t q_at = (varlen ? p.cu_q[i] : 0) * p.h * p.d * e;
      const std::size_t k_at = (varlen ? p.cu_k[i] : 0) * p.hkv * p.d * e;
      parts_.push_back(std::make_unique<pc::UnfusedAttention>(
          varlen ? per_sequence_shape(p, params, i) : shape_, precision_, q_.get() + q_at,
          k_.get() + k_at, v_.get() + k_at, outputs_[0].get() + q_at));
    }
  }

 private:
  // The shape of sequence i of a varlen batch (batch 1), or the uniform batch's shape.
  static pc::AttentionShape per_sequence_shape(const AttentionProblem& p, const CaseParams& params,
                                               std::size_t i) {
    pc::AttentionShape s = attention_shape(p, "attention/unfused");
    if (!is_varlen(params)) return s;
    s.batch = 1;
    s.seq_q = std::int64_t(p.cu_q[i + 1] - p.cu_q[i]);
    s.seq_kv = std::int64_t(p.cu_k[i + 1] - p.cu_k[i]);
    return s;
  }
  void launch(cudaStream_t s, int) override {
    for (const auto& part : parts_) part->run(s);
  }
  std::vector<std::unique_ptr<pc::UnfusedAttention>> parts_;
};

class FlashInstance final : public AttentionInstance {
 public:
  FlashInstance(const AttentionProblem& p, const CaseParams& params)
      : AttentionInstance(p, supported(p, params)) {
    if (!is_varlen(params)) return;
    cu_q_ = pc::DeviceBuffer<std::int32_t>(row_offsets32(p.cu_q, "attention/flash"));
    cu_kv_ = pc::DeviceBuffer<std::int32_t>(row_offsets32(p.cu_k, "attention/flash"));
  }

 private:
  static pc::AttentionShape supported(const AttentionProblem& p, const CaseParams& params) {
    const pc::AttentionShape s = attention_shape(p, "attention/flash");
    std::string why;
    if (!pc::flash_supported(s, precision(p.dtype), &why, is_varlen(params)))
      throw CaseUnsupported("cuda attention/flash: " + why);
    return s;
  }
  void launch(cudaStream_t s, int) override {
    pc::flash_attention_forward(precision_, shape_, q_.get(), k_.get(), v_.get(), outputs_[0].get(),
                                s, {cu_q_.get(), cu_kv_.get()});
  }
  pc::DeviceBuffer<std::int32_t> cu_q_, cu_kv_;  // a varlen batch's row offsets; empty otherwise
};

}  // namespace

PERFGATE_IMPLEMENTATION(attention, AttentionProblem, cuda, cudnn) {
  return make_on_device<CudnnInstance>(problem, params);
}
PERFGATE_IMPLEMENTATION(attention, AttentionProblem, cuda, unfused) {
  return make_on_device<UnfusedInstance>(problem, params);
}
PERFGATE_IMPLEMENTATION(attention, AttentionProblem, cuda, flash) {
  return make_on_device<FlashInstance>(problem, params);
}

}  // namespace perfgate::microbench
