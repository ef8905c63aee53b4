#include "nn/sine_mlp.h"

#include <ATen/ATen.h>

#include <cmath>
#include <ostream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

#include "util/name_list.h"
#include "util/number_format.h"
#include "util/option_check.h"
#include "util/random.h"

namespace bhpm::nn {

namespace {

const auto kReal = at::TensorOptions().dtype(at::kDouble);

/// Bounds of the uniform initial weights and biases of layer `layer` (0-based).
struct UniformBounds {
  double weight, bias;
};

/// SIREN's scheme (Sitzmann et al. 2020): first layer U(+-1/in), later layers
/// U(+-sqrt(6/in)/omega_h); biases U(+-1/sqrt(in)).
UniformBounds siren_bounds(const SineMlpOptions& o, std::int64_t layer, double in, double) {
  const double hidden = std::sqrt(6.0 / in) / o.hidden_omega;
  return {layer == 0 ? 1.0 / in : hidden, 1.0 / std::sqrt(in)};
}

/// Glorot's uniform scheme: U(+-sqrt(6/(in + out))), zero biases.
UniformBounds glorot_bounds(const SineMlpOptions&, std::int64_t, double in, double out) {
  return {std::sqrt(6.0 / (in + out)), 0.0};
}

using BoundsRule = UniformBounds (*)(const SineMlpOptions&, std::int64_t, double, double);

/// The initialisation schemes, by name: the one table initialization_names() lists.
const util::NameTable<BoundsRule>& initialization_table() {
  static const util::NameTable<BoundsRule> table = {{"siren", siren_bounds},
                                                    {"glorot", glorot_bounds}};
  return table;
}

/// Inputs of layer `layer`: the coordinates (space and t) for the first, else width.
std::int64_t layer_inputs(const SineMlpOptions& o, std::int64_t layer) {
  return layer == 0 ? o.space_dimensions + 1 : o.width;
}

/// Outputs of layer `layer`: the fields for the last, else width.
std::int64_t layer_outputs(const SineMlpOptions& o, std::int64_t layer) {
  return layer == o.hidden_layers ? o.outputs : o.width;
}

UniformBounds initial_bounds(const SineMlpOptions& o, std::int64_t layer) {
  const double in = static_cast<double>(layer_inputs(o, layer));
  const double out = static_cast<double>(layer_outputs(o, layer));
  const BoundsRule rule =
      util::find_listed(initialization_table(), o.initialization, "sine MLP", "initialization");
  return rule(o, layer, in, out);
}

/// Fills `count` values of U(-bound, bound) into `values` from `rng`.
void append_uniform(util::Rng& rng, double bound, std::int64_t count, std::vector<double>& values) {
  for (std::int64_t i = 0; i < count; ++i) values.push_back(bound * (2.0 * rng.uniform() - 1.0));
}

/// A box's extent along one coordinate: its name and its bounds.
struct BoxAxis {
  const char* name;
  double DomainBox::*min;
  double DomainBox::*max;
};
constexpr BoxAxis kAxisX{"x", &DomainBox::x_min, &DomainBox::x_max};
constexpr BoxAxis kAxisY{"y", &DomainBox::y_min, &DomainBox::y_max};
constexpr BoxAxis kAxisT{"t", &DomainBox::t_min, &DomainBox::t_max};

at::Tensor check_box_extent(const std::vector<DomainBox>& boxes, const BoxAxis& axis) {
  std::vector<double> scale;
  const std::string name(axis.name);
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    const double lo = boxes[i].*axis.min, hi = boxes[i].*axis.max;
    if (!(std::isfinite(lo) && std::isfinite(hi) && hi > lo))
      throw std::invalid_argument("sine MLP: boxes[" + std::to_string(i) + "]." + name +
                                  "_max must be finite and > " + name + "_min (got [" +
                                  util::format_significant(lo, 6) + ", " +
                                  util::format_significant(hi, 6) + "])");
    scale.push_back(2.0 / (hi - lo));
  }
  return at::tensor(scale, kReal);
}

at::Tensor box_lower_corner(const std::vector<DomainBox>& boxes, const BoxAxis& axis) {
  std::vector<double> lower;
  for (const DomainBox& box : boxes) lower.push_back(box.*axis.min);
  return at::tensor(lower, kReal);
}

/// The coordinate mapped to [-1, 1] [L, P] and its chain-rule factor [L, 1].
std::pair<at::Tensor, at::Tensor> to_unit_interval(const at::Tensor& values,
                                                   const std::vector<DomainBox>& boxes,
                                                   const BoxAxis& axis) {
  const std::int64_t leaves = static_cast<std::int64_t>(boxes.size());
  const at::Tensor scale = check_box_extent(boxes, axis).to(values.device()).view({leaves, 1});
  const at::Tensor lower = box_lower_corner(boxes, axis).to(values.device()).view({leaves, 1});
  return {(values - lower) * scale - 1.0, scale};
}

std::string shape_text(const at::Tensor& tensor) {
  std::string text = "[";
  for (std::int64_t d = 0; d < tensor.dim(); ++d)
    text += (d ? ", " : "") + std::to_string(tensor.size(d));
  return text + "]";
}

/// The hidden layers' arithmetic, by name: the one table precision_names() lists.
const util::NameTable<at::ScalarType>& precision_table() {
  static const util::NameTable<at::ScalarType> table = {{"float32", at::kFloat},
                                                        {"float64", at::kDouble}};
  return table;
}

}  // namespace

