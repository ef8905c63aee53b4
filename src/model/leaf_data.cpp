#include "model/leaf_data.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <limits>
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

nn::DomainBox domain_box(const pde::MeasurementWindow& window) {
  return {window.x_min, window.x_max, window.t_min, window.t_max};
}

std::vector<nn::DomainBox> domain_boxes(const std::vector<pde::MeasuredExperiment>& measured) {
  std::vector<nn::DomainBox> boxes;
  for (const pde::MeasuredExperiment& experiment : measured)
    boxes.push_back(domain_box(experiment.window));
  return boxes;
}

std::pair<at::Tensor, at::Tensor> box_grids(const std::vector<nn::DomainBox>& boxes,
                                            const at::Tensor& unit_x, const at::Tensor& unit_t) {
  const std::int64_t x_points = unit_x.size(0), t_points = unit_t.size(0);
  std::vector<at::Tensor> xs, ts;
  for (const nn::DomainBox& box : boxes) {
    const at::Tensor x = box.x_min + (box.x_max - box.x_min) * unit_x;
    const at::Tensor t = box.t_min + (box.t_max - box.t_min) * unit_t;
    xs.push_back(x.unsqueeze(0).expand({t_points, x_points}).reshape({-1}));
    ts.push_back(t.unsqueeze(1).expand({t_points, x_points}).reshape({-1}));
  }
  return {at::stack(xs), at::stack(ts)};
}

std::int64_t fewest_points(const std::vector<pde::MeasuredExperiment>& measured,
                           std::int64_t experiments) {
  std::int64_t fewest = std::numeric_limits<std::int64_t>::max();
  for (std::int64_t e = 0; e < experiments && e < static_cast<std::int64_t>(measured.size()); ++e)
    fewest = std::min(fewest, measured[e].points());
  return fewest;
}

LeafData leaf_data_from_measurements(const std::vector<pde::MeasuredExperiment>& measured,
                                     std::int64_t experiments, std::int64_t points,
                                     const std::string& source) {
  const auto available = static_cast<std::int64_t>(measured.size());
  require(experiments >= 1 && experiments <= available, source,
          "N = " + std::to_string(experiments) + " experiments requested, the set holds " +
              std::to_string(available));
  require(points >= 1, source, "n_st = " + std::to_string(points) + " points requested");
  std::vector<at::Tensor> x, t, u;
  LeafData data;
  for (std::int64_t e = 0; e < experiments; ++e) {
    const pde::MeasuredExperiment& experiment = measured[e];
    require(experiment.points() >= points, source,
            "experiment '" + experiment.name + "' has " + std::to_string(experiment.points()) +
                " points, fewer than the n_st = " + std::to_string(points) + " each leaf needs");
    x.push_back(experiment.x.slice(0, 0, points));
    t.push_back(experiment.t.slice(0, 0, points));
    u.push_back(experiment.u.slice(0, 0, points));
    data.boxes.push_back(domain_box(experiment.window));
  }
  data.x = at::stack(x);
  data.t = at::stack(t);
  data.u = at::stack(u);
  validate(data, source);
  return data;
}

LeafData on_device(const LeafData& data, at::Device device) {
  return {data.x.to(device), data.t.to(device), data.u.to(device), data.boxes};
}

at::Tensor minibatch_indices(const LeafData& data, std::int64_t batch_size, std::uint64_t seed,
                             const std::string& stream, std::int64_t iteration) {
  return minibatch_indices(data.leaves(), data.points(), data.x.device(), batch_size, seed, stream,
                           iteration);
}

at::Tensor minibatch_indices(std::int64_t leaves, std::int64_t points, at::Device device,
                             std::int64_t batch_size, std::uint64_t seed, const std::string& stream,
                             std::int64_t iteration) {
  if (batch_size <= 0 || batch_size >= points) return {};
  util::Rng rng(util::derive_seed(seed, stream, static_cast<std::uint64_t>(iteration)));
  at::Tensor indices = at::empty({leaves, batch_size}, at::kLong);
  for (std::int64_t leaf = 0; leaf < leaves; ++leaf) {
    const auto chosen = rng.sample_without_replacement(points, batch_size);
    std::copy(chosen.begin(), chosen.end(), indices[leaf].data_ptr<std::int64_t>());
  }
  return indices.to(device);
}

LeafData select_points(const LeafData& data, const at::Tensor& indices) {
  if (!indices.defined()) return data;
  return {at::gather(data.x, 1, indices), at::gather(data.t, 1, indices),
          at::gather(data.u, 1, indices), data.boxes};
}

at::Tensor kept_back_mask(std::int64_t points, std::int64_t every) {
  if (every < 2 || every > points)
    throw std::invalid_argument("keeping back every " + std::to_string(every) +
                                "-th point needs 2 <= every <= P = " + std::to_string(points));
  return at::arange(points, at::kLong).remainder(every) == every - 1;
}

std::pair<LeafData, LeafData> keep_back_points(const LeafData& data, std::int64_t every) {
  const at::Tensor kept = kept_back_mask(data.points(), every).to(data.x.device());
  const at::Tensor index = at::arange(data.points(), data.x.options().dtype(at::kLong));
  const auto columns = [&](const at::Tensor& which) {
    return select_points(data, which.unsqueeze(0).expand({data.leaves(), -1}).contiguous());
  };
  return {columns(index.masked_select(~kept)), columns(index.masked_select(kept))};
}

}  // namespace bhpm::model
