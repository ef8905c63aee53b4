#include "model/root_data.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <vector>

#include "util/random.h"

namespace bhpm::model {

RootData root_data(const nn::LeafDerivatives& derivatives) {
  const at::Tensor& v = derivatives.u_x_derivatives;  // [K+1, L, P]
  return {v.permute({1, 2, 0}).reshape({-1, v.size(0)}), derivatives.u_t.reshape({-1})};
}

RootData root_data_detached(const LeafModelImpl& leaves, const LeafData& data, int order,
                            std::int64_t chunk) {
  at::NoGradGuard no_grad;
  std::vector<at::Tensor> derivatives, u_t;
  for (std::int64_t start = 0; start < data.points(); start += chunk) {
    const std::int64_t end = std::min(data.points(), start + chunk);
    const nn::LeafDerivatives part =
        nn::taylor_forward(leaves.network(), data.x.slice(1, start, end),
                           data.t.slice(1, start, end), data.boxes, order);
    derivatives.push_back(part.u_x_derivatives);
    u_t.push_back(part.u_t);
  }
  return root_data({at::cat(derivatives, 2), at::cat(u_t, 1)});
}

RootData random_rows(const RootData& data, std::int64_t count, std::uint64_t seed) {
  if (count >= data.points()) return data;
  util::Rng rng(util::derive_seed(seed, "root_subset", 0));
  const std::vector<std::int64_t> chosen = rng.sample_without_replacement(data.points(), count);
  const at::Tensor rows = at::tensor(chosen, at::kLong).to(data.inputs.device());
  return {data.inputs.index_select(0, rows), data.targets.index_select(0, rows)};
}

}  // namespace bhpm::model
