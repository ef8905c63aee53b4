#include "util/device.h"

#include <ATen/Context.h>

#include <cctype>
#include <stdexcept>

namespace bhpm::util {

namespace {

/// True when `text` is a non-empty run of decimal digits.
bool all_digits(const std::string& text) {
  if (text.empty() || text.size() > 3) return false;
  for (const char c : text)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

}  // namespace

c10::Device parse_device(const std::string& text, const std::string& setting) {
  if (text == "cpu") return c10::Device(c10::kCPU);
  if (text == "cuda") return c10::Device(c10::kCUDA, 0);
  const std::string prefix = "cuda:";
  if (text.rfind(prefix, 0) == 0 && all_digits(text.substr(prefix.size())))
    return c10::Device(c10::kCUDA,
                       static_cast<c10::DeviceIndex>(std::stoi(text.substr(prefix.size()))));
  throw std::invalid_argument(setting + ": must be \"cpu\", \"cuda\" or \"cuda:N\" (got \"" + text +
                              "\")");
}

void require_available(c10::Device device, const std::string& setting) {
  if (device.is_cpu()) return;
  const std::string name = device.str();
  if (!at::hasCUDA())
    throw std::runtime_error(setting + " = \"" + name +
                             "\": this bhpm was built against a LibTorch without CUDA, or no "
                             "GPU is visible (use \"cpu\"; docs/parallel.md, \"CUDA\", shows the "
                             "CUDA build)");
  const auto gpus = static_cast<int>(at::getNumGPUs());
  if (device.index() >= gpus)
    throw std::runtime_error(setting + " = \"" + name + "\": only " + std::to_string(gpus) +
                             " GPU(s) are visible (cuda:0 .. cuda:" + std::to_string(gpus - 1) +
                             ")");
}

}  // namespace bhpm::util
