#pragma once
/// L independent sine MLPs ("leaves", paper section 2.2 and appendix B) held as batched
/// tensors, so one matrix product serves every leaf.
///
/// Leaf i maps a point (x, t) of its domain box [x_min, x_max] x [t_min, t_max] to
///   x^ = 2 (x - x_min) / (x_max - x_min) - 1,  t^ = 2 (t - t_min) / (t_max - t_min) - 1,
///   h_1 = sin(omega_0 (W_1 [x^, t^] + b_1)),
///   h_l = sin(omega_h (W_l h_{l-1} + b_l)),  l = 2..H   (H = hidden_layers),
///   u   = W_{H+1} h_H + b_{H+1},
/// with W_l [in, out] and b_l [1, out] stored for all leaves at once as weight_l
/// [L, in, out] and bias_l [L, 1, out] (parameters "weight_0", "bias_0", ...,
/// "weight_H", "bias_H"; in = 2 for l = 0 and width elsewhere, out = 1 for the last).
/// A leaf of a system of fields on a 2-D box (docs/systems.md) maps (x, y, t) the same way,
/// y^ = 2 (y - y_min) / (y_max - y_min) - 1, to q outputs: in = 3 for l = 0
/// (space_dimensions = 2), out = q for the last (outputs = q).
///
/// Initialisation "siren" (Sitzmann et al. 2020, "Implicit neural representations with
/// periodic activation functions", section 3.2): W_1 ~ U(-1/in, 1/in);
/// W_l ~ U(-sqrt(6/in)/omega_h, sqrt(6/in)/omega_h) for l >= 2 (the last layer included),
/// so omega_h W_l ~ U(-sqrt(6/in), sqrt(6/in)) and every pre-activation stays of order
/// one whatever omega_h; biases ~ U(-1/sqrt(in), 1/sqrt(in)) (PyTorch's nn.Linear
/// default, which SIREN keeps). "glorot": W_l ~ U(-a, a), a = sqrt(6/(in + out)), zero
/// biases: a plain sine network as in the paper's JAX code.
///
/// Why first_omega = 3 and not SIREN's 30: the first layer's angular frequencies along
/// x^ are omega_0 w with |w| <= 1/2, so a first-layer feature makes at most
/// omega_0 / (2 pi) periods across the box. SIREN's 30 (built for images with hundreds of
/// pixels of detail) starts with u_xxx far larger than u, and the fitted leaf keeps
/// oscillations between the measurements that ruin the derivatives the root learns from.
/// Our fields are smooth PDE solutions whose finest features (Burgers fronts, KdV
/// solitons) the network reaches through its depth. bench/leaf_omega compares omega_0 =
/// 1, 3, 10 and 30 on Burgers and KdV (docs/training.md, "Leaves: the first layer's
/// frequency scale"): 3 is the best compromise on both. A dataset with finer features can
/// raise omega_0.
///
/// Precision: the parameters, the input map and the output layer are double; the hidden
/// layers' products and sines run in `precision` ("float64" or "float32"), their inputs
/// and weights cast to it and their last streams cast back to double. The casts are
/// differentiable, so an optimiser updates double parameters with gradients computed in
/// that precision (mixed precision). float32 halves a leaf step on the CPU (twice the
/// SIMD lanes for the matrix products and the sines); its relative rounding, about 1e-7,
/// is far below the leaves' noise scales and the root's (docs/training.md, "Leaves:
/// precision").
///
/// Weights are deterministic: leaf i draws from util::Rng(derive_seed(seed, "sine_mlp",
/// i)), so leaf i has the same weights whatever the number of leaves.

