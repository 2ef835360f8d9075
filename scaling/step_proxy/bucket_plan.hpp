#pragma once
// Which gradient all-reduces a step launches, and after which layer: gradients become final layer
// by layer, last layer first; full buckets are taken from the top of the ready span and the rest
// waits for the next layer; what remains after layer 0 is one last bucket. Both backends launch
// their all-reduces from this plan; host-only, so it is unit-tested without a GPU.
#include <vector>

namespace perfgate::step_proxy {

struct Bucket {
  int after_layer = 0;   // launched once this layer's weight gradients are enqueued
  long long offset = 0;  // in gradients from the start of layer 0's
  long long count = 0;
};

// Buckets in launch order. Throws InputError when a count is not positive.
std::vector<Bucket> plan_buckets(int layers, long long per_layer, long long bucket);

}  // namespace perfgate::step_proxy
