#include "pde/measured_experiment.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

namespace bhpm::pde {

namespace {

void require(bool ok, const std::string& where, const std::string& rule) {
  if (!ok) throw std::invalid_argument(where + ": " + rule);
}

bool inside(const at::Tensor& values, double low, double high) {
  return values.numel() == 0 ||
         (values.min().item<double>() >= low && values.max().item<double>() <= high);
}

/// Whether two of the points (x[i], t[i]) coincide.
bool repeats_a_point(const at::Tensor& x, const at::Tensor& t) {
  const at::Tensor xs = x.cpu().contiguous();
  const at::Tensor ts = t.cpu().contiguous();
  const double* px = xs.data_ptr<double>();
  const double* pt = ts.data_ptr<double>();
  std::vector<std::pair<double, double>> points;
  points.reserve(static_cast<std::size_t>(xs.numel()));
  for (std::int64_t i = 0; i < xs.numel(); ++i) points.emplace_back(px[i], pt[i]);
  std::sort(points.begin(), points.end());
  return std::adjacent_find(points.begin(), points.end()) != points.end();
}

}  // namespace

void validate(const MeasuredExperiment& e, const std::string& source) {
  const std::string where = source + ": experiment '" + e.name + "'";
  for (const auto& [name, values] :
       {std::pair{"x", &e.x}, {"t", &e.t}, {"u", &e.u}, {"sigma", &e.sigma}}) {
    if (!values->defined() && std::string(name) == "sigma") continue;
    require(values->defined() && values->dim() == 1 && values->scalar_type() == at::kDouble, where,
            std::string(name) + " must be a one-dimensional double array");
    require(values->size(0) == e.x.size(0), where,
            std::string(name) + " has " + std::to_string(values->size(0)) + " values, x has " +
                std::to_string(e.x.size(0)));
    require(at::isfinite(*values).all().item<bool>(), where,
            std::string(name) + " holds NaN or Inf");
    require(values->numel() == 0 || values->abs().max().item<double>() <= kLargestMeasurement,
            where,
            std::string(name) + " exceeds 1e150 in magnitude (the leaves' scaling would overflow)");
  }
  require(e.points() >= 2, where, "has " + std::to_string(e.points()) + " points (at least 2)");
  require(!repeats_a_point(e.x, e.t), where,
          "two of its points share (x, t); average or remove the repeats first");
  if (e.sigma.defined())
    require((e.sigma > 0).all().item<bool>(), where, "sigma must be positive at every point");
  const MeasurementWindow& w = e.window;
  require(std::isfinite(w.x_min) && std::isfinite(w.x_max) && w.x_max > w.x_min, where,
          "zero or non-finite extent in x (a leaf needs a window of positive width)");
  require(std::isfinite(w.t_min) && std::isfinite(w.t_max) && w.t_max > w.t_min, where,
          "zero or non-finite extent in t (a leaf needs a window of positive duration)");
  require(inside(e.x, w.x_min, w.x_max) && inside(e.t, w.t_min, w.t_max), where,
          "points lie outside its window [x_min, x_max] x [t_min, t_max]");
}

MeasurementWindow grid_window(const ExperimentSet& set) {
  const int64_t n = set.x.size(0);
  const double x0 = set.x[0].item<double>();
  if (!set.conditions.empty())  // a bounded domain's Chebyshev points: [x_0, x_last]
    return {x0, set.x[n - 1].item<double>(), set.t[0].item<double>(), set.t[-1].item<double>()};
  const double dx = (set.x[n - 1].item<double>() - x0) / static_cast<double>(n - 1);
  return {x0, x0 + dx * static_cast<double>(n), set.t[0].item<double>(), set.t[-1].item<double>()};
}

std::vector<MeasuredExperiment> measured_experiments(const ExperimentSet& set) {
  std::vector<MeasuredExperiment> experiments;
  const MeasurementWindow window = grid_window(set);
  for (std::int64_t e = 0; e < set.sample_u.size(0); ++e)
    experiments.push_back({set.name + "-" + std::to_string(e),
                           set.sample_x[e],
                           set.sample_t[e],
                           set.sample_u[e],
                           {},
                           window,
                           {}});
  return experiments;
}

}  // namespace bhpm::pde
