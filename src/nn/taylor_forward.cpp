#include "nn/taylor_forward.h"

#include <ATen/ATen.h>
#include <torch/csrc/autograd/autograd.h>
#include <torch/csrc/autograd/custom_function.h>

#include <cmath>
#include <map>
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

/// The directions (cos theta_g, sin theta_g) of a pass's derivative streams: x alone in one
/// space dimension; in two, theta_g = g pi / (K + 1), g = 0..K, K + 1 distinct slopes from
/// which the mixed partials of every order <= K are recovered (mixed_partial_weights).
std::vector<double> direction_angles(std::int64_t space_dimensions, int order) {
  std::vector<double> angles{0.0};
  if (space_dimensions == 2)
    for (int g = 1; g <= order; ++g) angles.push_back(g * M_PI / (order + 1));
  return angles;
}

/// Streams [L, S, P, width] after the first sine layer, S = 1 + G K + 1: the value, K
/// derivatives along each of the G directions, the t-derivative. The pre-activation is
/// affine in the coordinates: its slope along direction g, z_g = cos theta_g a_x W_x +
/// sin theta_g a_y W_y [L, 1, width] (a_x W_x in one space dimension), and z_t = a_t W_t are
/// constants, so d^n sin(z)/ds_g^n = sin^(n)(z) z_g^n and d sin(z)/dt = cos(z) z_t.
at::Tensor first_layer_streams(const AffineLayer& layer, const UnitBoxInputs& in, int order,
                               const std::vector<double>& angles) {
  const bool two = in.y.defined();
  const at::Tensor coordinates =
      two ? at::stack({in.x, in.y, in.t}, -1) : at::stack({in.x, in.t}, -1);
  const auto sin_cos = SinCosFunction::apply(at::baddbmm(layer.bias, coordinates, layer.weight));
  const at::Tensor &s = sin_cos[0], &c = sin_cos[1];
  const at::Tensor z_x = layer.weight.narrow(1, 0, 1) * in.dx_scale.unsqueeze(-1);
  const std::int64_t t_row = two ? 2 : 1;
  const at::Tensor z_t = layer.weight.narrow(1, t_row, 1) * in.dt_scale.unsqueeze(-1);
  std::vector<at::Tensor> streams{s};
  for (const double angle : angles) {
    const at::Tensor slope =
        two ? std::cos(angle) * z_x +
                  std::sin(angle) * (layer.weight.narrow(1, 1, 1) * in.dy_scale.unsqueeze(-1))
            : z_x;
    at::Tensor power = slope;  // slope^n [L, 1, width]: cheap, P times smaller than z
    for (int n = 1; n <= order; ++n) {
      streams.push_back((derivative_uses_cos(n) ? c : s) * (derivative_sign(n) * power));
      if (n < order) power = power * slope;
    }
  }
  streams.push_back(c * z_t);
  return at::stack(streams, 1);
}

/// The K derivative streams of direction g out of S = 1 + G K + 1 stream tensors.
std::vector<at::Tensor> direction_streams(const std::vector<at::Tensor>& streams, std::int64_t g,
                                          std::int64_t groups) {
  const std::int64_t order = (static_cast<std::int64_t>(streams.size()) - 2) / groups;
  return {streams.begin() + 1 + g * order, streams.begin() + 1 + (g + 1) * order};
}

/// The sine of a hidden layer on all streams at once: z [L, S, P, W] (the batched
/// product, bias not yet added), bias [L, 1, W] -> y [L, S, P, W] with y_0 = sin(z_0 + b),
/// each of the `groups` directions' y_n from Faa di Bruno's formula and y_t = cos(z_0 + b)
/// z_t. Both passes write their
/// streams straight into one tensor (FaaDiBrunoTable's _into and _backward functions), so
/// nothing is stacked, unbound or accumulated by autograd stream by stream. Supports one
/// backward (first derivatives of a loss), not differentiation of that backward.
struct SineJetFunction : torch::autograd::Function<SineJetFunction> {
  static torch::autograd::variable_list forward(torch::autograd::AutogradContext* context,
                                                const at::Tensor& z, const at::Tensor& bias,
                                                std::int64_t groups) {
    at::Tensor y = at::empty_like(z);
    const std::vector<at::Tensor> z_streams = z.unbind(1), y_streams = y.unbind(1);
    const at::Tensor value = z_streams.front() + bias;
    at::Tensor s = y_streams.front();
    at::sin_out(s, value);
    const at::Tensor c = at::cos(value);
    for (std::int64_t g = 0; g < groups; ++g)
      sine_table().sine_derivatives_into(s, c, direction_streams(z_streams, g, groups),
                                         direction_streams(y_streams, g, groups));
    at::Tensor y_t = y_streams.back();
    at::mul_out(y_t, c, z_streams.back());
    context->save_for_backward({z, y, c});
    context->saved_data["groups"] = groups;
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
    const std::int64_t groups = context->saved_data["groups"].toInt();
    for (std::int64_t g = 0; g < groups; ++g)
      sine_table().sine_derivatives_backward(s, c, direction_streams(z_streams, g, groups),
                                             direction_streams(g_streams, g, groups), g_value,
                                             direction_streams(g_z_streams, g, groups));
    return {g_z, g_value.sum(1, /*keepdim=*/true), at::Tensor()};
  }
};

