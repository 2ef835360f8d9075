#include "bucket_plan.hpp"

#include "perfgate/core/error.hpp"

namespace perfgate::step_proxy {

std::vector<Bucket> plan_buckets(int layers, long long per_layer, long long bucket) {
  if (layers <= 0 || per_layer <= 0 || bucket <= 0)
    throw InputError(
        "gradient buckets: layers, gradients per layer and bucket size must be positive");
  std::vector<Bucket> plan;
  long long ready = 0;
  for (int l = layers - 1; l >= 0; --l) {
    const long long low = l * per_layer;
    ready += per_layer;
    while (ready >= bucket) {
      ready -= bucket;
      plan.push_back({l, low + ready, bucket});
    }
  }
  if (ready > 0) plan.push_back({0, 0, ready});
  return plan;
}

}  // namespace perfgate::step_proxy
