#pragma once
/// Values and derivatives of the leaves' sine MLPs: u, u_x, ..., d^K u/dx^K and u_t with
/// respect to the ORIGINAL coordinates (x, t) of each leaf's domain box, the inputs of
/// the root GP (paper section 2.2: v = (u, u_x, ..., d^K u/dx^K), target u_t).
///
/// taylor_forward is a Taylor-mode (jet) forward pass: every layer carries S = K + 2
/// streams [L, S, P, width] (value, K x-derivatives, t-derivative).
///  - Input map: x^ = a_x (x - x_min) - 1 with a_x = 2 / (x_max - x_min), so
///    d x^/dx = a_x, d t^/dt = a_t (the chain rule of the map enters here, once).
///  - First layer z = W [x^, t^] + b: z_x = a_x W_x and z_t = a_t W_t are constants and
///    z_xx = ... = 0, so y = sin z has y_(n) = sin^(n)(z) z_x^n and y_t = cos(z) z_t.
///  - Later linear layers apply W to every stream in one batched product
///    [L, S P, in] x [L, in, out]; the bias goes to the value stream only.
///  - Later sines apply Faa di Bruno's formula (nn/faa_di_bruno.h) to the x-streams and
///    y_t = cos(z) z_t to the t-stream, as one custom autograd function per layer whose
///    backward (the vector-Jacobian product of Faa di Bruno's formula) is written out:
///    both passes write all S streams straight into one tensor. Composing the same
///    formula from autograd operations gave identical numbers but cost 14-19% more per
///    training step (stacking, unbinding and per-stream gradient accumulation); a step
///    now costs 1-7% more than the same batched products with one plain sine over all
///    streams, a lower bound for any elementwise work.
/// The hidden layers run in the network's precision (SineMlpImpl::hidden_type()); the
/// input map and the output layer in double, so every output is double.
/// One ordinary backward of a loss built from the outputs gives the parameter gradients
/// (no create_graph); the graph supports that one backward, not a second differentiation.
///
/// taylor_partials does the same for a network of one or two space dimensions and q
/// outputs (a leaf of a system of fields, docs/systems.md). In two dimensions it runs the
/// x-streams along K + 1 directions (cos theta_g, sin theta_g), theta_g = g pi / (K + 1), in
/// one pass: the value and t streams are shared, each direction's K streams follow Faa di
/// Bruno's formula as above, and the first layer's slope along direction g is
/// cos theta_g a_x W_x + sin theta_g a_y W_y. The k-th directional derivatives D_g^k u =
/// sum_b C(k, b) cos^(k-b) theta_g sin^b theta_g d_x^(k-b) d_y^b u of the first k + 1
/// directions (distinct slopes) give the k + 1 partials of order k by one small linear solve
/// (Griewank, Utke and Walther 2000, "Evaluating higher derivative tensors by forward
/// propagation of univariate Taylor series").
///
/// nested_autograd_derivatives computes the same quantities by differentiating the plain
/// forward with torch::autograd::grad (create_graph = true) K times in x and once in t:
/// the test oracle and the benchmark baseline (bench/leaf_step).

#include <ATen/core/Tensor.h>

#include <vector>

namespace bhpm::nn {

class SineMlpImpl;
struct DomainBox;

/// Highest x-derivative order K the Taylor-mode pass supports.
constexpr int kMaxOrder = 6;

/// Partials of q outputs over L leaves at P points each.
struct LeafPartials {
  /// (x-order a, y-order b) of each row of `values`: every a + b <= K, by total order, then
  /// by b: (0, 0), (1, 0), (0, 1), (2, 0), (1, 1), (0, 2), ... (b = 0 in one dimension).
  std::vector<std::pair<int, int>> orders;
  at::Tensor values;  ///< [R, L, P, q]: d^a/dx^a d^b/dy^b of every output
  at::Tensor u_t;     ///< [L, P, q]
};

/// Outputs of one pass over L leaves at P points each.
struct LeafDerivatives {
  at::Tensor u_x_derivatives;  ///< [K+1, L, P]: u, u_x, ..., d^K u/dx^K
  at::Tensor u_t;              ///< [L, P]
};

/// Taylor-mode values and derivatives at x, t [L, P] (double), leaf i on boxes[i].
/// Throws std::invalid_argument naming K unless 0 <= order <= kMaxOrder, and as
/// SineMlpImpl::map_to_unit_box for bad shapes or boxes.
LeafDerivatives taylor_forward(const SineMlpImpl& net, const at::Tensor& x, const at::Tensor& t,
                               const std::vector<DomainBox>& boxes, int order);

/// The Taylor streams of the last hidden layer h_H [L, S, P, width], S = K + 2 (value,
/// K x-derivatives, t-derivative), computed in the network's hidden precision and
/// returned as double: the leaves' outputs are linear in them,
///   d^n u/dx^n = (d^n h_H/dx^n) W_{H+1} (+ b_{H+1} for n = 0),  u_t = (d h_H/dt) W_{H+1},
/// which the last-layer Laplace approximation uses (model/leaf_laplace.h). Same errors as
/// taylor_forward.
at::Tensor taylor_hidden_streams(const SineMlpImpl& net, const at::Tensor& x, const at::Tensor& t,
                                 const std::vector<DomainBox>& boxes, int order);

/// The leaves' outputs from the last hidden layer's streams [L, S, P, width] (the output
/// layer of taylor_forward): taylor_forward = output_derivatives(net, taylor_hidden_streams).
LeafDerivatives output_derivatives(const SineMlpImpl& net, const at::Tensor& hidden_streams);

/// Taylor-mode partials of every output at x, y, t [L, P] (double; y undefined for a
/// network of one space dimension), leaf i on boxes[i]. Same errors as taylor_forward, and
/// SineMlpImpl::map_to_unit_box's for a y that the network does not take or lacks.
LeafPartials taylor_partials(const SineMlpImpl& net, const at::Tensor& x, const at::Tensor& y,
                             const at::Tensor& t, const std::vector<DomainBox>& boxes, int order);

/// The same by nested reverse-mode autograd (the test oracle). Same errors.
LeafPartials nested_autograd_partials(const SineMlpImpl& net, const at::Tensor& x,
                                      const at::Tensor& y, const at::Tensor& t,
                                      const std::vector<DomainBox>& boxes, int order);

/// The same quantities by nested reverse-mode autograd (create_graph = true, so a loss of
/// them can be differentiated with respect to the parameters). Same errors.
LeafDerivatives nested_autograd_derivatives(const SineMlpImpl& net, const at::Tensor& x,
                                            const at::Tensor& t,
                                            const std::vector<DomainBox>& boxes, int order);

}  // namespace bhpm::nn