/// One batched product W over all S streams, then the sine on every stream (the bias
/// goes to the value stream only); `groups` directions of derivative streams.
at::Tensor hidden_layer_streams(const AffineLayer& layer, const at::Tensor& streams,
                                std::int64_t groups) {
  const std::int64_t leaves = streams.size(0), count = streams.size(1), points = streams.size(2),
                     in = streams.size(3);
  const std::int64_t out = layer.weight.size(2);
  const at::Tensor z = at::bmm(streams.view({leaves, count * points, in}), layer.weight)
                           .view({leaves, count, points, out});
  return SineJetFunction::apply(z, layer.bias, groups)[0];
}

/// The output layer on every stream: [S, L, P, q], the bias on the value stream only.
at::Tensor output_streams(const AffineLayer& layer, const at::Tensor& streams) {
  const std::int64_t leaves = streams.size(0), count = streams.size(1), points = streams.size(2),
                     in = streams.size(3);
  const std::int64_t out = layer.weight.size(2);
  at::Tensor z = at::bmm(streams.view({leaves, count * points, in}), layer.weight)
                     .view({leaves, count, points, out})
                     .permute({1, 0, 2, 3});
  std::vector<at::Tensor> rows = z.unbind(0);
  rows.front() = rows.front() + layer.bias.view({leaves, 1, out});
  return at::stack(rows, 0);
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
  UnitBoxInputs out;
  out.x = in.x.to(type);
  out.t = in.t.to(type);
  out.dx_scale = in.dx_scale.to(type);
  out.dt_scale = in.dt_scale.to(type);
  if (in.y.defined()) {
    out.y = in.y.to(type);
    out.dy_scale = in.dy_scale.to(type);
  }
  return out;
}

/// The streams after the last hidden layer of `layers` (all of them but the output one),
/// computed in the network's hidden precision and returned as double.
at::Tensor last_hidden_streams(const SineMlpImpl& net, const std::vector<AffineLayer>& layers,
                               const at::Tensor& x, const at::Tensor& y, const at::Tensor& t,
                               const std::vector<DomainBox>& boxes, int order) {
  check_order(order);
  const at::ScalarType hidden = net.hidden_type();
  const UnitBoxInputs in = inputs_as(net.map_to_unit_box(x, y, t, boxes), hidden);
  const std::vector<double> angles = direction_angles(net.options().space_dimensions, order);
  const std::int64_t groups = static_cast<std::int64_t>(angles.size());
  at::Tensor streams = first_layer_streams(layer_as(layers.front(), hidden), in, order, angles);
  for (std::size_t l = 1; l + 1 < layers.size(); ++l)
    streams = hidden_layer_streams(layer_as(layers[l], hidden), streams, groups);
  return streams.to(at::kDouble);
}

/// For total order k and the first k + 1 direction angles: the weights w [k+1, k+1] with
/// d^(k-b) d^b u / dx^(k-b) dy^b = sum_j w[b][j] D_j^k u, the inverse of
/// D_j^k u = sum_b C(k, b) cos^(k-b) theta_j sin^b theta_j d^(k-b)_x d^b_y u.
at::Tensor mixed_partial_weights(int k, const std::vector<double>& angles) {
  at::Tensor a = at::empty({k + 1, k + 1}, at::kDouble);
  for (int j = 0; j <= k; ++j)
    for (int b = 0; b <= k; ++b) {
      double binomial = 1.0;
      for (int i = 1; i <= b; ++i) binomial = binomial * (k - b + i) / i;
      a[j][b] = binomial * std::pow(std::cos(angles[j]), k - b) * std::pow(std::sin(angles[j]), b);
    }
  return at::linalg_inv(a);
}

}  // namespace