void validate(const SineMlpOptions& options) {
  const std::string owner = "sine MLP";
  util::require_at_least(options.leaves, 1, owner, "leaves");
  util::require_option(options.space_dimensions == 1 || options.space_dimensions == 2, owner,
                       "space_dimensions", "must be 1 or 2",
                       util::option_value(options.space_dimensions));
  util::require_at_least(options.outputs, 1, owner, "outputs");
  util::require_at_least(options.hidden_layers, 1, owner, "hidden_layers");
  util::require_at_least(options.width, 1, owner, "width");
  util::require_positive(options.first_omega, owner, "first_omega");
  util::require_positive(options.hidden_omega, owner, "hidden_omega");
  util::require_listed(options.initialization, initialization_names(), owner, "initialization");
  util::require_listed(options.precision, precision_names(), owner, "precision");
}

const std::vector<std::string>& initialization_names() {
  static const std::vector<std::string> names = util::names_of(initialization_table());
  return names;
}

const std::vector<std::string>& precision_names() {
  static const std::vector<std::string> names = util::names_of(precision_table());
  return names;
}

at::ScalarType SineMlpImpl::hidden_type() const {
  return util::find_listed(precision_table(), options_.precision, "sine MLP", "precision");
}

SineMlpImpl::SineMlpImpl(const SineMlpOptions& options) : options_(options) {
  validate(options_);
  reset();
}

void SineMlpImpl::reset() {
  const SineMlpOptions& o = options_;
  const std::int64_t layers = o.hidden_layers + 1;
  // Per leaf, layer by layer: the weights [in, out], then the biases [out].
  std::vector<std::vector<double>> weights(layers), biases(layers);
  for (std::int64_t leaf = 0; leaf < o.leaves; ++leaf) {
    util::Rng rng(util::derive_seed(o.seed, "sine_mlp", static_cast<std::uint64_t>(leaf)));
    for (std::int64_t l = 0; l < layers; ++l) {
      const std::int64_t in = layer_inputs(o, l), out = layer_outputs(o, l);
      const UniformBounds bounds = initial_bounds(o, l);
      append_uniform(rng, bounds.weight, in * out, weights[l]);
      append_uniform(rng, bounds.bias, out, biases[l]);
    }
  }
  weights_.clear();
  biases_.clear();
  for (std::int64_t l = 0; l < layers; ++l) {
    const std::int64_t in = layer_inputs(o, l), out = layer_outputs(o, l);
    weights_.push_back(set_parameter("weight_" + std::to_string(l),
                                     at::tensor(weights[l], kReal).view({o.leaves, in, out})));
    biases_.push_back(set_parameter("bias_" + std::to_string(l),
                                    at::tensor(biases[l], kReal).view({o.leaves, 1, out})));
  }
}

at::Tensor SineMlpImpl::set_parameter(const std::string& name, const at::Tensor& value) {
  // A second reset() keeps the registered tensors (an optimiser may hold them).
  if (at::Tensor* existing = parameters_.find(name)) {
    existing->set_data(value);
    return *existing;
  }
  return register_parameter(name, value);
}

UnitBoxInputs SineMlpImpl::map_to_unit_box(const at::Tensor& x, const at::Tensor& t,
                                           const std::vector<DomainBox>& boxes) const {
  return map_to_unit_box(x, at::Tensor(), t, boxes);
}

