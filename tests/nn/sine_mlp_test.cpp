// Sine MLP leaves and their Taylor-mode derivatives: nested autograd is the oracle for
// values, derivatives and parameter gradients; finite differences and the chain rule of
// the input map check the oracle's meaning.

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <ostream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "nn/faa_di_bruno.h"
#include "nn/sine_mlp.h"
#include "nn/taylor_forward.h"
#include "support/error_message.h"

using namespace bhpm::nn;
using bhpm::testing_support::error_message;
using ::testing::HasSubstr;

namespace {

/// max |a - b| / max |b|.
double relative_error(const at::Tensor& a, const at::Tensor& b) {
  const double scale = b.abs().max().item<double>();
  return (a - b).abs().max().item<double>() / std::max(scale, 1e-300);
}

struct Points {
  at::Tensor x, t;  // [L, P]
};

/// P points uniform in each leaf's box.
Points points_in(const std::vector<DomainBox>& boxes, std::int64_t points, std::uint64_t seed) {
  auto gen = at::make_generator<at::CPUGeneratorImpl>(seed);
  std::vector<at::Tensor> xs, ts;
  for (const DomainBox& b : boxes) {
    xs.push_back(at::empty({points}, at::kDouble).uniform_(b.x_min, b.x_max, gen));
    ts.push_back(at::empty({points}, at::kDouble).uniform_(b.t_min, b.t_max, gen));
  }
  return {at::stack(xs), at::stack(ts)};
}

const std::vector<DomainBox> kThreeBoxes{
    {-8.0, 8.0, 0.0, 10.0}, {-20.0, 20.0, 0.0, 40.0}, {0.5, 2.0, -1.0, 0.25}};

SineMlpOptions three_leaves(SineMlpOptions options) {
  options.leaves = 3;
  return options;
}

/// `options` with double hidden layers: the exact contracts hold to rounding there.
SineMlpOptions in_float64(SineMlpOptions options) {
  options.precision = "float64";
  return options;
}

/// Option sets the contract tests run over, with the relative tolerance of their
/// arithmetic: the defaults in double and in float32 hidden layers (the oracle then
/// differentiates the same float32 forward), SIREN's omega_0 = 30, and a small "glorot"
/// network with a hidden frequency scale.
struct NamedOptions {
  std::string name;
  SineMlpOptions options;
  double tolerance;
};

std::vector<NamedOptions> option_sets() {
  SineMlpOptions float32;
  float32.precision = "float32";
  SineMlpOptions siren30 = in_float64({});
  siren30.first_omega = 30.0;
  siren30.seed = 5;
  SineMlpOptions glorot = in_float64({});
  glorot.initialization = "glorot";
  glorot.hidden_layers = 2;
  glorot.width = 16;
  glorot.first_omega = 2.0;
  glorot.hidden_omega = 1.7;
  glorot.seed = 9;
  return {{"float64", in_float64({}), 1e-10},
          {"float32", float32, 2e-5},
          {"siren30", siren30, 1e-10},
          {"glorot", glorot, 1e-10}};
}

void PrintTo(const NamedOptions& options, std::ostream* out) { *out << options.name; }

class TaylorForwardContract : public ::testing::TestWithParam<NamedOptions> {};

}  // namespace

TEST_P(TaylorForwardContract, derivatives_match_nested_autograd_at_every_order) {
  const SineMlp net(three_leaves(GetParam().options));
  const Points p = points_in(kThreeBoxes, 24, 1);
  const at::Tensor &x = p.x, &t = p.t;
  const LeafDerivatives oracle = nested_autograd_derivatives(*net, x, t, kThreeBoxes, kMaxOrder);
  for (int order = 0; order <= kMaxOrder; ++order) {
    const LeafDerivatives jet = taylor_forward(*net, x, t, kThreeBoxes, order);
    ASSERT_EQ(jet.u_x_derivatives.sizes(), (at::IntArrayRef{order + 1, 3, 24}));
    ASSERT_EQ(jet.u_t.sizes(), (at::IntArrayRef{3, 24}));
    for (int leaf = 0; leaf < 3; ++leaf) {
      EXPECT_LT(relative_error(jet.u_t[leaf], oracle.u_t[leaf]), GetParam().tolerance)
          << "u_t of K = " << order << ", leaf " << leaf;
      for (int n = 0; n <= order; ++n)
        EXPECT_LT(relative_error(jet.u_x_derivatives[n][leaf], oracle.u_x_derivatives[n][leaf]),
                  GetParam().tolerance)
            << "order " << n << " of K = " << order << ", leaf " << leaf;
    }
  }
}