LeafDerivatives taylor_forward(const SineMlpImpl& net, const at::Tensor& x, const at::Tensor& t,
                               const std::vector<DomainBox>& boxes, int order) {
  const std::vector<AffineLayer> layers = net.scaled_layers();
  return output_layer(layers.back(),
                      last_hidden_streams(net, layers, x, at::Tensor(), t, boxes, order));
}

LeafDerivatives output_derivatives(const SineMlpImpl& net, const at::Tensor& hidden_streams) {
  return output_layer(net.scaled_layers().back(), hidden_streams);
}

at::Tensor taylor_hidden_streams(const SineMlpImpl& net, const at::Tensor& x, const at::Tensor& t,
                                 const std::vector<DomainBox>& boxes, int order) {
  return last_hidden_streams(net, net.scaled_layers(), x, at::Tensor(), t, boxes, order);
}

LeafPartials taylor_partials(const SineMlpImpl& net, const at::Tensor& x, const at::Tensor& y,
                             const at::Tensor& t, const std::vector<DomainBox>& boxes, int order) {
  const std::vector<AffineLayer> layers = net.scaled_layers();
  const at::Tensor out =
      output_streams(layers.back(), last_hidden_streams(net, layers, x, y, t, boxes, order));
  const bool two = net.options().space_dimensions == 2;
  const std::vector<double> angles = direction_angles(net.options().space_dimensions, order);
  LeafPartials partials;
  partials.u_t = out[out.size(0) - 1];
  std::vector<at::Tensor> rows{out[0]};
  partials.orders.emplace_back(0, 0);
  for (int k = 1; k <= order; ++k) {
    std::vector<at::Tensor> directional;  // D_g^k u, g = 0..k (the x-stream in 1-D)
    for (int g = 0; g <= (two ? k : 0); ++g) directional.push_back(out[1 + g * order + (k - 1)]);
    if (!two) {
      rows.push_back(directional.front());
      partials.orders.emplace_back(k, 0);
      continue;
    }
    const at::Tensor weights = mixed_partial_weights(k, angles).to(out.device());
    const at::Tensor stacked = at::stack(directional, 0);  // [k+1, L, P, q]
    const at::Tensor mixed = at::tensordot(weights, stacked, {1}, {0});
    for (int b = 0; b <= k; ++b) {
      rows.push_back(mixed[b]);
      partials.orders.emplace_back(k - b, b);
    }
  }
  partials.values = at::stack(rows, 0);
  return partials;
}

LeafPartials nested_autograd_partials(const SineMlpImpl& net, const at::Tensor& x,
                                      const at::Tensor& y, const at::Tensor& t,
                                      const std::vector<DomainBox>& boxes, int order) {
  check_order(order);
  const bool two = net.options().space_dimensions == 2;
  const at::Tensor x_leaf = x.detach().requires_grad_(true);
  const at::Tensor y_leaf = two ? y.detach().requires_grad_(true) : y;
  const at::Tensor t_leaf = t.detach().requires_grad_(true);
  const at::Tensor u = net.forward_fields(x_leaf, y_leaf, t_leaf, boxes);  // [L, P, q]
  const auto derivative = [](const at::Tensor& f, const at::Tensor& by) {
    // Points and leaves are independent: the gradient of a sum is the pointwise derivative.
    return torch::autograd::grad({f.sum()}, {by}, {}, /*retain_graph=*/true,
                                 /*create_graph=*/true)[0];
  };
  LeafPartials partials;
  std::vector<at::Tensor> u_t, rows;
  for (std::int64_t i = 0; i < u.size(2); ++i) u_t.push_back(derivative(u.select(2, i), t_leaf));
  partials.u_t = at::stack(u_t, -1);
  std::map<std::pair<int, int>, std::vector<at::Tensor>> known;  // (a, b) -> per output
  known[{0, 0}] = u.unbind(2);
  for (int k = 0; k <= order; ++k)
    for (int b = 0; b <= (two ? k : 0); ++b) {
      const std::pair<int, int> ab{k - b, b};
      if (k > 0) {
        const bool along_y = b > 0;
        const auto& from = known.at(along_y ? std::pair{k - b, b - 1} : std::pair{k - b - 1, b});
        for (const at::Tensor& f : from)
          known[ab].push_back(derivative(f, along_y ? y_leaf : x_leaf));
      }
      partials.orders.push_back(ab);
      rows.push_back(at::stack(known.at(ab), -1));
    }
  partials.values = at::stack(rows, 0);
  return partials;
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
