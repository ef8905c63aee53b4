#include "model/system_roots.h"

#include <stdexcept>

#include "model/root_data.h"
#include "model/root_gp.h"

namespace bhpm::model {

std::vector<gp::ExactGp> train_system_roots(const SystemRootData& data,
                                            const std::string& kernel_name,
                                            const ExactRootTrainingOptions& options) {
  const at::Tensor& x = data.inputs;
  const at::Tensor& y = data.targets;
  if (x.dim() != 2 || y.dim() != 2 || x.size(0) != y.size(0) || x.size(0) < 1 ||
      x.scalar_type() != at::kDouble || y.scalar_type() != at::kDouble)
    throw std::invalid_argument(
        "system roots: inputs must be [N, D] and targets [N, q], both double, N >= 1");
  std::vector<gp::ExactGp> roots;
  for (std::int64_t i = 0; i < y.size(1); ++i) {
    gp::ExactGp root = make_exact_root(RootData{x, y.select(1, i).contiguous()}, kernel_name);
    train_exact_root(*root, options);
    roots.push_back(root);
  }
  return roots;
}

}  // namespace bhpm::model
