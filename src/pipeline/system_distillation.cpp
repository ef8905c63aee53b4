#include "pipeline/system_distillation.h"

#include <ATen/ATen.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <stdexcept>

#include "eval/distillation_file.h"
#include "eval/system_weak_form.h"
#include "gp/cholesky.h"
#include "nn/taylor_forward.h"
#include "pde/pointwise_right_hand_side.h"
#include "pde/term_library.h"
#include "util/random.h"

namespace bhpm::pipeline {

namespace {

/// S joint samples [S, N] of root i's f at its training rows, with the mean and variance.
eval::DistillationInputs posterior_samples(const gp::ExactGpImpl& root, const at::Tensor& rows,
                                           std::int64_t samples, std::uint64_t seed) {
  const at::NoGradGuard no_grad;
  const gp::MultivariateNormal f = root.posterior(rows);
  const gp::CholeskyFactor factor =
      gp::robust_cholesky(f.covariance, "the posterior covariance of f at the root rows");
  util::Rng rng(seed);
  const at::Tensor z = util::normal_tensor(rng, {rows.size(0), samples});
  eval::DistillationInputs inputs;
  inputs.inputs = rows;
  inputs.samples = (f.mean.unsqueeze(1) + at::mm(factor.lower, z)).t().contiguous();
  inputs.mean = f.mean;
  inputs.variance = f.covariance.diagonal().clamp_min(0.0);
  return inputs;
}

/// The true f_i at the rows, undefined where the system reads a partial the rows lack or
/// its equations are unknown.
at::Tensor truth_at(const pde::FieldSystem& system, std::int64_t field, int order,
                    const at::Tensor& rows) {
  if (!system.has_equations()) return at::Tensor();
  const at::Tensor v = rows.contiguous();
  const std::vector<double> values(v.data_ptr<double>(), v.data_ptr<double>() + v.numel());
  try {
    return at::tensor(
        pde::right_hand_side_at(system, field, system.expression_partials(order), values),
        at::kDouble);
  } catch (const std::invalid_argument&) {
    return at::Tensor();
  }
}

std::vector<std::string> input_names(const pde::FieldSystem& system, int order) {
  std::vector<std::string> names;
  for (const pde::Partial& p : system.expression_partials(order))
    names.push_back(system.name_of(p));
  return names;
}

/// Where the equation is fitted: distill.max_points points drawn uniformly in the leaves'
/// boxes (the same number from each; a simulated experiment's measurements cover its box
/// uniformly), as root rows of the leaves; the root's own rows for max_points = 0.
model::SystemRootData distillation_points(const TrainedSystem& trained) {
  const config::SystemConfig& config = trained.config;
  const std::int64_t count = config.learning.distill.max_points;
  if (count == 0) return trained.rows;
  const std::int64_t leaves = static_cast<std::int64_t>(trained.boxes.size());
  const std::int64_t per_leaf = (count + leaves - 1) / leaves;
  util::Rng rng(util::derive_seed(config.sets.seed, "system_distill_points", 0));
  const auto uniform = [&](double low, double high) {
    return low + (high - low) * util::uniform_tensor(rng, {per_leaf});
  };
  std::vector<at::Tensor> x, y, t;
  for (const nn::DomainBox& box : trained.boxes) {
    x.push_back(uniform(box.x_min, box.x_max));
    y.push_back(uniform(box.y_min, box.y_max));
    t.push_back(uniform(box.t_min, box.t_max));
  }
  model::SystemLeafData points;
  points.x = at::stack(x);
  points.y = config.system.dimensions == 2 ? at::stack(y) : at::Tensor();
  points.t = at::stack(t);
  points.boxes = trained.boxes;
  return system_root_rows(*trained.leaves, points, config.learning.order, count, 0);
}

/// Leaf points per Taylor-mode pass when the leaves are read on grids: whole times at a
/// time, so that a plane's n^2 points per time bound the pass's memory, not n^2 T.
constexpr std::int64_t kGridChunkPoints = std::int64_t{1} << 15;

/// Each leaf's empty grids over its box: n points along x (and along y on a plane), nt in t.
std::vector<eval::SystemGridFields> leaf_grids(const TrainedSystem& trained, std::int64_t n,
                                               std::int64_t nt) {
  std::vector<eval::SystemGridFields> experiments;
  for (const nn::DomainBox& box : trained.boxes) {
    eval::SystemGridFields e;
    e.grids.x = at::linspace(box.x_min, box.x_max, n, at::kDouble);
    e.grids.t = at::linspace(box.t_min, box.t_max, nt, at::kDouble);
    if (trained.config.system.dimensions == 2)
      e.grids.y = at::linspace(box.y_min, box.y_max, n, at::kDouble);
    experiments.push_back(e);
  }
  return experiments;
}

/// The leaves' u, slopes and u_t at times [first, last) of their grids, appended per field
/// to each experiment's pieces ([last - first, n] or [last - first, n, n] each).
void read_grid_times(const TrainedSystem& trained, std::vector<eval::SystemGridFields>& pieces,
                     std::int64_t first, std::int64_t last) {
  std::vector<at::Tensor> xs, ys, ts;
  for (const eval::SystemGridFields& e : pieces) {
    const at::Tensor times = e.grids.t.slice(0, first, last);
    const bool plane = e.grids.y.defined();
    const std::vector<at::Tensor> mesh = plane ? at::meshgrid({times, e.grids.y, e.grids.x}, "ij")
                                               : at::meshgrid({times, e.grids.x}, "ij");
    ts.push_back(mesh[0].reshape({-1}));
    if (plane) ys.push_back(mesh[1].reshape({-1}));
    xs.push_back(mesh.back().reshape({-1}));
  }
  const at::NoGradGuard no_grad;
  const nn::LeafPartials p = nn::taylor_partials(trained.leaves->network(), at::stack(xs),
                                                 ys.empty() ? at::Tensor() : at::stack(ys),
                                                 at::stack(ts), trained.boxes, 1);
  for (std::size_t e = 0; e < pieces.size(); ++e) {
    eval::SystemGridFields& piece = pieces[e];
    std::vector<std::int64_t> shape{last - first};
    if (piece.grids.y.defined()) shape.push_back(piece.grids.y.size(0));
    shape.push_back(piece.grids.x.size(0));
    const auto grid = [&](const at::Tensor& values, std::int64_t k) {  // [L, P, q] -> shape
      return values.select(0, static_cast<std::int64_t>(e)).select(1, k).reshape(shape);
    };
    for (std::int64_t k = 0; k < p.u_t.size(2); ++k) {
      piece.u.push_back(grid(p.values[0], k));
      piece.u_x.push_back(grid(p.values[1], k));
      if (piece.grids.y.defined()) piece.u_y.push_back(grid(p.values[2], k));
      piece.u_t.push_back(grid(p.u_t, k));
    }
  }
}

/// Each field's chunks joined along time: pieces[c q + k] of every chunk c for field k; [q].
std::vector<at::Tensor> joined(const std::vector<at::Tensor>& pieces, std::size_t q) {
  std::vector<at::Tensor> fields;
  for (std::size_t k = 0; k < q; ++k) {
    std::vector<at::Tensor> chunks;
    for (std::size_t c = k; c < pieces.size(); c += q) chunks.push_back(pieces[c]);
    fields.push_back(at::cat(chunks, 0));
  }
  return fields;
}

/// Each leaf's fields, slopes and rates on its grids (leaf_grids), read in chunks of whole
/// times of at most kGridChunkPoints points each.
std::vector<eval::SystemGridFields> leaf_grid_fields(const TrainedSystem& trained, std::int64_t n,
                                                     std::int64_t nt) {
  std::vector<eval::SystemGridFields> experiments = leaf_grids(trained, n, nt);
  const std::int64_t per_time = trained.config.system.dimensions == 2 ? n * n : n;
  const std::int64_t step = std::max<std::int64_t>(1, kGridChunkPoints / per_time);
  for (std::int64_t first = 0; first < nt; first += step)
    read_grid_times(trained, experiments, first, std::min(nt, first + step));
  const std::size_t q = trained.config.system.fields.size();
  for (eval::SystemGridFields& e : experiments) {
    e.u = joined(e.u, q);
    e.u_x = joined(e.u_x, q);
    if (!e.u_y.empty()) e.u_y = joined(e.u_y, q);
    e.u_t = joined(e.u_t, q);
  }
  return experiments;
}

/// Each field's weak form into `result`, or why there is none; the true coefficients from
/// the true operator's values `truths` [q] of [P] at the root inputs `v` [P, D].
void add_weak_form(const TrainedSystem& trained, const at::Tensor& v,
                   const std::vector<at::Tensor>& truths, SystemDistillation& result) {
  const config::SystemConfig& config = trained.config;
  const config::DistillConfig& settings = config.learning.distill;
  eval::WeakFormOptions options = settings.weak;
  options.regression.seed = util::derive_seed(config.sets.seed, "system_weak_form", 0);
  const auto fits = eval::fit_system_weak_form(
      leaf_grid_fields(trained, settings.weak_x_points, settings.weak_t_points),
      config.system.fields, config.learning.order, settings.degree, options, result.weak_missing);
  if (!fits) return;
  const std::vector<eval::ProductWeakTerm> library = eval::system_weak_library(
      config.system.fields, config.learning.order, settings.degree, config.system.dimensions);
  for (std::size_t i = 0; i < fits->size(); ++i) {
    result.fields[i].weak = (*fits)[i];
    eval::attach_system_truth(*result.fields[i].weak, library, config.system.fields,
                              input_names(config.system, config.learning.order), v, truths[i]);
  }
}

}  // namespace

SystemDistillation distill_system(const TrainedSystem& trained) {
  const config::SystemConfig& config = trained.config;
  const config::DistillConfig& settings = config.learning.distill;
  const int order = config.learning.order;
  const pde::TermLibrary library =
      pde::make_term_library(input_names(config.system, order), settings.degree);
  const std::int64_t experiments = static_cast<std::int64_t>(trained.boxes.size());
  eval::DistillOptions options = settings.options;
  options.regression.resample_folds = settings.resample_experiments && experiments >= 2;
  const model::SystemRootData points = distillation_points(trained);
  SystemDistillation result;
  std::vector<at::Tensor> truths;
  for (std::size_t i = 0; i < trained.roots.size(); ++i) {
    const auto field = static_cast<std::int64_t>(i);
    eval::DistillationInputs inputs =
        posterior_samples(*trained.roots[i], points.inputs, settings.samples,
                          util::derive_seed(config.sets.seed, "system_distill_samples", i));
    inputs.fold = points.leaf;
    inputs.truth = truth_at(config.system, field, order, points.inputs);
    truths.push_back(inputs.truth);
    options.regression.seed = util::derive_seed(config.sets.seed, "system_distill_folds", i);
    eval::Distillation distillation = eval::distill_operator(inputs, library, options);
    distillation.left_hand_side = config.system.fields[i] + "_t";
    result.fields.push_back({config.system.fields[i], std::move(distillation), std::nullopt});
  }
  if (settings.weak_form) add_weak_form(trained, points.inputs, truths, result);
  return result;
}

std::string system_distillation_json(const TrainedSystem& trained,
                                     const SystemDistillation& distillation,
                                     const std::string& run_dir) {
  const config::SystemConfig& config = trained.config;
  eval::DistillationSettings settings;
  settings.run_dir = run_dir;
  settings.sampler = "exact posterior at the root rows";
  settings.samples = config.learning.distill.samples;
  const std::int64_t max_points = config.learning.distill.max_points;
  settings.points = max_points > 0 ? max_points : trained.rows.inputs.size(0);
  settings.folds = static_cast<std::int64_t>(trained.boxes.size());
  settings.resampled = config.learning.distill.resample_experiments && settings.folds >= 2;
  settings.seed = config.sets.seed;
  settings.config = config.resolved_toml;  // each field's object stands alone, as one field's file
  nlohmann::ordered_json file = {{"format", "bhpm-system-distill"},
                                 {"format_version", 1},
                                 {"system", config.system.describe()},
                                 {"config", config.resolved_toml}};
  if (config.learning.distill.weak_form) {
    settings.weak_x_points = config.learning.distill.weak_x_points;
    settings.weak_t_points = config.learning.distill.weak_t_points;
  }
  for (const FieldDistillation& f : distillation.fields)
    file["fields"][f.field] = nlohmann::json::parse(
        eval::distillation_json(f.distillation, settings, f.weak ? &*f.weak : nullptr));
  return file.dump(2) + "\n";
}

}  // namespace bhpm::pipeline