#include <torch/nn/cloneable.h>
#include <torch/nn/pimpl.h>

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace bhpm::nn {

struct SineMlpOptions {
  std::int64_t leaves = 1;               ///< L (>= 1): independent networks
  std::int64_t space_dimensions = 1;     ///< 1: inputs (x, t); 2: inputs (x, y, t)
  std::int64_t outputs = 1;              ///< q (>= 1): fields per leaf
  std::int64_t hidden_layers = 6;        ///< H (>= 1): sine layers
  std::int64_t width = 64;               ///< units per hidden layer (>= 1)
  double first_omega = 3.0;              ///< omega_0 (> 0, finite): first-layer frequency scale
  double hidden_omega = 1.0;             ///< omega_h (> 0, finite): later layers' scale
  std::string initialization = "siren";  ///< one of initialization_names()
  std::string precision = "float32";  ///< one of precision_names(): the hidden layers' arithmetic
  std::uint64_t seed = 0;             ///< weights of leaf i come from derive_seed(seed, ., i)
};

/// Throws util::OptionError naming the field, its value and the rule it breaks.
void validate(const SineMlpOptions& options);

/// The initialisation schemes: "siren" (Sitzmann et al. 2020) and "glorot".
const std::vector<std::string>& initialization_names();

/// The hidden layers' arithmetic: "float32" and "float64".
const std::vector<std::string>& precision_names();

/// The domain box [x_min, x_max] x [t_min, t_max] of one leaf (max > min, finite), and
/// [y_min, y_max] for a leaf in two space dimensions.
struct DomainBox {
  double x_min = -1.0, x_max = 1.0, t_min = -1.0, t_max = 1.0;
  double y_min = -1.0, y_max = 1.0;
};

/// Inputs of L leaves mapped to [-1, 1]: x^, t^ (and y^ in 2-D) [L, P] and the chain-rule
/// factors dx^/dx = 2 / (x_max - x_min), dt^/dt = 2 / (t_max - t_min) (dy^/dy) as [L, 1];
/// y and dy_scale undefined in one dimension.
struct UnitBoxInputs {
  at::Tensor x, t;
  at::Tensor dx_scale, dt_scale;
  at::Tensor y, dy_scale;
};

/// One layer's affine map as the forward pass applies it: (omega W, omega b) with omega
/// the layer's frequency scale (1 for the output layer); [L, in, out] and [L, 1, out].
struct AffineLayer {
  at::Tensor weight, bias;
};

class SineMlpImpl : public torch::nn::Cloneable<SineMlpImpl> {
 public:
  /// Validates `options` and draws the weights.
  explicit SineMlpImpl(const SineMlpOptions& options = {});

  /// Draws every parameter from options().seed (the same values each time); registers
  /// them the first time (and in clone()), later overwrites the registered tensors.
  void reset() override;

  /// u [L, P] at x, t [L, P] (double), leaf i on boxes[i], for a network of one space
  /// dimension and one output. Value only: for predictions, and differentiable through
  /// autograd (the nested-autograd reference uses it).
  at::Tensor forward(const at::Tensor& x, const at::Tensor& t,
                     const std::vector<DomainBox>& boxes) const;

  /// Every output [L, P, q] at x, y, t [L, P] (double; y undefined in one dimension).
  at::Tensor forward_fields(const at::Tensor& x, const at::Tensor& y, const at::Tensor& t,
                            const std::vector<DomainBox>& boxes) const;

  /// x^, t^ and the chain-rule factors; throws std::invalid_argument unless x and t are
  /// double [L, P] of the same shape with L = options().leaves and boxes.size() == L
  /// with finite boxes of positive extent, and the network has one space dimension.
  UnitBoxInputs map_to_unit_box(const at::Tensor& x, const at::Tensor& t,
                                const std::vector<DomainBox>& boxes) const;
  /// The same with y (defined exactly when options().space_dimensions = 2).
  UnitBoxInputs map_to_unit_box(const at::Tensor& x, const at::Tensor& y, const at::Tensor& t,
                                const std::vector<DomainBox>& boxes) const;

  /// The H + 1 affine maps (omega_0 W_1, omega_0 b_1), (omega_h W_l, omega_h b_l),
  /// (W_{H+1}, b_{H+1}), built from the parameters (differentiable).
  std::vector<AffineLayer> scaled_layers() const;

  /// The scalar type of the hidden layers' arithmetic (options().precision).
  at::ScalarType hidden_type() const;

  const SineMlpOptions& options() const { return options_; }
  /// weight_l [L, in, out] and bias_l [L, 1, out], l = 0..H (the registered parameters).
  const std::vector<at::Tensor>& weights() const { return weights_; }
  const std::vector<at::Tensor>& biases() const { return biases_; }

  void pretty_print(std::ostream& stream) const override;

 private:
  /// Registers `name` with `value`, or sets the data of the parameter already there.
  at::Tensor set_parameter(const std::string& name, const at::Tensor& value);

  SineMlpOptions options_;
  std::vector<at::Tensor> weights_;
  std::vector<at::Tensor> biases_;
};

TORCH_MODULE(SineMlp);

}  // namespace bhpm::nn
