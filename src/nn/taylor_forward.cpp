#include "nn/taylor_forward.h"

#include <ATen/ATen.h>
#include <torch/csrc/autograd/autograd.h>
#include <torch/csrc/autograd/custom_function.h>

#include <stdexcept>
#include <string>

#include "nn/faa_di_bruno.h"
#include "nn/sine_mlp.h"

namespace bhpm::nn {

namespace {

void check_order(int order) {
  if (order < 0 || order > kMaxOrder)
    throw std::invalid_argument("Taylor forward: derivative order K must be in [0, " +
                                std::to_string(kMaxOrder) + "] (got K = " + std::to_string(order) +
                                ")");
}

const FaaDiBrunoTable& sine_table() {
  static const FaaDiBrunoTable table(kMaxOrder);
  return table;
}

/// (sin z, cos z) with a backward that reuses them, dL/dz = g_s c - g_c s (at::sin and
/// at::cos would each evaluate the other function again in their backward).
struct SinCosFunction : torch::autograd::Function<SinCosFunction> {
  static torch::autograd::variable_list forward(torch::autograd::AutogradContext* context,
                                                const at::Tensor& z) {
    at::Tensor s = at::sin(z), c = at::cos(z);
    context->save_for_backward({s, c});
    return {s, c};
  }
  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* context,
                                                 torch::autograd::variable_list grads) {
    const auto saved = context->get_saved_variables();  // unused outputs get zero grads
    return {at::addcmul(grads[0] * saved[1], grads[1], saved[0], -1.0)};
  }
};

/// sin^(n)(z) = +-sin z or +-cos z: (use cos, sign) for n = 0, 1, 2, 3 (mod 4).
bool derivative_uses_cos(int n) { return n % 2 == 1; }
double derivative_sign(int n) { return (n % 4 == 0 || n % 4 == 1) ? 1.0 : -1.0; }

/// Streams [L, S, P, width] after the first sine layer. The pre-activation is affine in
/// (x, t): z_x = a_x W_x [L, 1, width] and z_t = a_t W_t are constants, so
/// d^n sin(z)/dx^n = sin^(n)(z) z_x^n and d sin(z)/dt = cos(z) z_t.
at::Tensor first_layer_streams(const AffineLayer& layer, const UnitBoxInputs& in, int order) {
  const auto sin_cos =
      SinCosFunction::apply(at::baddbmm(layer.bias, at::stack({in.x, in.t}, -1), layer.weight));
  const at::Tensor &s = sin_cos[0], &c = sin_cos[1];
  const at::Tensor z_x = layer.weight.narrow(1, 0, 1) * in.dx_scale.unsqueeze(-1);
  const at::Tensor z_t = layer.weight.narrow(1, 1, 1) * in.dt_scale.unsqueeze(-1);
  std::vector<at::Tensor> streams{s};
  at::Tensor z_x_power = z_x;  // z_x^n [L, 1, width]: cheap, P times smaller than z
  for (int n = 1; n <= order; ++n) {
    streams.push_back((derivative_uses_cos(n) ? c : s) * (derivative_sign(n) * z_x_power));
    if (n < order) z_x_power = z_x_power * z_x;
  }
  streams.push_back(c * z_t);
  return at::stack(streams, 1);
}

/// Streams n = 1..K of a list of S = K + 2 stream tensors.
std::vector<at::Tensor> x_streams(const std::vector<at::Tensor>& streams) {
  return {streams.begin() + 1, streams.end() - 1};
}

/// The sine of a hidden layer on all streams at once: z [L, S, P, W] (the batched
/// product, bias not yet added), bias [L, 1, W] -> y [L, S, P, W] with y_0 = sin(z_0 + b),
/// y_n from Faa di Bruno's formula and y_t = cos(z_0 + b) z_t. Both passes write their
/// streams straight into one tensor (FaaDiBrunoTable's _into and _backward functions), so
/// nothing is stacked, unbound or accumulated by autograd stream by stream. Supports one
/// backward (first derivatives of a loss), not differentiation of that backward.
struct SineJetFunction : torch::autograd::Function<SineJetFunction> {
  static torch::autograd::variable_list forward(torch::autograd::AutogradContext* context,
                                                const at::Tensor& z, const at::Tensor& bias) {
    at::Tensor y = at::empty_like(z);
    const std::vector<at::Tensor> z_streams = z.unbind(1), y_streams = y.unbind(1);
    const at::Tensor value = z_streams.front() + bias;
    at::Tensor s = y_streams.front();
    at::sin_out(s, value);
    const at::Tensor c = at::cos(value);
    sine_table().sine_derivatives_into(s, c, x_streams(z_streams), x_streams(y_streams));
    at::Tensor y_t = y_streams.back();
    at::mul_out(y_t, c, z_streams.back());
    context->save_for_backward({z, y, c});
    return {y};
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* context,
                                                 torch::autograd::variable_list grads) {
    const auto saved = context->get_saved_variables();
    const at::Tensor &z = saved[0], &y = saved[1], &c = saved[2];
    const at::Tensor g = grads[0].contiguous();
    at::Tensor g_z = at::empty_like(z);
    const std::vector<at::Tensor> z_streams = z.unbind(1), g_streams = g.unbind(1),
                                  g_z_streams = g_z.unbind(1);
    const at::Tensor s = y.select(1, 0);
    at::Tensor g_value = g_z_streams.front(), g_t = g_z_streams.back();
    at::mul_out(g_value, g_streams.front(), c);                      // d sin z / dz
    g_value.addcmul_(g_streams.back(), s * z_streams.back(), -1.0);  // d (cos z z_t) / dz
    at::mul_out(g_t, g_streams.back(), c);                           // d (cos z z_t) / dz_t
    sine_table().sine_derivatives_backward(s, c, x_streams(z_streams), x_streams(g_streams),
                                           g_value, x_streams(g_z_streams));
    return {g_z, g_value.sum(1, /*keepdim=*/true)};
  }
};

/// One batched product W over all S streams, then the sine on every stream (the bias
/// goes to the value stream only).
at::Tensor hidden_layer_streams(const AffineLayer& layer, const at::Tensor& streams) {
  const std::int64_t leaves = streams.size(0), count = streams.size(1), points = streams.size(2),
                     in = streams.size(3);
  const std::int64_t out = layer.weight.size(2);
  const at::Tensor z = at::bmm(streams.view({leaves, count * points, in}), layer.weight)
                           .view({leaves, count, points, out});
  return SineJetFunction::apply(z, layer.bias)[0];
}

/// The output layer (out = 1): u and its derivatives rearranged to [K+1, L, P] and [L, P].
LeafDerivatives output_layer(const AffineLayer& layer, const at::Tensor& streams) {
  const std::int64_t leaves = streams.size(0), count = streams.size(1), points = streams.size(2),
                     in = streams.size(3);
  const at::Tensor z = at::bmm(streams.view({leaves, count * points, in}), layer.weight)
                           .view({leaves, count, points});
  std::vector<at::Tensor> z_streams = z.unbind(1);
  LeafDerivatives out;
  out.u_t = z_streams.back();
  z_streams.pop_back();
  z_streams.front() = z_streams.front() + layer.bias.view({leaves, 1});
  out.u_x_derivatives = at::stack(z_streams, 0);
  return out;
}

}  // namespace