TEST_P(TaylorForwardContract, parameter_gradients_match_nested_autograd) {
  SineMlp net(three_leaves(GetParam().options));
  const Points p = points_in(kThreeBoxes, 32, 2);
  const at::Tensor &x = p.x, &t = p.t;
  // A loss that mixes every output, as the root's likelihood will.
  const auto loss_of = [](const LeafDerivatives& d) {
    const at::Tensor& v = d.u_x_derivatives;
    at::Tensor loss = (d.u_t - v[0] * v[v.size(0) - 1]).square().mean();
    for (std::int64_t n = 0; n < v.size(0); ++n) loss = loss + (n + 1.0) * v[n].square().mean();
    return loss;
  };
  const auto gradients_of = [&](const LeafDerivatives& d) {
    net->zero_grad(/*set_to_none=*/true);
    loss_of(d).backward();
    std::vector<at::Tensor> grads;
    for (const at::Tensor& w : net->parameters()) grads.push_back(w.grad().clone());
    return grads;
  };
  const auto names = net->named_parameters().keys();
  for (int order : {0, 1, 3, kMaxOrder}) {
    const auto taylor = gradients_of(taylor_forward(*net, x, t, kThreeBoxes, order));
    const auto nested = gradients_of(nested_autograd_derivatives(*net, x, t, kThreeBoxes, order));
    ASSERT_EQ(taylor.size(), nested.size());
    for (std::size_t i = 0; i < taylor.size(); ++i) {
      EXPECT_GT(nested[i].abs().max().item<double>(), 0.0) << names[i] << ", K = " << order;
      EXPECT_LT(relative_error(taylor[i], nested[i]), GetParam().tolerance)
          << names[i] << ", K = " << order;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(SineMlpOptionSets, TaylorForwardContract,
                         ::testing::ValuesIn(option_sets()),
                         [](const auto& info) { return info.param.name; });

namespace {

/// Two leaves of two outputs on 2-D boxes, and P points in each box.
struct PlanePoints {
  std::vector<DomainBox> boxes{{-8.0, 8.0, 0.0, 10.0, -4.0, 4.0}, {0.5, 2.0, -1.0, 0.25, 1.0, 3.0}};
  at::Tensor x, y, t;  // [2, P]
  explicit PlanePoints(std::int64_t points) {
    const Points xt = points_in(boxes, points, 3);
    x = xt.x;
    t = xt.t;
    auto gen = at::make_generator<at::CPUGeneratorImpl>(4);
    y = at::stack({at::empty({points}, at::kDouble).uniform_(-4.0, 4.0, gen),
                   at::empty({points}, at::kDouble).uniform_(1.0, 3.0, gen)});
  }
};

SineMlpOptions two_field_plane(const std::string& precision) {
  SineMlpOptions options;
  options.leaves = 2;
  options.space_dimensions = 2;
  options.outputs = 2;
  options.hidden_layers = 3;
  options.width = 24;
  options.precision = precision;
  options.seed = 7;
  return options;
}

}  // namespace

TEST(TaylorPartials, mixed_partials_of_two_fields_in_two_dimensions_match_nested_autograd) {
  // Measured worst relative errors: 3.3e-15 (float64), 9.4e-7 (float32 hidden layers).
  const PlanePoints p(20);
  for (const auto& [precision, tolerance] : {std::pair{"float64", 1e-12}, {"float32", 1e-5}}) {
    const SineMlp net(two_field_plane(precision));
    const int order = 4;
    const LeafPartials jet = taylor_partials(*net, p.x, p.y, p.t, p.boxes, order);
    const LeafPartials oracle = nested_autograd_partials(*net, p.x, p.y, p.t, p.boxes, order);
    ASSERT_EQ(jet.orders, oracle.orders);
    ASSERT_EQ(jet.orders.size(), 15u);  // (a, b) with a + b <= 4
    ASSERT_EQ(jet.values.sizes(), (at::IntArrayRef{15, 2, 20, 2}));
    EXPECT_LT(relative_error(jet.u_t, oracle.u_t), tolerance) << precision;
    for (std::size_t r = 0; r < jet.orders.size(); ++r)
      for (int field = 0; field < 2; ++field)
        EXPECT_LT(
            relative_error(jet.values[r].select(-1, field), oracle.values[r].select(-1, field)),
            tolerance)
            << precision << ": d_x^" << jet.orders[r].first << " d_y^" << jet.orders[r].second
            << " of field " << field;
  }
}

TEST(TaylorPartials, parameter_gradients_in_two_dimensions_match_nested_autograd) {
  SineMlp net(two_field_plane("float64"));
  const PlanePoints p(16);
  const auto gradients_of = [&](const LeafPartials& d) {
    net->zero_grad(/*set_to_none=*/true);
    at::Tensor loss = (d.u_t - d.values[0] * d.values[d.values.size(0) - 1]).square().mean();
    for (std::int64_t r = 0; r < d.values.size(0); ++r)
      loss = loss + (r + 1.0) * d.values[r].square().mean();
    loss.backward();
    std::vector<at::Tensor> grads;
    for (const at::Tensor& w : net->parameters()) grads.push_back(w.grad().clone());
    return grads;
  };
  const auto taylor = gradients_of(taylor_partials(*net, p.x, p.y, p.t, p.boxes, 3));
  const auto nested = gradients_of(nested_autograd_partials(*net, p.x, p.y, p.t, p.boxes, 3));
  const auto names = net->named_parameters().keys();
  for (std::size_t i = 0; i < taylor.size(); ++i)
    EXPECT_LT(relative_error(taylor[i], nested[i]), 1e-9) << names[i];
}

TEST(TaylorPartials, a_network_refuses_coordinates_of_another_dimension) {
  const PlanePoints p(4);
  const SineMlp plane(two_field_plane("float64"));
  EXPECT_THAT(error_message([&] { taylor_partials(*plane, p.x, at::Tensor(), p.t, p.boxes, 1); }),
              HasSubstr("two space dimensions needs y"));
  EXPECT_THAT(error_message([&] { plane->forward(p.x, p.t, p.boxes); }),
              HasSubstr("use forward_fields"));
  const SineMlp line(three_leaves(in_float64({})));
  const Points q = points_in(kThreeBoxes, 4, 6);
  EXPECT_THAT(error_message([&] { taylor_partials(*line, q.x, q.x, q.t, kThreeBoxes, 1); }),
              HasSubstr("one space dimension takes no y"));
}

TEST(TaylorPartials, one_field_on_a_line_is_taylor_forward) {
  const SineMlp net(three_leaves(in_float64({})));
  const Points p = points_in(kThreeBoxes, 12, 5);
  const LeafPartials partials = taylor_partials(*net, p.x, at::Tensor(), p.t, kThreeBoxes, 3);
  const LeafDerivatives derivatives = taylor_forward(*net, p.x, p.t, kThreeBoxes, 3);
  EXPECT_TRUE(at::equal(partials.values.squeeze(-1), derivatives.u_x_derivatives));
  EXPECT_TRUE(at::equal(partials.u_t.squeeze(-1), derivatives.u_t));
  EXPECT_EQ(partials.orders, (std::vector<std::pair<int, int>>{{0, 0}, {1, 0}, {2, 0}, {3, 0}}));
}

TEST(TaylorForward, derivatives_match_central_differences_of_the_plain_forward) {
  const SineMlp net(in_float64({}));
  const std::vector<DomainBox> box{{-8.0, 8.0, 0.0, 10.0}};
  const Points p = points_in(box, 16, 3);
  const at::Tensor &x = p.x, &t = p.t;
  const LeafDerivatives jet = taylor_forward(*net, x, t, box, 4);
  const auto u = [&](double dx, double dt) { return net->forward(x + dx, t + dt, box); };
  // d^n u/dx^n ~ h^-n sum_k (-1)^k C(n, k) u(x + (n/2 - k) h): error O(h^2).
  const double h = 2e-2;
  for (int n = 1; n <= 4; ++n) {
    at::Tensor difference = at::zeros_like(x);
    double binomial = 1.0;
    for (int k = 0; k <= n; ++k) {
      difference = difference + ((k % 2 ? -1.0 : 1.0) * binomial) * u((0.5 * n - k) * h, 0.0);
      binomial = binomial * (n - k) / (k + 1);
    }
    difference = difference / std::pow(h, n);
    EXPECT_LT(relative_error(jet.u_x_derivatives[n], difference), 2e-3) << "order " << n;
  }
  const at::Tensor u_t = (u(0.0, 1e-4) - u(0.0, -1e-4)) / 2e-4;
  EXPECT_LT(relative_error(jet.u_t, u_t), 1e-6);
}

TEST(TaylorForward, domain_map_scales_derivatives_by_the_chain_rule) {
  // Three copies of one network: on [-1, 1]^2 (no map), on Burgers' [-8, 8] x [0, 10] and
  // on [2, 6] x [1, 3], evaluated at the same points of [-1, 1]^2.
  SineMlpOptions options = in_float64({});
  options.leaves = 3;
  const SineMlp net(options);
  {
    at::NoGradGuard no_grad;
    for (at::Tensor w : net->parameters())
      w.copy_(w.select(0, 0).unsqueeze(0).expand_as(w).clone());
  }
  const std::vector<DomainBox> boxes{
      {-1.0, 1.0, -1.0, 1.0}, {-8.0, 8.0, 0.0, 10.0}, {2.0, 6.0, 1.0, 3.0}};
  const Points unit = points_in({boxes[0]}, 20, 4);
  const at::Tensor &unit_x = unit.x, &unit_t = unit.t;
  const at::Tensor x = at::cat({unit_x, 8.0 * unit_x, 4.0 + 2.0 * unit_x});
  const at::Tensor t = at::cat({unit_t, 5.0 * (unit_t + 1.0), 2.0 + unit_t});
  const LeafDerivatives d = taylor_forward(*net, x, t, boxes, kMaxOrder);
  const double x_scale[] = {1.0, 1.0 / 8.0, 1.0 / 2.0}, t_scale[] = {1.0, 1.0 / 5.0, 1.0};
  for (int leaf = 1; leaf < 3; ++leaf) {
    EXPECT_LT(relative_error(d.u_t[leaf], t_scale[leaf] * d.u_t[0]), 1e-12) << "leaf " << leaf;
    for (int n = 0; n <= kMaxOrder; ++n)
      EXPECT_LT(relative_error(d.u_x_derivatives[n][leaf],
                               std::pow(x_scale[leaf], n) * d.u_x_derivatives[n][0]),
                1e-12)
          << "order " << n << ", leaf " << leaf;
  }
}

TEST(TaylorForward, float32_hidden_layers_round_the_float64_outputs_and_gradients) {
  // The same parameters in both precisions: float32 arithmetic in the hidden layers moves
  // every output and every parameter gradient by rounding of order 1e-7 relative.
  SineMlp exact(three_leaves(in_float64({})));
  SineMlpOptions options = three_leaves({});
  options.precision = "float32";
  SineMlp rounded(options);
  const Points p = points_in(kThreeBoxes, 64, 6);
  const auto outputs_and_gradients = [&](SineMlp& net) {
    net->zero_grad(/*set_to_none=*/true);
    const LeafDerivatives d = taylor_forward(*net, p.x, p.t, kThreeBoxes, 3);
    EXPECT_EQ(d.u_t.scalar_type(), at::kDouble);
    EXPECT_EQ(d.u_x_derivatives.scalar_type(), at::kDouble);
    (d.u_t.square().mean() + d.u_x_derivatives.square().mean()).backward();
    std::vector<at::Tensor> values{d.u_x_derivatives, d.u_t};
    for (const at::Tensor& w : net->parameters()) values.push_back(w.grad().clone());
    return values;
  };
  const auto a = outputs_and_gradients(exact), b = outputs_and_gradients(rounded);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double error = relative_error(b[i], a[i]);
    EXPECT_LT(error, 2e-5) << "output or gradient " << i;
    EXPECT_GT(error, 0.0) << "output or gradient " << i << ": float32 arithmetic did not run";
  }
}

TEST(SineMlp, same_seed_gives_the_same_weights_and_leaves_do_not_depend_on_their_count) {
  SineMlpOptions options;
  options.leaves = 3;
  const SineMlp a(options), b(options);
  options.leaves = 1;
  const SineMlp single(options);
  options.seed = 1;
  const SineMlp other(options);
  const auto pa = a->parameters(), pb = b->parameters(), p1 = single->parameters(),
             po = other->parameters();
  ASSERT_EQ(pa.size(), 14u);  // 7 layers: weight and bias each
  for (std::size_t i = 0; i < pa.size(); ++i) {
    EXPECT_TRUE(pa[i].equal(pb[i])) << i;
    EXPECT_TRUE(pa[i].narrow(0, 0, 1).equal(p1[i])) << i;
    EXPECT_FALSE(p1[i].equal(po[i])) << i;
    EXPECT_FALSE(pa[i][0].equal(pa[i][1])) << i;  // leaves differ
  }
}

TEST(SineMlp, reset_redraws_the_same_weights_and_clone_copies_them) {
  SineMlp net(SineMlpOptions{});
  const at::Tensor before = net->weights()[2].clone();
  {
    at::NoGradGuard no_grad;
    net->weights()[2].add_(1.0);
  }
  const auto copy = std::dynamic_pointer_cast<SineMlpImpl>(net->clone());
  EXPECT_TRUE(copy->weights()[2].equal(before + 1.0));
  net->reset();
  EXPECT_TRUE(net->weights()[2].equal(before));
  EXPECT_TRUE(copy->weights()[2].equal(before + 1.0));
  EXPECT_EQ(net->parameters().size(), copy->parameters().size());
}

TEST(SineMlp, siren_initialisation_respects_its_bounds) {
  SineMlpOptions options;
  options.leaves = 2;
  options.hidden_omega = 2.0;
  const SineMlp net(options);
  const auto& w = net->weights();
  const auto check = [](const at::Tensor& tensor, double bound, const std::string& what) {
    const double largest = tensor.abs().max().item<double>();
    EXPECT_LE(largest, bound) << what;
    EXPECT_GT(largest, 0.95 * bound) << what;  // uniform over the whole interval
    EXPECT_LT(std::abs(tensor.mean().item<double>()), 0.1 * bound) << what;
  };
  check(w[0], 1.0 / 2.0, "first layer");
  for (std::size_t l = 1; l < w.size(); ++l)
    check(w[l], std::sqrt(6.0 / 64.0) / 2.0, "layer " + std::to_string(l));
  EXPECT_EQ(w[0].sizes(), (at::IntArrayRef{2, 2, 64}));
  EXPECT_EQ(w[3].sizes(), (at::IntArrayRef{2, 64, 64}));
  EXPECT_EQ(w[6].sizes(), (at::IntArrayRef{2, 64, 1}));
  EXPECT_EQ(net->biases()[6].sizes(), (at::IntArrayRef{2, 1, 1}));
}

TEST(SineMlp, bad_options_throw_naming_the_field) {
  const auto message_of = [](SineMlpOptions options) {
    try {
      SineMlp net(options);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no exception");
  };
  SineMlpOptions o;
  o.leaves = 0;
  EXPECT_THAT(message_of(o), HasSubstr("leaves must be >= 1 (got 0)"));
  o = {};
  o.hidden_layers = -2;
  EXPECT_THAT(message_of(o), HasSubstr("hidden_layers must be >= 1 (got -2)"));
  o = {};
  o.width = 0;
  EXPECT_THAT(message_of(o), HasSubstr("width"));
  o = {};
  o.first_omega = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THAT(message_of(o), HasSubstr("sine MLP: first_omega must be > 0"));
  o = {};
  o.hidden_omega = -1.0;
  EXPECT_THAT(message_of(o), HasSubstr("hidden_omega must be > 0 (got -1"));
  o = {};
  o.initialization = "xavier";
  EXPECT_THAT(message_of(o),
              HasSubstr("initialization must be \"siren\" or \"glorot\" (got \"xavier\")"));
  o = {};
  o.precision = "float16";
  EXPECT_THAT(message_of(o),
              HasSubstr("precision must be \"float32\" or \"float64\" (got \"float16\")"));
}

TEST(TaylorForward, order_out_of_range_and_bad_inputs_throw) {
  SineMlpOptions options;
  options.leaves = 2;
  options.hidden_layers = 1;
  const SineMlp net(options);
  const std::vector<DomainBox> boxes{{-1, 1, 0, 1}, {0, 2, 0, 1}};
  const at::Tensor x = at::zeros({2, 5}, at::kDouble), t = at::zeros({2, 5}, at::kDouble);
  const auto message_of = [&](auto&& call) {
    try {
      call();
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no exception");
  };
  for (int order : {-1, kMaxOrder + 1}) {
    const std::string expected = "K = " + std::to_string(order);
    EXPECT_THAT(message_of([&] { taylor_forward(*net, x, t, boxes, order); }), HasSubstr(expected));
    EXPECT_THAT(message_of([&] { nested_autograd_derivatives(*net, x, t, boxes, order); }),
                HasSubstr(expected));
  }
  EXPECT_THAT(message_of([&] { taylor_forward(*net, x[0], t[0], boxes, 2); }), HasSubstr("[L, P]"));
  EXPECT_THAT(message_of([&] { net->forward(x, t.narrow(1, 0, 4), boxes); }),
              HasSubstr("t [2, 4]"));
  EXPECT_THAT(message_of([&] { net->forward(x, t, {boxes[0]}); }), HasSubstr("one box per leaf"));
  EXPECT_THAT(message_of([&] { net->forward(x.to(at::kFloat), t, boxes); }), HasSubstr("double"));
  const std::vector<DomainBox> flat{{-1, 1, 0, 1}, {2, 2, 0, 1}};
  EXPECT_THAT(message_of([&] { net->forward(x, t, flat); }), HasSubstr("boxes[1].x_max"));
}

TEST(TaylorFaaDiBruno, bell_polynomials_have_the_known_coefficients) {
  const FaaDiBrunoTable table(kMaxOrder);
  using Poly = std::vector<std::pair<double, std::vector<int>>>;
  EXPECT_EQ(table.bell_polynomial(3, 2), (Poly{{3.0, {2, 1}}}));
  EXPECT_EQ(table.bell_polynomial(4, 2), (Poly{{4.0, {3, 1}}, {3.0, {2, 2}}}));
  EXPECT_EQ(table.bell_polynomial(6, 3),
            (Poly{{15.0, {4, 1, 1}}, {60.0, {3, 2, 1}}, {15.0, {2, 2, 2}}}));
  // sum_k B_{n,k}(1, 1, ...) counts the set partitions of n things: the Bell numbers.
  const double bell_numbers[] = {1, 2, 5, 15, 52, 203};
  for (int n = 1; n <= 6; ++n) {
    double total = 0;
    for (int k = 1; k <= n; ++k)
      for (const auto& term : table.bell_polynomial(n, k)) total += term.first;
    EXPECT_EQ(total, bell_numbers[n - 1]) << n;
  }
  EXPECT_THROW(table.bell_polynomial(7, 1), std::invalid_argument);
}

TEST(TaylorFaaDiBruno, sine_of_a_linear_function_has_closed_form_derivatives) {
  // z = a x: d^n sin(a x)/dx^n = a^n sin(a x + n pi/2).
  const FaaDiBrunoTable table(kMaxOrder);
  const at::Tensor x = at::linspace(-2.0, 2.0, 9, at::kDouble);
  const double a = 1.3;
  std::vector<at::Tensor> z{at::full_like(x, a)};
  for (int n = 2; n <= kMaxOrder; ++n) z.push_back(at::zeros_like(x));
  const auto y = table.sine_derivatives(at::sin(a * x), at::cos(a * x), z);
  for (int n = 1; n <= kMaxOrder; ++n)
    EXPECT_LT(relative_error(y[n - 1], std::pow(a, n) * at::sin(a * x + n * M_PI / 2)), 1e-14) << n;
}

TEST(TaylorFaaDiBruno, written_out_forward_and_backward_match_autograd) {
  // Random jets z, z_1..z_6 and output gradients g_1..g_6: the _into values and the
  // hand-written vector-Jacobian product against autograd through sine_derivatives.
  const FaaDiBrunoTable table(kMaxOrder);
  auto gen = at::make_generator<at::CPUGeneratorImpl>(21);
  const auto random = [&] { return at::empty({3, 5}, at::kDouble).normal_(0.0, 1.0, gen); };
  const at::Tensor z = random().requires_grad_(true);
  std::vector<at::Tensor> z_x, g;
  for (int n = 1; n <= kMaxOrder; ++n) {
    z_x.push_back(random().requires_grad_(true));
    g.push_back(random());
  }
  const std::vector<at::Tensor> y = table.sine_derivatives(at::sin(z), at::cos(z), z_x);
  at::Tensor loss = at::zeros({}, at::kDouble);
  for (int n = 0; n < kMaxOrder; ++n) loss = loss + (y[n] * g[n]).sum();
  loss.backward();

  at::NoGradGuard no_grad;
  const at::Tensor s = at::sin(z), c = at::cos(z);
  std::vector<at::Tensor> y_into, g_z;
  for (int n = 0; n < kMaxOrder; ++n) {
    y_into.push_back(at::empty_like(s));
    g_z.push_back(at::empty_like(s));
  }
  table.sine_derivatives_into(s, c, z_x, y_into);
  at::Tensor g_value = at::zeros_like(s);
  table.sine_derivatives_backward(s, c, z_x, g, g_value, g_z);
  EXPECT_LT(relative_error(g_value, z.grad()), 1e-13);
  for (int n = 0; n < kMaxOrder; ++n) {
    EXPECT_LT(relative_error(y_into[n], y[n]), 1e-14) << "order " << n + 1;
    EXPECT_LT(relative_error(g_z[n], z_x[n].grad()), 1e-13) << "z_" << n + 1;
  }
}
