#include "model/leaf_data.h"

#include <ATen/ATen.h>

#include <cmath>
#include <stdexcept>

#include "util/random.h"

namespace bhpm::model {

namespace {

void require(bool ok, const std::string& source, const std::string& message) {
  if (!ok) throw std::invalid_argument(source + ": " + message);
}

std::string shape(const at::Tensor& t) {
  std::string text = "[";
  for (int64_t d = 0; d < t.dim(); ++d) text += (d ? ", " : "") + std::to_string(t.size(d));
  return text + "]";
}

}  // namespace

void validate(const LeafData& data, const std::string& source) {
  for (const auto& [name, tensor] : {std::pair{"x", &data.x}, {"t", &data.t}, {"u", &data.u}}) {
    require(tensor->defined() && tensor->dim() == 2 && tensor->scalar_type() == at::kDouble, source,
            std::string("measurements ") + name + " must be a double array [L, P]");
    require(tensor->size(0) >= 1 && tensor->size(1) >= 1, source,
            std::string("measurements ") + name + " are empty (shape " + shape(*tensor) + ")");
    require(tensor->sizes() == data.x.sizes(), source,
            std::string("measurements ") + name + " have shape " + shape(*tensor) + " but x has " +
                shape(data.x));
    const at::Tensor bad = ~at::isfinite(*tensor);
    if (bad.any().item<bool>()) {
      const at::Tensor where = bad.nonzero()[0];
      throw std::invalid_argument(source + ": measurements " + name +
                                  " hold NaN or Inf (experiment " +
                                  std::to_string(where[0].item<int64_t>()) + ", point " +
                                  std::to_string(where[1].item<int64_t>()) + ")");
    }
  }
  require(static_cast<int64_t>(data.boxes.size()) == data.leaves(), source,
          "one domain box per experiment is needed");
  for (std::size_t i = 0; i < data.boxes.size(); ++i) {
    const nn::DomainBox& b = data.boxes[i];
    require(std::isfinite(b.x_min) && std::isfinite(b.x_max) && std::isfinite(b.t_min) &&
                std::isfinite(b.t_max) && b.x_max > b.x_min && b.t_max > b.t_min,
            source, "experiment " + std::to_string(i) + " has an empty or non-finite domain box");
  }
}

nn::DomainBox experiment_box(const pde::ExperimentSet& set) {
  const int64_t n = set.x.size(0);
  const double x0 = set.x[0].item<double>();
  const double dx = (set.x[n - 1].item<double>() - x0) / static_cast<double>(n - 1);
  return {x0, x0 + dx * static_cast<double>(n), set.t[0].item<double>(), set.t[-1].item<double>()};
}

LeafData leaf_data_from_set(const pde::ExperimentSet& set, std::int64_t experiments,
                            std::int64_t points, const std::string& source) {
  const std::int64_t available = set.sample_u.size(0), offered = set.sample_u.size(1);
  require(experiments >= 1 && experiments <= available, source,
          "N = " + std::to_string(experiments) + " experiments requested, the set '" + set.name +
              "' holds " + std::to_string(available));
  require(points >= 1 && points <= offered, source,
          "n_st = " + std::to_string(points) + " points requested, the set '" + set.name +
              "' offers " + std::to_string(offered) + " per experiment");
  LeafData data;
  data.x = set.sample_x.slice(0, 0, experiments).slice(1, 0, points).contiguous();
  data.t = set.sample_t.slice(0, 0, experiments).slice(1, 0, points).contiguous();
  data.u = set.sample_u.slice(0, 0, experiments).slice(1, 0, points).contiguous();
  data.boxes.assign(static_cast<std::size_t>(experiments), experiment_box(set));
  validate(data, source);
  return data;
}

at::Tensor minibatch_indices(const LeafData& data, std::int64_t batch_size, std::uint64_t seed,
                             const std::string& stream, std::int64_t iteration) {
  if (batch_size <= 0 || batch_size >= data.points()) return {};
  util::Rng rng(util::derive_seed(seed, stream, static_cast<std::uint64_t>(iteration)));
  at::Tensor indices = at::empty({data.leaves(), batch_size}, at::kLong);
  for (std::int64_t leaf = 0; leaf < data.leaves(); ++leaf) {
    const auto chosen = rng.sample_without_replacement(data.points(), batch_size);
    std::copy(chosen.begin(), chosen.end(), indices[leaf].data_ptr<std::int64_t>());
  }
  return indices;
}

LeafData select_points(const LeafData& data, const at::Tensor& indices) {
  if (!indices.defined()) return data;
  return {at::gather(data.x, 1, indices), at::gather(data.t, 1, indices),
          at::gather(data.u, 1, indices), data.boxes};
}

}  // namespace bhpm::model