namespace {

/// `layer` in the scalar type `type` (differentiable).
AffineLayer layer_as(const AffineLayer& layer, at::ScalarType type) {
  return {layer.weight.to(type), layer.bias.to(type)};
}

/// The unit-box inputs in the scalar type `type` (differentiable).
UnitBoxInputs inputs_as(const UnitBoxInputs& in, at::ScalarType type) {
  return {in.x.to(type), in.t.to(type), in.dx_scale.to(type), in.dt_scale.to(type)};
}

/// The streams after the last hidden layer of `layers` (all of them but the output one),
/// computed in the network's hidden precision and returned as double.
at::Tensor last_hidden_streams(const SineMlpImpl& net, const std::vector<AffineLayer>& layers,
                               const at::Tensor& x, const at::Tensor& t,
                               const std::vector<DomainBox>& boxes, int order) {
  check_order(order);
  const at::ScalarType hidden = net.hidden_type();
  const UnitBoxInputs in = inputs_as(net.map_to_unit_box(x, t, boxes), hidden);
  at::Tensor streams = first_layer_streams(layer_as(layers.front(), hidden), in, order);
  for (std::size_t l = 1; l + 1 < layers.size(); ++l)
    streams = hidden_layer_streams(layer_as(layers[l], hidden), streams);
  return streams.to(at::kDouble);
}

}  // namespace

LeafDerivatives taylor_forward(const SineMlpImpl& net, const at::Tensor& x, const at::Tensor& t,
                               const std::vector<DomainBox>& boxes, int order) {
  const std::vector<AffineLayer> layers = net.scaled_layers();
  return output_layer(layers.back(), last_hidden_streams(net, layers, x, t, boxes, order));
}

LeafDerivatives output_derivatives(const SineMlpImpl& net, const at::Tensor& hidden_streams) {
  return output_layer(net.scaled_layers().back(), hidden_streams);
}

at::Tensor taylor_hidden_streams(const SineMlpImpl& net, const at::Tensor& x, const at::Tensor& t,
                                 const std::vector<DomainBox>& boxes, int order) {
  return last_hidden_streams(net, net.scaled_layers(), x, t, boxes, order);
}

LeafDerivatives nested_autograd_derivatives(const SineMlpImpl& net, const at::Tensor& x,
                                            const at::Tensor& t,
                                            const std::vector<DomainBox>& boxes, int order) {
  check_order(order);
  const at::Tensor x_leaf = x.detach().requires_grad_(true);
  const at::Tensor t_leaf = t.detach().requires_grad_(true);
  const at::Tensor u = net.forward(x_leaf, t_leaf, boxes);
  // Points and leaves are independent, so the gradient of a sum is the pointwise derivative.
  std::vector<at::Tensor> inputs{t_leaf};
  if (order >= 1) inputs.push_back(x_leaf);
  const auto first = torch::autograd::grad({u.sum()}, inputs, {}, /*retain_graph=*/true,
                                           /*create_graph=*/true);
  LeafDerivatives out;
  out.u_t = first[0];
  std::vector<at::Tensor> derivatives{u};
  if (order >= 1) derivatives.push_back(first[1]);
  for (int n = 2; n <= order; ++n)
    derivatives.push_back(torch::autograd::grad({derivatives.back().sum()}, {x_leaf}, {},
                                                /*retain_graph=*/true, /*create_graph=*/true)[0]);
  out.u_x_derivatives = at::stack(derivatives, 0);
  return out;
}

}  // namespace bhpm::nn