UnitBoxInputs SineMlpImpl::map_to_unit_box(const at::Tensor& x, const at::Tensor& y,
                                           const at::Tensor& t,
                                           const std::vector<DomainBox>& boxes) const {
  const std::int64_t leaves = options_.leaves;
  const bool two = options_.space_dimensions == 2;
  if (y.defined() != two)
    throw std::invalid_argument(
        std::string("sine MLP: a network of ") +
        (two ? "two space dimensions needs y" : "one space dimension takes no y"));
  const bool same = x.sizes().equals(t.sizes()) && (!two || y.sizes().equals(x.sizes()));
  if (x.dim() != 2 || x.size(0) != leaves || !same)
    throw std::invalid_argument(
        "sine MLP: x" + std::string(two ? ", y" : "") +
        " and t must all have shape [L, P] with L = leaves = " + std::to_string(leaves) +
        " (got x " + shape_text(x) + ", t " + shape_text(t) + ")");
  if (x.scalar_type() != at::kDouble || t.scalar_type() != at::kDouble ||
      (two && y.scalar_type() != at::kDouble))
    throw std::invalid_argument("sine MLP: coordinates must be double tensors");
  if (static_cast<std::int64_t>(boxes.size()) != leaves)
    throw std::invalid_argument("sine MLP: boxes must hold one box per leaf (got " +
                                std::to_string(boxes.size()) + " for " + std::to_string(leaves) +
                                " leaves)");
  UnitBoxInputs in;
  std::tie(in.x, in.dx_scale) = to_unit_interval(x, boxes, kAxisX);
  std::tie(in.t, in.dt_scale) = to_unit_interval(t, boxes, kAxisT);
  if (two) std::tie(in.y, in.dy_scale) = to_unit_interval(y, boxes, kAxisY);
  return in;
}

std::vector<AffineLayer> SineMlpImpl::scaled_layers() const {
  std::vector<AffineLayer> layers;
  for (std::size_t l = 0; l < weights_.size(); ++l) {
    const double omega = l == 0                     ? options_.first_omega
                         : l + 1 == weights_.size() ? 1.0
                                                    : options_.hidden_omega;
    if (omega == 1.0)
      layers.push_back({weights_[l], biases_[l]});
    else
      layers.push_back({weights_[l] * omega, biases_[l] * omega});
  }
  return layers;
}

at::Tensor SineMlpImpl::forward(const at::Tensor& x, const at::Tensor& t,
                                const std::vector<DomainBox>& boxes) const {
  if (options_.outputs != 1)
    throw std::invalid_argument("sine MLP: forward gives one output; use forward_fields");
  return forward_fields(x, at::Tensor(), t, boxes).squeeze(-1);
}

at::Tensor SineMlpImpl::forward_fields(const at::Tensor& x, const at::Tensor& y,
                                       const at::Tensor& t,
                                       const std::vector<DomainBox>& boxes) const {
  const UnitBoxInputs in = map_to_unit_box(x, y, t, boxes);
  const std::vector<AffineLayer> layers = scaled_layers();
  const at::ScalarType hidden = hidden_type();
  const std::vector<at::Tensor> coordinates = in.y.defined()
                                                  ? std::vector<at::Tensor>{in.x, in.y, in.t}
                                                  : std::vector<at::Tensor>{in.x, in.t};
  at::Tensor h = at::stack(coordinates, -1).to(hidden);  // [L, P, space + 1]
  for (std::size_t l = 0; l + 1 < layers.size(); ++l)
    h = at::sin(at::baddbmm(layers[l].bias.to(hidden), h, layers[l].weight.to(hidden)));
  return at::baddbmm(layers.back().bias, h.to(at::kDouble), layers.back().weight);
}

void SineMlpImpl::pretty_print(std::ostream& stream) const {
  stream << "bhpm::nn::SineMlp(leaves=" << options_.leaves
         << ", space_dimensions=" << options_.space_dimensions << ", outputs=" << options_.outputs
         << ", hidden_layers=" << options_.hidden_layers << ", width=" << options_.width
         << ", first_omega=" << options_.first_omega << ", hidden_omega=" << options_.hidden_omega
         << ", initialization=" << options_.initialization << ", precision=" << options_.precision
         << ", seed=" << options_.seed << ")";
}

}  // namespace bhpm::nn
