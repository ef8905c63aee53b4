#pragma once
/// Where BHPM's tensors live: the CPU or one CUDA GPU (docs/parallel.md, "CUDA"). Every
/// computation keeps float64 on either; random numbers are drawn on the CPU and copied, so
/// a seed gives the same numbers on both.

#include <c10/core/Device.h>

#include <string>

namespace bhpm::util {

/// "cpu", "cuda" (GPU 0) or "cuda:N". Throws std::invalid_argument naming `setting` and
/// the rule for any other text.
c10::Device parse_device(const std::string& text, const std::string& setting);

/// Throws std::runtime_error naming `setting` when `device` is a GPU that this process
/// cannot use: a LibTorch built without CUDA, no GPU visible, or no GPU N.
void require_available(c10::Device device, const std::string& setting);

}  // namespace bhpm::util
